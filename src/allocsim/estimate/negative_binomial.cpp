#include "allocsim/estimate/negative_binomial.h"

#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include "allocsim/util/error.h"

namespace allocsim::interval {
namespace {

std::string general(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// Runs one Boost.Math call; its exceptions (domain, overflow, evaluation
// errors) and non-finite results become InputError.
template <class Call>
double guarded(const NegativeBinomial& distribution, const char* what, Call call) {
  double result = 0.0;
  try {
    result = call();
  } catch (const std::exception& error) {
    throw InputError(to_string(distribution) + " " + what + ": " + error.what());
  }
  if (!std::isfinite(result)) {
    throw InputError(to_string(distribution) + " " + what + ": no finite result");
  }
  return result;
}

}  // namespace

void require_whole_failures(double failures) {
  if (!(failures >= 0.0) || !std::isfinite(failures) || failures != std::floor(failures)) {
    throw InputError("failure count must be a whole number >= 0, got " + general(failures));
  }
}

void require_open_probability(double probability, const char* name) {
  if (!(probability > 0.0 && probability < 1.0)) {
    throw InputError(std::string(name) + " must be in (0, 1), got " + general(probability));
  }
}

const char* rounding_name(QuantileRounding rounding) {
  switch (rounding) {
    case QuantileRounding::up: return "up";
    case QuantileRounding::down: return "down";
    case QuantileRounding::real: return "real";
  }
  return "unknown";
}

std::string to_string(const NegativeBinomial& distribution) {
  return "negative binomial (s=" + std::to_string(distribution.successes()) + ", p=" + general(distribution.p()) + ")";
}

NegativeBinomial::NegativeBinomial(std::int64_t successes, double p) : successes_(successes), p_(p) {
  if (successes < 1) {
    throw InputError("negative binomial needs at least 1 success, got " + std::to_string(successes));
  }
  require_open_probability(p, "negative binomial success probability p");
}

double cdf(const NegativeBinomial& distribution, double failures) {
  require_whole_failures(failures);
  return guarded(distribution, "cdf", [&] {
    return boost::math::ibeta(static_cast<double>(distribution.successes()), failures + 1.0, distribution.p());
  });
}

double cdf_complement(const NegativeBinomial& distribution, double failures) {
  require_whole_failures(failures);
  return guarded(distribution, "cdf complement", [&] {
    return boost::math::ibetac(static_cast<double>(distribution.successes()), failures + 1.0, distribution.p());
  });
}

// The real quantile solves I_p(s, x*+1) = P for the beta's second parameter:
// x* = ibeta_invb(s, p, P) - 1.
double quantile(const NegativeBinomial& distribution, double probability, QuantileRounding rounding) {
  require_open_probability(probability, "quantile probability");
  const double s = static_cast<double>(distribution.successes());
  const double real_quantile = guarded(distribution, "quantile",
                                       [&] { return boost::math::ibeta_invb(s, distribution.p(), probability) - 1.0; });
  return round_quantile(
      real_quantile, rounding, [&](double k) { return cdf(distribution, k) >= probability; },
      [&](double k) { return cdf(distribution, k) > probability; });
}

// CDF(k) >= 1 - Q  <=>  P(X > k) <= Q, and likewise for the strict form.
double quantile_complement(const NegativeBinomial& distribution, double upper_tail_probability,
                           QuantileRounding rounding) {
  require_open_probability(upper_tail_probability, "upper-tail probability");
  const double s = static_cast<double>(distribution.successes());
  const double real_quantile = guarded(distribution, "quantile complement", [&] {
    return boost::math::ibetac_invb(s, distribution.p(), upper_tail_probability) - 1.0;
  });
  return round_quantile(
      real_quantile, rounding, [&](double k) { return cdf_complement(distribution, k) <= upper_tail_probability; },
      [&](double k) { return cdf_complement(distribution, k) < upper_tail_probability; });
}

}  // namespace allocsim::interval
