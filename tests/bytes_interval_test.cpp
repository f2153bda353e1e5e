// The .NET document's interval for bytes allocated (estimate/bytes_interval.h).
#include "allocsim/estimate/bytes_interval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "allocsim/estimate/camp_paulson.h"
#include "allocsim/estimate/negative_binomial.h"
#include "allocsim/util/error.h"

namespace allocsim::interval {
namespace {

constexpr double kDotNetP = 1.0 / 102400.0;

TEST(BytesIntervalTest, ReproducesTheDocumentExample) {
  // "observed 8 samples and u=10,908 ... [353666 + 10908, 1476870 + 10908]",
  // the document's rounding being `down`.
  const BytesInterval interval =
      bytes_interval({.samples = 8, .tail_bytes = 10908, .rounding = QuantileRounding::down});
  EXPECT_EQ(interval.lower, 353666.0 + 10908.0);
  EXPECT_EQ(interval.upper, 1476870.0 + 10908.0);
  // Estimator 2: s q/p + u = 8 * 102399 + 10908.
  EXPECT_NEAR(interval.estimate, 8.0 * 102399.0 + 10908.0, 1e-6);
}

TEST(BytesIntervalTest, DefaultsAreLevel95ExactRoundUp) {
  const BytesInterval interval = bytes_interval({.samples = 8, .tail_bytes = 10908});
  EXPECT_EQ(interval.lower, 353667.0 + 10908.0);
  EXPECT_EQ(interval.upper, 1476871.0 + 10908.0);
  // Each inclusive end leaves at most 2.5% outside: P(F < lower - u) < 0.025 <= ...
  const NegativeBinomial failures(8, kDotNetP);
  EXPECT_LT(cdf(failures, interval.lower - 10908.0 - 1.0), 0.025);
  EXPECT_LE(cdf_complement(failures, interval.upper - 10908.0), 0.025);
}

TEST(BytesIntervalTest, BoundsAreQuantilesPlusTailBytes) {
  for (const std::int64_t s : {1, 3, 50}) {
    const NegativeBinomial failures(s, 0.001);
    const std::int64_t u = 7 * s;
    for (const auto method : {IntervalMethod::exact, IntervalMethod::camp_paulson}) {
      const BytesInterval interval =
          bytes_interval({.samples = s, .tail_bytes = u, .p = 0.001, .level = 0.9, .method = method});
      const bool exact = method == IntervalMethod::exact;
      EXPECT_EQ(interval.lower - double(u), exact ? quantile(failures, 0.05, QuantileRounding::up)
                                                  : camp_paulson_quantile(failures, 0.05, QuantileRounding::up));
      EXPECT_EQ(interval.upper - double(u),
                exact ? quantile_complement(failures, 0.05, QuantileRounding::up)
                      : camp_paulson_quantile_complement(failures, 0.05, QuantileRounding::up));
      EXPECT_NEAR(interval.estimate, double(s) * 0.999 / 0.001 + double(u), 1e-9 * interval.estimate);
      EXPECT_LT(interval.lower, interval.estimate);
      EXPECT_GT(interval.upper, interval.estimate);
    }
  }
}

TEST(BytesIntervalTest, BoundaryCorrectionUsesOneFewerAndOneMoreSample) {
  const BytesInterval corrected = bytes_interval({.samples = 8, .tail_bytes = 10908, .boundary_correction = true});
  const BytesInterval fewer = bytes_interval({.samples = 7, .tail_bytes = 10908});
  const BytesInterval more = bytes_interval({.samples = 9, .tail_bytes = 10908});
  const BytesInterval plain = bytes_interval({.samples = 8, .tail_bytes = 10908});
  EXPECT_EQ(corrected.lower, fewer.lower);
  EXPECT_EQ(corrected.upper, more.upper);
  EXPECT_EQ(corrected.estimate, plain.estimate);
  EXPECT_LT(corrected.lower, plain.lower);
  EXPECT_GT(corrected.upper, plain.upper);
}

TEST(BytesIntervalTest, ZeroSamplesNeedsBoundaryCorrection) {
  EXPECT_THROW(bytes_interval({.samples = 0, .tail_bytes = 0}), InputError);
  EXPECT_THROW(bytes_interval({.samples = 0, .tail_bytes = 5, .boundary_correction = true}), InputError);
  // With the correction: lower from 0 samples (0 bytes), upper from the geometric s = 1.
  const BytesInterval interval = bytes_interval({.samples = 0, .tail_bytes = 0, .boundary_correction = true});
  EXPECT_EQ(interval.estimate, 0.0);
  EXPECT_EQ(interval.lower, 0.0);
  EXPECT_EQ(interval.upper, quantile_complement(NegativeBinomial(1, kDotNetP), 0.025, QuantileRounding::up));
  EXPECT_GT(interval.upper, 3e5);
  // One sample with the correction: the lower bound is u itself.
  const BytesInterval one = bytes_interval({.samples = 1, .tail_bytes = 40, .boundary_correction = true});
  EXPECT_EQ(one.lower, 40.0);
}

TEST(BytesIntervalTest, WiderLevelGivesWiderInterval) {
  double previous_width = 0.0;
  for (const double level : {0.5, 0.8, 0.95, 0.999}) {
    const BytesInterval interval = bytes_interval({.samples = 20, .tail_bytes = 2000, .level = level});
    EXPECT_GT(interval.upper - interval.lower, previous_width) << level;
    previous_width = interval.upper - interval.lower;
  }
}

TEST(BytesIntervalTest, RealRoundingLiesBetweenDownAndUp) {
  const auto with = [](QuantileRounding rounding) {
    return bytes_interval({.samples = 5, .tail_bytes = 500, .rounding = rounding});
  };
  const BytesInterval down = with(QuantileRounding::down);
  const BytesInterval real = with(QuantileRounding::real);
  const BytesInterval up = with(QuantileRounding::up);
  EXPECT_LT(down.lower, real.lower);
  EXPECT_LT(real.lower, up.lower);
  EXPECT_LT(down.upper, real.upper);
  EXPECT_LT(real.upper, up.upper);
  EXPECT_EQ(up.lower - down.lower, 1.0);
}

TEST(BytesIntervalTest, CampPaulsonTracksExactForManySamples) {
  const BytesIntervalRequest request{.samples = 1000, .tail_bytes = 60000};
  BytesIntervalRequest approximate = request;
  approximate.method = IntervalMethod::camp_paulson;
  const BytesInterval exact = bytes_interval(request);
  const BytesInterval camp_paulson = bytes_interval(approximate);
  EXPECT_NEAR(camp_paulson.lower, exact.lower, 1e-6 * exact.lower);
  EXPECT_NEAR(camp_paulson.upper, exact.upper, 1e-6 * exact.upper);
}

TEST(BytesIntervalTest, ExtremeParametersStayFinite) {
  for (const double p : {1e-12, 1e-5, 0.5, 0.999999}) {
    for (const std::int64_t s : {1, 1000, 10000000}) {
      for (const double level : {1e-300, 0.5, 0.95, 1.0 - 1e-16}) {
        for (const auto method : {IntervalMethod::exact, IntervalMethod::camp_paulson}) {
          for (const bool correction : {false, true}) {
            SCOPED_TRACE("p=" + std::to_string(p) + " s=" + std::to_string(s) + " level=" + std::to_string(level));
            const BytesInterval interval = bytes_interval({.samples = s,
                                                           .tail_bytes = 2 * s,
                                                           .p = p,
                                                           .level = level,
                                                           .method = method,
                                                           .boundary_correction = correction});
            EXPECT_TRUE(std::isfinite(interval.estimate));
            EXPECT_TRUE(std::isfinite(interval.lower));
            EXPECT_TRUE(std::isfinite(interval.upper));
            EXPECT_GE(interval.lower, double(2 * s));
            EXPECT_LE(interval.lower, interval.upper);
            if (p <= 1e-5 && level >= 0.5) {
              EXPECT_GT(interval.upper, interval.lower);  // never a silent 0 width
            }
          }
        }
      }
    }
  }
}

TEST(BytesIntervalTest, OverflowingBytesThrowInsteadOfReturningInfinity) {
  for (const auto method : {IntervalMethod::exact, IntervalMethod::camp_paulson}) {
    const BytesInterval tiny =
        bytes_interval({.samples = 3, .tail_bytes = 5, .p = 1e-300, .method = method});  // ~3e300 bytes
    EXPECT_TRUE(std::isfinite(tiny.upper));
    EXPECT_THROW(bytes_interval({.samples = 3, .tail_bytes = 5, .p = 1e-320, .method = method}), InputError);
    EXPECT_THROW(bytes_interval({.samples = 10000000, .tail_bytes = 10000000, .p = 1e-302, .method = method}),
                 InputError);
  }
}

TEST(BytesIntervalTest, ImpossibleInputThrowsInputError) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(bytes_interval({.samples = -1, .tail_bytes = 0}), InputError);
  EXPECT_THROW(bytes_interval({.samples = 10, .tail_bytes = 9}), InputError);
  for (const double p : {0.0, 1.0, -1e-5, 2.0, nan}) {
    EXPECT_THROW(bytes_interval({.samples = 3, .tail_bytes = 30, .p = p}), InputError) << p;
  }
  for (const double level : {0.0, 1.0, -0.5, 95.0, nan}) {
    EXPECT_THROW(bytes_interval({.samples = 3, .tail_bytes = 30, .level = level}), InputError) << level;
  }
}

TEST(BytesIntervalTest, MethodNames) {
  EXPECT_STREQ(method_name(IntervalMethod::exact), "exact");
  EXPECT_STREQ(method_name(IntervalMethod::camp_paulson), "camp-paulson");
  EXPECT_STREQ(rounding_name(QuantileRounding::down), "down");
}

}  // namespace
}  // namespace allocsim::interval
