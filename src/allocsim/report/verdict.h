#pragma once
// The verdict: a summary of a scenario's results a person reads in seconds. Per sweep
// point, scheme and window: the whole heap's error, the biggest stacks with their
// error, chance of being seen and interval coverage, the stacks a profile would
// probably miss, the profile's distance from the truth, and each size bucket's
// error where the results are grouped by size.
//
// Every number is copied from the result rows the CSV files are written from
// (metrics.csv, intervals.csv, profiles.csv); nothing is computed a second time.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/engine/experiment.h"
#include "allocsim/estimate/quantity.h"

namespace allocsim {

struct GroupVerdict {
  const MetricRow* row = nullptr;         // its metrics.csv row
  const IntervalRow* interval = nullptr;  // its first intervals.csv row, if any
};

struct SchemeVerdict {
  std::size_t point = 0;
  std::string scheme;                             // label
  std::string estimator;                          // the scheme's first estimator in this window
  Quantity quantity = Quantity::requested_bytes;  // the estimator's: what its truth is
  std::string window;                             // "allocated", "live_at_peak", ...
  GroupVerdict total;
  std::vector<GroupVerdict> top_stacks;    // by true bytes, largest first
  std::size_t stacks = 0;                  // stacks holding some of the quantity
  std::size_t stacks_probably_missed = 0;  // P(seen at all) < 1/2
  double truth_probably_missed = 0;        // their share of the true total
  const ProfileRow* profile = nullptr;     // its profiles.csv row, if stacks were grouped
  std::vector<GroupVerdict> size_buckets;  // --group size_bucket: each bucket, smallest sizes first
};

struct Verdict {
  std::string scenario;
  std::uint64_t replications = 0;
  std::vector<SchemeVerdict> entries;
};

// A stack is "probably missed" when fewer than half of the profiles sample it at all.
inline constexpr double kProbablyMissed = 0.5;

// `top` stacks per entry. The verdict points into `result`, which must outlive it.
Verdict make_verdict(const Scenario& scenario, const ScenarioResult& result, std::size_t top = 5);

std::string verdict_text(const Scenario& scenario, const Verdict& verdict);
nlohmann::ordered_json verdict_json(const Scenario& scenario, const Verdict& verdict);

}  // namespace allocsim
