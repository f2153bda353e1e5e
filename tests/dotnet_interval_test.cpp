// The .NET document's negative binomial interval in the engine: the dotnet scheme's
// bytes_nb registers (samples s, tail bytes u) and the coverage of its four
// variants (exact / Camp-Paulson, with and without the boundary correction).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "allocsim/estimate/bytes_interval.h"
#include "allocsim/sampler/registry.h"
#include "test_support.h"

namespace allocsim {
namespace {

const IntervalRow& find_interval(const ScenarioResult& result, std::size_t point, const std::string& method) {
  for (const auto& row : result.interval_rows) {
    if (row.point == point && row.estimator == "bytes_nb" && row.interval == method &&
        row.group_kind == GroupKind::total) {
      return row;
    }
  }
  throw std::logic_error("no interval row " + method);
}

std::unique_ptr<Scheme> make_dotnet() { return testing::create_scheme("dotnet", nlohmann::json::object()); }

std::size_t interval_index(const Scheme& scheme, const std::string& name) {
  const auto& specs = scheme.intervals();
  for (std::size_t j = 0; j < specs.size(); ++j) {
    if (specs[j].name == name) return j;
  }
  throw std::logic_error("no interval " + name);
}

TEST(DotnetInterval, RegistersAreSamplesAndTailBytes) {
  const auto scheme = make_dotnet();
  const std::vector<double> registers = {3, 1000};  // s = 3, u = 1000
  EXPECT_DOUBLE_EQ(scheme->finalize(1, registers), 3 * 102399.0 + 1000);
  for (const char* name : {"nb-exact", "nb-camp-paulson", "nb-exact-corrected", "nb-camp-paulson-corrected"}) {
    const std::size_t j = interval_index(*scheme, name);
    EXPECT_EQ(scheme->intervals()[j].estimator, 1u);
    const bool corrected = std::string(name).find("corrected") != std::string::npos;
    const auto expected = interval::bytes_interval({.samples = 3,
                                                    .tail_bytes = 1000,
                                                    .level = 0.9,
                                                    .method = std::string(name).find("exact") != std::string::npos
                                                                  ? interval::IntervalMethod::exact
                                                                  : interval::IntervalMethod::camp_paulson,
                                                    .boundary_correction = corrected});
    const Interval got = scheme->interval(j, registers, 0.9);
    EXPECT_DOUBLE_EQ(got.lower, expected.lower) << name;
    EXPECT_DOUBLE_EQ(got.upper, expected.upper) << name;
  }
}

// s = 0 without the correction has no interval (bytes_interval rejects it): the
// scheme answers [u, u] = [0, 0] instead of throwing; the corrected one is [0, upper > 0].
TEST(DotnetInterval, NoSamplesNeverThrows) {
  const auto scheme = make_dotnet();
  const std::vector<double> none = {0, 0};
  const Interval exact = scheme->interval(interval_index(*scheme, "nb-exact"), none, 0.95);
  EXPECT_EQ(exact.lower, 0);
  EXPECT_EQ(exact.upper, 0);
  const Interval corrected = scheme->interval(interval_index(*scheme, "nb-exact-corrected"), none, 0.95);
  EXPECT_EQ(corrected.lower, 0);
  EXPECT_GT(corrected.upper, 0);
}

// One thread of 1 KiB objects at T = 102400, the document's draw: n = 20000 objects
// hold 200 expected samples, n = 100 one. R = 4000 replications, level 0.95:
// se = sqrt(0.95 * 0.05 / 4000) = 0.00345, so 5 sigma = 0.0172.
TEST(DotnetInterval, CoverageAgainstExpectedSamples) {
  const std::string json = R"({"name": "t", "seed": 20240, "replications": 4000,
    "trace": {"allocations": "$n", "sizes": {"distribution": "constant", "size": 1024}},
    "schemes": [{"scheme": "dotnet", "draw": "document"}],
    "groups": ["total"], "windows": ["allocated"],
    "sweep": {"n": [20000, 100]}})";
  const auto result = testing::run_scenario_text(json, 2);
  const double level = 0.95, R = 4000;
  const double five_sigma = testing::kSigmas * testing::proportion_standard_error(level, R);
  // 200 expected samples: exact interval within 5 sigma of nominal, with and without
  // the correction (the trace starts on a fresh draw; only the end is unaligned).
  for (const char* method : {"nb-exact", "nb-exact-corrected", "nb-camp-paulson", "nb-camp-paulson-corrected"}) {
    const auto& m = find_interval(result, 0, method).metrics;
    EXPECT_TRUE(testing::within_sigmas(m.coverage, level, testing::proportion_standard_error(level, R))) << method;
  }
  // 1 expected sample, no correction: P(s = 0) = e^-1 alone makes it miss (interval
  // [0, 0]), so coverage <= 1 - e^-1 = 0.632 (+ 5 sigma of that proportion, 0.038).
  const auto& few = find_interval(result, 1, "nb-exact").metrics;
  EXPECT_LT(few.coverage, 1 - std::exp(-1.0) + testing::kSigmas * testing::proportion_standard_error(0.632, R));
  EXPECT_LT(few.coverage, level - five_sigma);
  // With the correction the interval is conservative: coverage >= nominal - 5 sigma.
  for (const char* method : {"nb-exact-corrected", "nb-camp-paulson-corrected"}) {
    EXPECT_GE(find_interval(result, 1, method).metrics.coverage, level - five_sigma) << method;
  }
  std::printf("[coverage] 200 samples: exact %.4f corrected %.4f; 1 sample: exact %.4f corrected %.4f\n",
              find_interval(result, 0, "nb-exact").metrics.coverage,
              find_interval(result, 0, "nb-exact-corrected").metrics.coverage, few.coverage,
              find_interval(result, 1, "nb-exact-corrected").metrics.coverage);
}

}  // namespace
}  // namespace allocsim
