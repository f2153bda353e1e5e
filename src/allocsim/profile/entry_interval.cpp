#include "allocsim/profile/entry_interval.h"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <cstdint>

#include "allocsim/estimate/negative_binomial.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

using interval::NegativeBinomial;
using interval::QuantileRounding;

// `certain`: every trial succeeds (certain_to_be_sampled), so n = k exactly.
EntryInterval binomial_objects(double samples, double p, bool certain, double level) {
  const double tail = (1.0 - level) / 2.0;
  const auto k = static_cast<std::int64_t>(samples);
  EntryInterval result;
  if (certain) {
    result.objects_lower = result.objects_upper = samples;
  } else {
    result.objects_lower =
        k == 0 ? 0.0 : samples + interval::quantile(NegativeBinomial(k, p), tail, QuantileRounding::up);
    result.objects_upper =
        samples + interval::quantile_complement(NegativeBinomial(k + 1, p), tail, QuantileRounding::up);
  }
  result.method = "exact binomial in n (Clopper-Pearson, negative binomial quantiles)";
  return result;
}

// Boost's incomplete gamma inverses give up (a series past 10^6 terms) between 10^10
// and 10^11 samples. From 10^9 on, Garwood's limits come from the Wilson-Hilferty
// cube-root normal form of the gamma quantile, k (1 - 1/(9k) + z / sqrt(9k))^3, whose
// relative error falls as k^-1.5: against Boost at 10^9 samples it is below 2e-13
// at every level a double can state (tails from 0.5 down to 5.5e-17), far inside
// the interval's own width (~1/sqrt(k) = 3e-5).
constexpr double kGammaNormalLimit = 1e9;

double wilson_hilferty(double shape, double z) {
  const double c = 1.0 / (9.0 * shape);
  return shape * std::pow(1.0 - c + z * std::sqrt(c), 3);
}

EntryInterval poisson_bytes(double samples, double rate, double level) {
  const double tail = (1.0 - level) / 2.0;
  EntryInterval result;
  if (samples >= kGammaNormalLimit) {
    const double z = -boost::math::quantile(boost::math::normal(), tail);  // tail <= 1/2
    result.bytes_lower = rate * wilson_hilferty(samples, -z);
    result.bytes_upper = rate * wilson_hilferty(samples + 1.0, z);
    result.method = "Poisson (Garwood) by its Wilson-Hilferty normal limit (relative error < 1e-12 from 1e9 samples)";
    return result;
  }
  result.bytes_lower = samples == 0 ? 0.0 : rate * boost::math::gamma_p_inv(samples, tail);
  result.bytes_upper = rate * boost::math::gamma_q_inv(samples + 1.0, tail);
  result.method = "exact Poisson (Garwood)";
  return result;
}

}  // namespace

EntryInterval entry_interval(const SamplingModel& model, double samples, double size, double level, bool mixed_sizes) {
  if (!(samples >= 0) || samples != std::floor(samples) || samples > 0x1.0p52) {
    throw InputError("samples must be a whole number >= 0");
  }
  if (!(size > 0) || !std::isfinite(size)) throw InputError("the object size must be > 0");
  if (!(level > 0 && level < 1)) throw InputError("the confidence level must be in (0, 1)");
  EntryInterval result;
  if (model.kind == ModelKind::poisson_bytes) {
    result = poisson_bytes(samples, model.rate, level);
    result.objects_lower = result.bytes_lower / size;
    result.objects_upper = result.bytes_upper / size;
  } else {
    result = binomial_objects(samples, sample_probability(model, size), certain_to_be_sampled(model, size), level);
    result.bytes_lower = result.objects_lower * size;
    result.bytes_upper = result.objects_upper * size;
  }
  if (mixed_sizes) result.method += "; mixed sizes taken at their average (approximate)";
  return result;
}

}  // namespace allocsim::profile
