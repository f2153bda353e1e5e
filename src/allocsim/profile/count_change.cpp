#include "allocsim/profile/count_change.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/binomial.hpp>

namespace allocsim::profile {

ProportionInterval clopper_pearson(std::uint64_t k, std::uint64_t n, double alpha) {
  if (k > n) throw std::invalid_argument("clopper_pearson: k > n");
  if (!(alpha > 0.0 && alpha < 1.0)) throw std::invalid_argument("clopper_pearson: alpha not in (0, 1)");
  ProportionInterval out;
  const auto kd = static_cast<double>(k);
  const auto nd = static_cast<double>(n);
  if (n == 0) return out;
  if (k > 0) out.lower = boost::math::quantile(boost::math::beta_distribution<double>(kd, nd - kd + 1.0), alpha / 2.0);
  if (k < n) {
    out.upper = boost::math::quantile(boost::math::beta_distribution<double>(kd + 1.0, nd - kd), 1.0 - alpha / 2.0);
  }
  return out;
}

CountChange compare_counts(std::uint64_t k1, std::uint64_t k2, double e1, double e2, double alpha) {
  if (!(e1 > 0.0 && e2 > 0.0)) throw std::invalid_argument("compare_counts: exposures must be positive");
  CountChange out;
  const double inf = std::numeric_limits<double>::infinity();
  const std::uint64_t n = k1 + k2;
  const double scale = e1 / e2;  // rho = (1-p)/p * e1/e2
  if (n == 0) {
    out.p_value = 1.0;
    out.ratio = 1.0;
    out.ratio_lower = 0.0;
    out.ratio_upper = inf;
    return out;
  }
  const double r = e1 / (e1 + e2);
  const boost::math::binomial_distribution<double> null(static_cast<double>(n), r);
  const double lower_tail = boost::math::cdf(null, static_cast<double>(k1));
  const double upper_tail =
      k1 == 0 ? 1.0 : boost::math::cdf(boost::math::complement(null, static_cast<double>(k1) - 1.0));
  out.p_value = std::min(1.0, 2.0 * std::min(lower_tail, upper_tail));
  auto to_ratio = [&](double p) { return p <= 0.0 ? inf : (1.0 - p) / p * scale; };
  out.ratio = k1 == 0 ? inf : static_cast<double>(k2) / static_cast<double>(k1) * scale;
  const ProportionInterval ci = clopper_pearson(k1, n, alpha);
  out.ratio_lower = to_ratio(ci.upper);
  out.ratio_upper = to_ratio(ci.lower);
  return out;
}

std::vector<double> holm_adjust(const std::vector<double>& p_values) {
  const std::size_t m = p_values.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
  std::vector<double> adjusted(m);
  double running = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    const double v = std::min(1.0, static_cast<double>(m - i) * p_values[order[i]]);
    running = std::max(running, v);
    adjusted[order[i]] = running;
  }
  return adjusted;
}

}  // namespace allocsim::profile
