#pragma once
// The rows of a scenario's results, one kind per result table: a metric row per
// (sweep point, scheme, estimator, group), an interval row per interval method as
// well, a profile row per group kind, and each replication's whole-trace estimate.
// Their columns are declared in result_tables.h.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/stats/groups.h"
#include "allocsim/stats/interval_accumulator.h"
#include "allocsim/stats/metrics.h"

namespace allocsim {

struct MetricRow {
  std::size_t point = 0;  // index into Scenario::points
  std::string scheme;     // label
  std::string estimator;  // "bytes", "live_bytes", ...
  GroupKind group_kind = GroupKind::total;
  std::string group;
  Metrics metrics;
};

struct IntervalRow {
  std::size_t point = 0;
  std::string scheme;
  std::string estimator;
  std::string interval;  // the method: "wald", "nb-exact", ...
  GroupKind group_kind = GroupKind::total;
  std::string group;
  IntervalMetrics metrics;
};

// The profile as a whole, for one group kind: how far the estimated distribution
// of the quantity over groups is from the true one (total variation distance).
struct ProfileRow {
  std::size_t point = 0;
  std::string scheme;
  std::string estimator;
  GroupKind group_kind = GroupKind::stack;
  std::uint32_t groups = 0;  // groups holding some of the quantity
  std::uint64_t replications = 0;
  double mean_distance = 0;
  double se_distance = 0;
  double mean_groups_seen = 0;
};

// One scheme's whole-trace estimates at one point, for estimates.csv.
struct ReplicationEstimates {
  std::size_t point = 0;
  std::string scheme;
  std::string estimator;
  double truth = 0;
  std::vector<double> estimates;  // one per replication, in replication order
};

// One line of estimates.csv: replication `replication` of a ReplicationEstimates.
struct EstimateRow {
  std::size_t point = 0;
  std::string_view scheme;
  std::string_view estimator;
  std::uint64_t replication = 0;
  double truth = 0;
  double estimate = 0;
};

}  // namespace allocsim
