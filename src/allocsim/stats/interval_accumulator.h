#pragma once
// Coverage bookkeeping for one (scheme, interval, group) across replications.
// miss_low counts replications whose interval lies entirely above the truth (the
// truth is below the lower bound); miss_high those entirely below it.
#include <cstdint>

#include "allocsim/estimate/interval.h"
#include "allocsim/stats/moments.h"

namespace allocsim {

struct IntervalAccumulator {
  std::uint64_t covered = 0;
  std::uint64_t miss_low = 0;
  std::uint64_t miss_high = 0;
  Moments width;

  // Where `interval` falls against `truth`, counted `times` times; the width is
  // left to the caller (the engine accumulates a block's widths together).
  void count_outcome(const Interval& interval, double truth, std::uint64_t times) {
    if (truth < interval.lower) {
      miss_low += times;
    } else if (truth > interval.upper) {
      miss_high += times;
    } else {
      covered += times;
    }
  }

  void merge(const IntervalAccumulator& other) {
    covered += other.covered;
    miss_low += other.miss_low;
    miss_high += other.miss_high;
    width.merge(other.width);
  }

  std::uint64_t replications() const { return width.count(); }
};

struct IntervalMetrics {
  std::uint64_t replications = 0;
  double truth = 0;
  double level = 0;  // nominal coverage
  double coverage = 0;
  double se_coverage = 0;  // binomial, at the nominal level: sqrt(level (1 - level) / R)
  double miss_low = 0;
  double miss_high = 0;
  double mean_width = 0;
  double rel_width = 0;  // mean_width / truth
};

IntervalMetrics compute_interval_metrics(const IntervalAccumulator& acc, double truth, double level);

}  // namespace allocsim
