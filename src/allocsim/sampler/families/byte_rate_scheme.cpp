#include "allocsim/sampler/families/byte_rate_scheme.h"

#include <cmath>

#include "allocsim/estimate/wald_interval.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"

namespace allocsim {

const std::vector<EstimatorSpec>& ByteRateScheme::estimators() const {
  static const std::vector<EstimatorSpec> specs = {
      {"bytes", Quantity::requested_bytes, "T * sample points per sampled allocation", 2},
      {"count", Quantity::count, "1 / P(sampled) per sampled allocation (Horvitz-Thompson)", 2},
  };
  return specs;
}

const std::vector<IntervalSpec>& ByteRateScheme::intervals() const {
  static const std::vector<IntervalSpec> specs = {
      {"wald", 0, "normal approximation from the summed variance estimates"},
      {"wald", 1, "normal approximation from the Horvitz-Thompson variance estimate"},
  };
  return specs;
}

Interval ByteRateScheme::interval(std::size_t /*interval*/, std::span<const double> registers, double level) const {
  return wald_interval(registers[0], registers[1], level);
}

void ByteRateScheme::weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const {
  const RegisterRows<kRegisters> rows(out, observations.size());
  park_requested_sizes(trace, observations, rows, kCount);
  for (std::size_t o = 0; o < observations.size(); ++o) {
    const Observation& obs = observations[o];
    const auto registers = rows[o];
    const double pi = -std::expm1(log_p_none(static_cast<double>(parked_size(registers, kCount))));
    registers[kBytes] = rate_ * obs.samples;
    registers[kBytesVariance] = bytes_variance_estimate(obs.samples);
    registers[kCount] = 1.0 / pi;
    registers[kCountVariance] = (1.0 - pi) / (pi * pi);
  }
}

EstimatorTheory ByteRateScheme::theory(std::size_t estimator) const {
  if (estimator == 0) {
    return {{}, [this](const GroupTotals& truth, const AllocationTheory&) { return bytes_theory(truth); }};
  }
  return per_allocation_theory([this](const Trace& trace, std::size_t i) -> AllocationTheory {
    const double s = static_cast<double>(trace.requested[i]);
    if (s == 0) return {-1.0, 0.0, 0.0};
    const double log_none = log_p_none(s);
    return {0.0, std::exp(log_none) / -std::expm1(log_none), log_none};
  });
}

}  // namespace allocsim
