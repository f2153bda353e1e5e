#include "allocsim/stats/interval_accumulator.h"

#include <cmath>

namespace allocsim {

IntervalMetrics compute_interval_metrics(const IntervalAccumulator& acc, double truth, double level) {
  IntervalMetrics m;
  const double r = static_cast<double>(acc.replications());
  m.replications = acc.replications();
  m.truth = truth;
  m.level = level;
  if (r == 0) return m;
  m.coverage = static_cast<double>(acc.covered) / r;
  m.se_coverage = std::sqrt(level * (1 - level) / r);
  m.miss_low = static_cast<double>(acc.miss_low) / r;
  m.miss_high = static_cast<double>(acc.miss_high) / r;
  m.mean_width = acc.width.mean();
  m.rel_width = truth != 0 ? m.mean_width / truth : 0.0;
  return m;
}

}  // namespace allocsim
