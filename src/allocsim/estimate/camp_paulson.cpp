#include "allocsim/estimate/camp_paulson.h"

#include <algorithm>
#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "allocsim/util/error.h"

namespace allocsim::interval {
namespace {

// Paulson's normal deviate w for the real trial count b = k + 1 > 0.
double camp_paulson_deviate(const NegativeBinomial& distribution, double b) {
  const double s = static_cast<double>(distribution.successes());
  const double p = distribution.p();
  const double f = b * p / (s * (1.0 - p));
  const double a = 1.0 / (9.0 * b);
  const double c = 1.0 / (9.0 * s);
  const double cube_root = std::cbrt(f);
  return ((1.0 - a) * cube_root - (1.0 - c)) / std::sqrt(a * cube_root * cube_root + c);
}

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// Phi^-1 of a lower-tail probability in (0, 1).
double normal_quantile(double probability) {
  try {
    return -std::sqrt(2.0) * boost::math::erfc_inv(2.0 * probability);
  } catch (const std::exception& error) {
    throw InputError(std::string("normal quantile: ") + error.what());
  }
}

// The real k with w(k+1) = z, by bisection on b = k + 1 in (0, inf): w tends
// to -inf as b -> 0 and to +inf as b -> inf.
double real_quantile_for_deviate(const NegativeBinomial& distribution, double z) {
  double low = 1.0;
  double high = 1.0;
  while (camp_paulson_deviate(distribution, low) >= z) low /= 2.0;
  while (camp_paulson_deviate(distribution, high) < z) {
    high *= 2.0;
    if (std::isinf(high)) {
      throw InputError(to_string(distribution) + " Camp-Paulson quantile: beyond the range of a double");
    }
  }
  for (double middle = low + (high - low) / 2.0; middle > low && middle < high; middle = low + (high - low) / 2.0) {
    (camp_paulson_deviate(distribution, middle) < z ? low : high) = middle;
  }
  return high - 1.0;
}

}  // namespace

double camp_paulson_cdf(const NegativeBinomial& distribution, double failures) {
  require_whole_failures(failures);
  return normal_cdf(camp_paulson_deviate(distribution, failures + 1.0));
}

double camp_paulson_cdf_complement(const NegativeBinomial& distribution, double failures) {
  require_whole_failures(failures);
  return normal_cdf(-camp_paulson_deviate(distribution, failures + 1.0));
}

double camp_paulson_quantile(const NegativeBinomial& distribution, double probability, QuantileRounding rounding) {
  require_open_probability(probability, "quantile probability");
  const double z = normal_quantile(probability);
  return round_quantile(
      real_quantile_for_deviate(distribution, z), rounding,
      [&](double k) { return camp_paulson_cdf(distribution, k) >= probability; },
      [&](double k) { return camp_paulson_cdf(distribution, k) > probability; });
}

// Phi(-w) = Q  <=>  w = -Phi^-1(Q), accurate for tiny Q.
double camp_paulson_quantile_complement(const NegativeBinomial& distribution, double upper_tail_probability,
                                        QuantileRounding rounding) {
  require_open_probability(upper_tail_probability, "upper-tail probability");
  const double z = -normal_quantile(upper_tail_probability);
  return round_quantile(
      real_quantile_for_deviate(distribution, z), rounding,
      [&](double k) { return camp_paulson_cdf_complement(distribution, k) <= upper_tail_probability; },
      [&](double k) { return camp_paulson_cdf_complement(distribution, k) < upper_tail_probability; });
}

CdfError camp_paulson_max_cdf_error(const NegativeBinomial& distribution) {
  constexpr double kNegligibleTail = 1e-12;
  constexpr int kLinearPoints = 1024;
  constexpr int kGeometricPoints = 256;
  constexpr int kRefinePoints = 32;

  const auto error_at = [&](double k) { return std::fabs(camp_paulson_cdf(distribution, k) - cdf(distribution, k)); };
  const double first = std::max(0.0, quantile(distribution, kNegligibleTail, QuantileRounding::down));
  const double last = quantile_complement(distribution, kNegligibleTail, QuantileRounding::up);

  std::vector<double> grid;
  for (int i = 0; i <= kLinearPoints; ++i) {
    grid.push_back(std::round(first + (last - first) * i / kLinearPoints));
  }
  for (int i = 0; i <= kGeometricPoints; ++i) {  // k + 1 from 1 to last + 1
    grid.push_back(std::round(std::pow(last + 1.0, double(i) / kGeometricPoints) - 1.0));
  }
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());

  // Zoom: bracket the worst point by its grid neighbours and resample the
  // bracket, until a bracket narrow enough that the resample holds every integer,
  // or one that stops narrowing: past 2^53 neighbouring doubles are more than one
  // apart, and once they are more than kRefinePoints / 2 apart the resample of a
  // bracket is the bracket itself.
  CdfError worst{-1.0, 0.0};
  double previous_width = std::numeric_limits<double>::infinity();
  for (bool exhaustive = false;;) {
    for (const double k : grid) {
      const double error = error_at(k);
      if (error > worst.max_abs_error) worst = {error, k};
    }
    if (exhaustive) break;
    const auto at = std::find(grid.begin(), grid.end(), worst.at_failures);
    const double low = at == grid.begin() ? *at : *(at - 1);
    const double high = at + 1 == grid.end() ? *at : *(at + 1);
    exhaustive = high - low <= kRefinePoints || high - low >= previous_width;
    previous_width = high - low;
    grid.assign(1, worst.at_failures);
    for (int i = 0; i <= kRefinePoints; ++i) {
      grid.push_back(std::round(low + (high - low) * i / kRefinePoints));
    }
    std::sort(grid.begin(), grid.end());
    grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  }
  return worst;
}

}  // namespace allocsim::interval
