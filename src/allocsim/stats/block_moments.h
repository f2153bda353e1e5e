#pragma once
// The Moments of many series over one block of replications, at a cost per value
// listed rather than per series and replication. In each replication a series takes
// either a listed value or, when not listed, its default (the engine's groups
// without a sample, whose estimate is the same every time); a series with no
// default counts its listed values only.
//
// Per series, sums of powers of y = x - c about a shift c, the series' first listed
// value of the block (so y is of the order of the spread and the sums lose little
// to cancellation), with the k unlisted replications added in closed form,
// k (d - c)^p. At the end of the block, with n values, S_p = sum y^p:
//   mean = c + S1/n,   M2 = S2 - S1^2/n,   M3 = S3 - 3 S1 S2/n + 2 S1^3/n^2,
//   M4 = S4 - 4 S1 S3/n + 6 S1^2 S2/n^2 - 3 S1^4/n^3,
// the central sums of Moments (moments.h), which then merges blocks by Pébay's
// formulas. The sums depend only on the block's values in replication order, so
// every thread count gives the same bits.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "allocsim/stats/moments.h"

namespace allocsim {

class BlockMoments {
 public:
  // defaults[i]: series i's value when not listed; NaN: none.
  explicit BlockMoments(std::vector<double> defaults = {}) : defaults_(std::move(defaults)), sums_(defaults_.size()) {}

  void add(std::size_t series, double x) {
    Sums& s = sums_[series];
    if (s.listed == 0) s.shift = x;
    const double y = x - s.shift, y2 = y * y;
    s.s1 += y;
    s.s2 += y2;
    s.s3 += y2 * y;
    s.s4 += y2 * y2;
    ++s.listed;
  }

  // Replications of this block in which series i took its default.
  std::uint64_t defaulted(std::size_t series, std::uint64_t replications) const {
    return std::isnan(defaults_[series]) ? 0 : replications - sums_[series].listed;
  }

  // Series i's Moments over its listed values alone, its default left out; its sums
  // are kept. (What a second series with the same listed values and no default gives.)
  Moments listed(std::size_t series) const {
    const Sums& s = sums_[series];
    return s.listed == 0 ? Moments{} : central(s, s.listed);
  }

  // Series i's Moments over a block of `replications`; its sums start afresh.
  Moments take(std::size_t series, std::uint64_t replications) {
    const std::uint64_t k = defaulted(series, replications);
    Sums s = sums_[series];
    sums_[series] = {};
    const std::uint64_t count = s.listed + k;
    if (count == 0) return {};
    if (s.listed == 0) return Moments::from_state({count, defaults_[series], 0, 0, 0});
    if (k > 0) {
      const double y = defaults_[series] - s.shift, y2 = y * y, kd = static_cast<double>(k);
      s.s1 += kd * y;
      s.s2 += kd * y2;
      s.s3 += kd * (y2 * y);
      s.s4 += kd * (y2 * y2);
    }
    return central(s, count);
  }

 private:
  struct Sums {
    double shift = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;
    std::uint64_t listed = 0;
  };
  // The Moments of `count` values whose power sums about s.shift are s's.
  static Moments central(const Sums& s, std::uint64_t count) {
    const double n = static_cast<double>(count), a = s.s1 / n;  // a = mean - c
    const double m2 = s.s2 - s.s1 * a;
    const double m3 = s.s3 - 3 * a * s.s2 + 2 * a * a * s.s1;
    const double m4 = s.s4 - 4 * a * s.s3 + 6 * a * a * s.s2 - 3 * a * a * a * s.s1;
    return Moments::from_state({count, s.shift + a, std::fmax(m2, 0.0), m3, std::fmax(m4, 0.0)});
  }

  std::vector<double> defaults_;
  std::vector<Sums> sums_;
};

}  // namespace allocsim
