#pragma once
// What `allocsim profile` tells about each top entry of a real heap profile: its
// samples, the system's estimate, exact intervals for its true objects and bytes,
// how stable its rank is and whether it differs from the next entry by more than
// sampling noise; and for the whole profile, the detection limits.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/profile/entry_interval.h"
#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

struct ReportOptions {
  std::size_t top = 10;
  double level = 0.95;
  std::int64_t replications = 1000;
  std::uint64_t seed = 1;
  unsigned threads = 1;  // the resamples' worker threads: the numbers do not depend on it
};

struct EntryReport {
  std::size_t entry = 0;  // index into HeapProfile::entries
  std::size_t rank = 0;   // 1 = most bytes
  EntryInterval interval;
  double rank_kept = 0;
  double in_top = 0;
  double p_value_next = -1;  // equal-bytes test against the next entry; -1 for the last
};

struct ProfileReport {
  ReportOptions options;
  std::vector<EntryReport> rows;  // the top entries, by rank
  double detection_limit_50 = 0;  // true bytes for a 50% chance to appear
  double detection_limit_95 = 0;
  double top_set_unchanged = 0;
};

ProfileReport build_report(const HeapProfile& profile, const ReportOptions& options);

// Every entry's interval at `level`, in profile order (for the annotated pprof). Each
// takes two exact quantiles, some 10-100 us, so the report computes them for its top
// rows alone.
std::vector<EntryInterval> all_entry_intervals(const HeapProfile& profile, double level);

// Renderings: a terminal table, CSV (one row per top entry), JSON.
std::string report_table(const HeapProfile& profile, const ProfileReport& report);
std::string report_csv(const HeapProfile& profile, const ProfileReport& report);
std::string report_json(const HeapProfile& profile, const ProfileReport& report);

}  // namespace allocsim::profile
