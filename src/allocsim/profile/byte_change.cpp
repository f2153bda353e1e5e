#include "allocsim/profile/byte_change.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "allocsim/profile/count_change.h"
#include "allocsim/profile/entry_interval.h"

namespace allocsim::profile {

ByteChangeInterval byte_change_interval(std::uint64_t k1, std::uint64_t k2, double w1, double w2, double level) {
  if (!(w1 > 0.0 && w2 > 0.0)) throw std::invalid_argument("byte_change_interval: exposures must be positive");
  if (!(level > 0.0 && level < 1.0)) throw std::invalid_argument("byte_change_interval: level not in (0, 1)");
  const double each = std::sqrt(level);  // each part's level; the product is `level`
  const std::uint64_t n = k1 + k2;
  const ProportionInterval p = clopper_pearson(k1, n, 1.0 - each);
  // Garwood's interval for a Poisson mean: the byte-rate model at one byte per sample.
  const SamplingModel unit{ModelKind::poisson_bytes, 1.0};
  const EntryInterval mu = entry_interval(unit, static_cast<double>(n), 1.0, each, false);
  const auto g = [&](double q) { return (1.0 - q) / w2 - q / w1; };
  const double high = g(p.lower);  // g falls with p
  const double low = g(p.upper);
  return {low <= 0 ? mu.bytes_upper * low : mu.bytes_lower * low,
          high >= 0 ? mu.bytes_upper * high : mu.bytes_lower * high};
}

}  // namespace allocsim::profile
