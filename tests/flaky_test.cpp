// `allocsim flaky` (src/allocsim/profile/flaky.h): each assertion kind's exact
// false-failure rate against an independent closed form and against the engine (the
// scheme's own sampler), the published hand calculations it reproduces, and the CLI's
// check and bad input. Engine comparisons: fixed seeds, |measured - computed| within 5
// standard errors sqrt(f (1 - f) / R) (two-sided false alarm 5.7e-7 per comparison,
// tests/testing/statistical_bounds.h).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "allocsim/json/byte_size.h"
#include "allocsim/json/json_reader.h"
#include "allocsim/profile/flaky.h"
#include "allocsim/profile/margins.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/gperftools/gperftools.h"
#include "testing/build_paths.h"
#include "testing/cli.h"
#include "testing/scratch_directory.h"
#include "testing/statistical_bounds.h"

namespace allocsim::profile {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

// A test description with a site list, assembled as `allocsim flaky` assembles it.
struct Built {
  Trace trace;
  std::unique_ptr<Scheme> scheme;
  FlakyTest test;
};

Built build(const std::string& text, std::uint64_t startup = 0) {
  const nlohmann::json document = nlohmann::json::parse(text);
  Built b;
  b.test.scheme = document["scheme"];
  b.test.rate = document["rate"].is_string() ? parse_byte_size(document["rate"].get<std::string>(), "rate")
                                             : document["rate"].get<double>();
  nlohmann::json params = document.value("params", nlohmann::json::object());
  params["rate"] = b.test.rate;
  b.scheme = create_scheme(b.test.scheme, params, "test");
  if (find_scheme(b.test.scheme)->family != SamplingFamily::none) {  // else no model: the engine alone
    b.test.model = with_pass_through(model_for_scheme(b.test.scheme, b.test.rate, "test"), *b.scheme);
  }
  b.trace = trace_of_site_list(nlohmann::json{{"sites", document["sites"]}}, "test");
  b.test.sites = sites_of_trace(b.trace, *b.scheme, 0);
  apply_startup_window(b.test, b.trace, *b.scheme, startup);
  const nlohmann::json& assertions = document["assertions"];
  b.test.assertions = read_assertions(JsonValue(assertions, "$.assertions"), b.test.sites);
  return b;
}

double se(double f, std::uint64_t r) { return std::sqrt(f * (1 - f) / static_cast<double>(r)); }

// A multiplier as the answer prints it ("2.3").
std::string format_multiplier(double m) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", m);
  return text;
}

// Every assertion's and the whole test's measured rate within 5 SE of the computed one.
void expect_engine_agrees(const Built& b, std::uint64_t replications, std::uint64_t seed) {
  const FlakyRates rates = flaky_rates(b.test);
  const FlakyCheck check = check_flaky(b.test, *b.scheme, b.trace, replications, seed, 2);
  for (std::size_t k = 0; k < b.test.assertions.size(); ++k) {
    const double f = *rates.assertions[k].false_failure;
    const double measured = static_cast<double>(check.failures[k]) / static_cast<double>(replications);
    // 5 SE, and at least one failure's worth for rates near 0 (false alarm 5.7e-7).
    EXPECT_NEAR(measured, f, testing::kSigmas * se(f, replications) + 1.0 / static_cast<double>(replications))
        << b.test.assertions[k].text;
  }
  if (rates.independent) {
    const double measured = static_cast<double>(check.any_failure) / static_cast<double>(replications);
    EXPECT_NEAR(measured, rates.whole, testing::kSigmas * se(rates.whole, replications)) << "whole test";
  }
}

// gperftools src/tests/sampling_test.cc (gperftools/gperftools, master; issue #1557
// "sampling_test probabilistically fails"): 8000 x malloc(10000) at
// TCMALLOC_SAMPLE_PARAMETER 512 KiB, and pprof must report 50-110 MB, pprof's MB being
// 2^20 bytes.
const std::string kSamplingTest = R"({"scheme": "gperftools", "rate": 524288,
  "sites": [{"name": "big", "allocations": [{"size": 10000, "count": 8000}]}],
  "assertions": [{"site": "big", "bytes": ["50MiB", "110MiB"]}]})";

// The band's rate from the binomial directly: the estimate is w K with w = a / p(a) (a
// the size class the sampler counts), K ~ `certain` + Binomial(n, p).
double binomial_band_rate(double n, double a, double rate, double certain, double lo, double hi) {
  const double p = -std::expm1(-a / rate), w = a / p;
  const boost::math::binomial_distribution<> k(n, p);
  const double k_lo = std::ceil(lo / w) - certain;  // K + certain >= lo / w
  const double k_hi = std::floor(hi / w) - certain;
  return (k_lo > 0 ? boost::math::cdf(k, k_lo - 1) : 0) + boost::math::cdf(boost::math::complement(k, k_hi));
}

// gperftools' sampling test as shipped (the main thread's first 16 MiB unseen, the
// allocation crossing it sampled for certain), by the binomial directly: the chance
// its band fails when the profiler reports (1 + bias) times the estimate, which is
// the band's false-failure rate at bias 0 and its power otherwise.
double shipped_sampling_test_rate(double bias) {
  const Built shipped = build(kSamplingTest, kGperftoolsStartupCounter);
  const auto a = static_cast<double>(shipped.test.sites[0].sizes.begin()->first);  // the size class
  const double unseen = std::floor(static_cast<double>(kGperftoolsStartupCounter) / a), mib = 1 << 20;
  return binomial_band_rate(8000 - unseen - 1, a, 524288, 1, 50 * mib / (1 + bias), 110 * mib / (1 + bias));
}

// A number as the command prints it, to `digits` significant digits (--emit prints
// rates to 3, powers to 4).
std::string printed(double value, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

TEST(Flaky, GperftoolsSamplingTestBandAgreesWithTheBinomial) {
  const Built design = build(kSamplingTest, 0);  // a fresh first draw (startup_counter=0)
  ASSERT_EQ(design.test.sites[0].sizes.size(), 1u);
  const auto a = static_cast<double>(design.test.sites[0].sizes.begin()->first);  // the size class
  const double mib = 1 << 20;
  const double closed = binomial_band_rate(8000, a, 524288, 0, 50 * mib, 110 * mib);
  const double exact = *flaky_rates(design.test).assertions[0].false_failure;
  EXPECT_NEAR(exact, closed, 1e-9 * closed + 1e-15);
  EXPECT_GT(exact, 1e-7);
  EXPECT_LT(exact, 1e-4);  // 3.45e-6: rare once the sampler starts fresh

  // As shipped (2.10): the main thread's first 16 MiB unsampled, the crossing allocation
  // sampled for certain.
  const Built shipped = build(kSamplingTest, kGperftoolsStartupCounter);
  const double closed_shipped = shipped_sampling_test_rate(0);
  const double exact_shipped = *flaky_rates(shipped.test).assertions[0].false_failure;
  EXPECT_NEAR(exact_shipped, closed_shipped, 1e-9 * closed_shipped);
  EXPECT_GT(exact_shipped, 0.01);  // 2.39%: the flake of issue #1557
  expect_engine_agrees(shipped, 10000, 7);
}

// gperftools' sampling_test.cc with n allocations and its band times n / 8000.
std::string sampling_test_with(double n) {
  const double mib = 1 << 20, m = n / 8000;
  char text[400];
  std::snprintf(text, sizeof text, R"({"scheme": "gperftools", "rate": 524288,
    "sites": [{"name": "big", "allocations": [{"size": 10000, "count": %.0f}]}],
    "assertions": [{"site": "big", "bytes": [%.17g, %.17g]}]})",
                n, 50 * mib * m, 110 * mib * m);
  return text;
}

// The window is fixed in bytes: a workload m times larger hides the same 16 MiB, a
// smaller fraction of it. scaled_test takes the window again from the workload run m
// times over, which for one site is the site list with m times the allocations.
TEST(Flaky, WorkloadMultiplierTakesTheStartWindowAgain) {
  // 1000 x 10000 B (9.5 MiB) lies inside the window: all unseen. Run twice, the window
  // ends in the second run; three times, a third of the runs is unseen.
  const Built small = build(R"({"scheme": "gperftools", "rate": 524288,
    "sites": [{"name": "s", "allocations": [{"size": 10000, "count": 1000}]}],
    "assertions": [{"site": "s", "present": true}]})",
                            kGperftoolsStartupCounter);
  EXPECT_TRUE(small.test.sites[0].sizes.empty());
  EXPECT_TRUE(small.test.sites[0].certain.empty());
  for (const double m : {2.0, 2.5, 3.0, 16.0}) {  // 2.5: a third run cut short, the window ends before it
    const FlakyTest scaled = scaled_test(small.test, m);
    const std::string fresh_text = R"({"scheme": "gperftools", "rate": 524288,
      "sites": [{"name": "s", "allocations": [{"size": 10000, "count": )" +
                                   std::to_string(static_cast<int>(1000 * m)) + R"(}]}],
      "assertions": [{"site": "s", "present": true}]})";
    const Built fresh = build(fresh_text, kGperftoolsStartupCounter);
    EXPECT_EQ(scaled.sites[0].sizes, fresh.test.sites[0].sizes) << m;
    EXPECT_EQ(scaled.sites[0].certain, fresh.test.sites[0].certain) << m;
    EXPECT_EQ(scaled.sites[0].certain.size(), 1u) << m;
  }
}

// The inverse answer for gperftools' sampling_test as shipped (the 16 MiB window): the
// smallest whole number of allocations N (multiplier N / 8000). The exact rate of the
// test built afresh with N allocations (band times N / 8000, the window taken from it)
// reaches 1e-6, and with N - 1 it does not.
TEST(Flaky, AnsweredMultiplierReachesTheTargetWithTheWindowTakenAgain) {
  const Built shipped = build(kSamplingTest, kGperftoolsStartupCounter);
  const FlakyAnswer answer = inverse_answer(shipped.test, 1e-6, [&](double) { return shipped.test; });
  ASSERT_TRUE(answer.multiplier);
  const double n = *answer.multiplier * 8000;
  EXPECT_EQ(n, std::round(n));  // a whole number of allocations
  const auto exact_with = [](double allocations) {
    const Built b = build(sampling_test_with(allocations), kGperftoolsStartupCounter);
    return *flaky_rates(b.test).assertions[0].false_failure;
  };
  const double at_n = exact_with(n), below = exact_with(n - 1);
  std::printf("gperftools sampling_test: %.0f allocations (%.4gx), rate %.3g (at %.0f: %.3g)\n", n, *answer.multiplier,
              at_n, n - 1, below);
  EXPECT_LE(at_n, 1e-6);
  EXPECT_GT(below, 1e-6);
  EXPECT_NEAR(answer.at_multiplier.rate, at_n, 1e-9 * at_n);
  // Between the whole multiples 2 (1.3e-6: not enough) and 3, which the answer in whole
  // multiples rounded up to.
  EXPECT_GT(n, 16000);
  EXPECT_LT(n, 24000);
  EXPECT_NE(answer_text(shipped.test, answer)
                .find("run big >= " + std::to_string(static_cast<long>(n)) + " times (" +
                      format_multiplier(*answer.multiplier) + "x its 8000 allocations;"),
            std::string::npos)
      << answer_text(shipped.test, answer);
}

// scylladb/seastar PR #3580: a test that both of two sites appear, each with N expected
// samples, fails with 1 - (1 - e^-N)^2 ~ 2 e^-N (the PR's hand calculation). Under the
// Poisson model a site of N T bytes has Poisson(N) samples.
TEST(Flaky, SeastarTwoSitePresenceIsOneMinusTheSquare) {
  for (const int n : {4, 10}) {
    const int objects = n * 4096 / 64;  // n T bytes at T = 4096
    const std::string text = R"({"scheme": "poisson", "rate": 4096, "sites": [
      {"name": "a", "allocations": [{"size": 64, "count": )" +
                             std::to_string(objects) + R"(}]},
      {"name": "b", "allocations": [{"size": 64, "count": )" +
                             std::to_string(objects) + R"(}]}],
      "assertions": [{"site": "a", "present": true}, {"site": "b", "present": true}]})";
    const Built b = build(text);
    const FlakyRates rates = flaky_rates(b.test);
    const double closed = 1 - std::pow(1 - std::exp(-n), 2);
    EXPECT_TRUE(rates.independent);
    EXPECT_NEAR(rates.whole, closed, 1e-12 * closed) << n;
    if (n == 4) expect_engine_agrees(b, 20000, 11);  // 3.6e-2: seen by the engine
  }
}

// DataDog/system-tests PR #6749: a band of +/- k sigma around the expected samples
// (sigma = sqrt(mu) for Poisson counts), whose rate is P(|K - mu| > k sigma).
TEST(Flaky, KSigmaBandIsThePoissonTails) {
  const double mu = 100;
  for (const double k : {2.0, 3.0}) {
    const double lo = mu - k * std::sqrt(mu), hi = mu + k * std::sqrt(mu);
    const std::string text =
        R"({"scheme": "poisson", "rate": 4096, "sites": [{"name": "s", "allocations": [{"size": 4096, "count": 100}]}],
        "assertions": [{"site": "s", "samples": [)" +
        std::to_string(lo) + ", " + std::to_string(hi) + "]}]}";
    const Built b = build(text);
    const boost::math::poisson_distribution<> samples(mu);
    const double closed = boost::math::cdf(samples, std::ceil(lo) - 1) +
                          boost::math::cdf(boost::math::complement(samples, std::floor(hi)));
    EXPECT_NEAR(*flaky_rates(b.test).assertions[0].false_failure, closed, 1e-12) << k;
    if (k == 2) expect_engine_agrees(b, 10000, 13);  // 4.0e-2
  }
}

// The inverse questions on seastar's test: both sites present fails with
// 1 - (1 - e^-N)^2, N = 64 n / T for n allocations of 64 B per site. At T = 4 KiB the
// target 1e-6 needs N >= N* = -ln(1 - sqrt(1 - 1e-6)) = 14.509, so n = ceil(64 N*) = 929
// allocations per site (3.629x the 256: 9.94e-7; 928 give 1.008e-6); the largest
// interval is T* = 16384 / N* (1129.25 B).
TEST(Flaky, InverseAnswersMatchTheClosedForm) {
  const auto text = [](double rate) {
    return R"({"scheme": "poisson", "rate": )" + std::to_string(rate) + R"(, "sites": [
      {"name": "a", "allocations": [{"size": 64, "count": 256}]},
      {"name": "b", "allocations": [{"size": 64, "count": 256}]}],
      "assertions": [{"site": "a", "present": true}, {"site": "b", "present": true}]})";
  };
  const Built b = build(text(4096));
  const FlakyAnswer answer = inverse_answer(b.test, 1e-6, [&](double rate) { return build(text(rate)).test; });
  ASSERT_TRUE(answer.multiplier);
  const double needed = -std::log(1 - std::sqrt(1 - 1e-6)), n = std::ceil(64 * needed);
  EXPECT_EQ(n, 929);
  EXPECT_DOUBLE_EQ(*answer.multiplier, n / 256);
  const auto closed = [](double allocations) { return 1 - std::pow(1 - std::exp(-allocations / 64), 2); };
  EXPECT_LE(closed(n), 1e-6);
  EXPECT_GT(closed(n - 1), 1e-6);
  EXPECT_NEAR(answer.at_multiplier.rate, closed(n), 1e-9 * closed(n));
  const double best = 16384 / needed;
  ASSERT_TRUE(answer.rate);
  EXPECT_LE(*answer.rate, best);
  EXPECT_GT(*answer.rate, best - 2);
  EXPECT_LE(answer.at_rate.rate, 1e-6);
  EXPECT_NE(
      answer_text(b.test, answer).find("run each site 3.629x its allocations: a >= 929 times, b >= 929 times (bands"),
      std::string::npos)
      << answer_text(b.test, answer);
}

// --power: the smallest workload reaching both 1e-6 and power >= 0.999 against a +50%
// bias, checked against the binomial tails. Per-allocation sampling at 1 in 100: n
// allocations give K ~ Binomial(n, 1/100) samples, the band [70, 130] scaled by
// n / 10000 fails with P(K < lo) + P(K > hi), and a profiler reporting 1.5 K fails it
// with P(1.5 K < lo) + P(1.5 K > hi). At the answered n both targets hold; at n - 1
// one does not (the bisection's last step). Without --power the answer is smaller, and
// its stated power is the tail at its own n.
TEST(Flaky, PowerTargetAnswerIsTheBinomialTail) {
  const Built b = build(R"({"scheme": "per-allocation", "rate": 100,
    "sites": [{"name": "s", "allocations": [{"size": 64, "count": 10000}]}],
    "assertions": [{"site": "s", "samples": [70, 130], "bias": 0.5}]})");
  const auto tails = [](double n, double scale) {
    const boost::math::binomial_distribution<> k(n, 0.01);
    const double lo = 70 * n / 10000 / scale, hi = 130 * n / 10000 / scale;  // on K's scale
    return (std::ceil(lo) > 0 ? boost::math::cdf(k, std::ceil(lo) - 1) : 0) +
           boost::math::cdf(boost::math::complement(k, std::floor(hi)));
  };
  const FlakyAnswer plain = inverse_answer(b.test, 1e-6, [&](double) { return b.test; });
  const FlakyAnswer powered = inverse_answer(
      b.test, 1e-6, [&](double) { return b.test; }, 0.999);
  ASSERT_TRUE(plain.multiplier);
  ASSERT_TRUE(powered.multiplier);
  const double n_plain = *plain.multiplier * 10000, n = *powered.multiplier * 10000;
  std::printf("per-allocation 1/100: 1e-6 at n = %.0f (power %.4g), with power >= 0.999 at n = %.0f\n", n_plain,
              *plain.at_multiplier.power, n);
  EXPECT_LE(tails(n_plain, 1), 1e-6);
  EXPECT_GT(tails(n_plain - 1, 1), 1e-6);
  EXPECT_NEAR(*plain.at_multiplier.power, tails(n_plain, 1.5), 1e-9);
  EXPECT_LT(*plain.at_multiplier.power, 0.999);  // the rate alone leaves the power short
  EXPECT_GT(n, n_plain);
  EXPECT_LE(tails(n, 1), 1e-6);
  EXPECT_GE(tails(n, 1.5), 0.999);
  EXPECT_NEAR(*powered.at_multiplier.power, tails(n, 1.5), 1e-9);
  EXPECT_TRUE(tails(n - 1, 1) > 1e-6 || tails(n - 1, 1.5) < 0.999);
  EXPECT_NE(answer_text(b.test, powered).find("at power >= 0.999: run s >= " + std::to_string(static_cast<long>(n))),
            std::string::npos)
      << answer_text(b.test, powered);
}

// One assertion of each kind, rates near 1e-2 (traces/profiles/flaky-example.json, Go).
TEST(Flaky, EveryAssertionKindAgreesWithTheEngine) {
  std::ifstream in(allocsim::testing::source_dir() + "/traces/profiles/flaky-example.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Built b = build(text);
  ASSERT_EQ(b.test.assertions.size(), 8u);
  const FlakyRates rates = flaky_rates(b.test);
  for (const FlakyRate& r : rates.assertions) EXPECT_EQ(r.method, "exact");
  EXPECT_FALSE(rates.independent);  // the assertions share sites: union bound
  expect_engine_agrees(b, 10000, 17);
}

// A share within [lo, hi] and a rank at rates the engine sees, under heapprofd's
// byte-rate model.
TEST(Flaky, SharesAndRanksUnderHeapprofdAgreeWithTheEngine) {
  const Built b = build(R"({"scheme": "heapprofd", "rate": 4096, "sites": [
      {"name": "a", "allocations": [{"size": 64, "count": 1000}]},
      {"name": "b", "allocations": [{"size": 64, "count": 700}]},
      {"name": "c", "allocations": [{"size": 32, "count": 300}]}],
    "assertions": [{"site": "a", "share": [0.38, 0.72]}, {"site": "a", "above": "b"},
                   {"top": ["a", "b"]}, {"sites_present": 2}]})");
  const FlakyRates rates = flaky_rates(b.test);
  for (const FlakyRate& r : rates.assertions) EXPECT_GT(*r.false_failure, 1e-3);
  expect_engine_agrees(b, 10000, 19);
}

// Every assertion's power against its bias from the engine's biased run (the same
// replications, the biased site's values times 1 + b) within 5 SE of the exact one,
// floored at one replication's worth for powers near 0 or 1 (false alarm 5.7e-7 each).
void expect_power_agrees(const Built& b, std::uint64_t replications, std::uint64_t seed) {
  const FlakyRates rates = flaky_rates(b.test);
  const FlakyCheck check = check_flaky(b.test, *b.scheme, b.trace, replications, seed, 2);
  const auto n = static_cast<double>(replications);
  for (std::size_t k = 0; k < b.test.assertions.size(); ++k) {
    ASSERT_TRUE(rates.assertions[k].power) << b.test.assertions[k].text;
    const double power = *rates.assertions[k].power, measured = static_cast<double>(check.detections[k]) / n;
    std::printf("  %-50s bias %+.2f: power %.4f, engine %.4f\n", b.test.assertions[k].text.c_str(),
                *b.test.assertions[k].bias, power, measured);
    EXPECT_NEAR(measured, power, testing::kSigmas * std::sqrt(std::max(power * (1 - power), 1 / n) / n))
        << b.test.assertions[k].text;
  }
}

Built with_bias(std::string text, double bias) {
  nlohmann::json document = nlohmann::json::parse(text);
  for (auto& a : document["assertions"]) a["bias"] = bias;
  return build(document.dump());
}

// gperftools' sampling_test band, fresh first draw, against a profiler that
// over-reports by 40%: the power is P(1.4 w K outside [50, 110] MiB), the binomial.
TEST(Flaky, PowerAgainstABiasIsTheBinomialTail) {
  nlohmann::json fresh = nlohmann::json::parse(kSamplingTest);
  fresh["params"] = {{"startup_counter", 0}};  // the engine's sampler starts fresh too
  const Built b = with_bias(fresh.dump(), 0.4);
  const FlakyRates rates = flaky_rates(b.test);
  ASSERT_TRUE(rates.assertions[0].power);
  EXPECT_EQ(rates.assertions[0].power_method, "exact");
  const auto a = static_cast<double>(b.test.sites[0].sizes.begin()->first);
  const double mib = 1 << 20;
  const double closed = binomial_band_rate(8000, a, 524288, 0, 50 * mib / 1.4, 110 * mib / 1.4);
  EXPECT_NEAR(*rates.assertions[0].power, closed, 1e-9 * closed);
  EXPECT_GT(closed, 0.1);
  EXPECT_LT(closed, 0.9);
  expect_power_agrees(b, 10000, 23);
}

// Each assertion kind's power under Go (flaky-example.json, bias +25%: every site it
// names reports 1.25 times) and shares, ranks and top sets under heapprofd (-20%).
TEST(Flaky, PowerOfEveryAssertionKindAgreesWithTheBiasedEngine) {
  std::ifstream in(allocsim::testing::source_dir() + "/traces/profiles/flaky-example.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  expect_power_agrees(with_bias(text, 0.25), 10000, 31);
  expect_power_agrees(with_bias(R"({"scheme": "heapprofd", "rate": 4096, "sites": [
      {"name": "a", "allocations": [{"size": 64, "count": 1000}]},
      {"name": "b", "allocations": [{"size": 64, "count": 700}]},
      {"name": "c", "allocations": [{"size": 32, "count": 300}]}],
    "assertions": [{"site": "a", "share": [0.38, 0.72]}, {"site": "a", "above": "b"},
                   {"top": ["a", "b"]}, {"site": "b", "count": [400, 1000]}]})",
                                -0.2),
                      10000, 37);
}

// The tightest band at the target rate is margins' band for the site at that rate
// (one site: its whole budget), the 16 MiB window taken out alike.
TEST(Flaky, TightestBandIsTheMarginsBandAtTheTarget) {
  Built b = build(kSamplingTest, kGperftoolsStartupCounter);
  b.test.band_target = 0.01;
  const FlakyRates rates = flaky_rates(b.test);
  ASSERT_TRUE(rates.assertions[0].tightest);
  MarginOptions options;
  options.false_failure = 0.01;
  const MarginWorkload workload = margin_workload(b.trace, *b.scheme, *b.test.model, 0);
  const Margins margins = compute_margins(*b.test.model, workload.sites, options, workload.whole);
  EXPECT_EQ(rates.assertions[0].tightest->lower, margins.sites[0].lower);
  EXPECT_EQ(rates.assertions[0].tightest->upper, margins.sites[0].upper);
  EXPECT_LE(rates.assertions[0].tightest_rate, 0.01);
  EXPECT_GT(rates.assertions[0].tightest_rate, 0.001);  // as narrow as the atoms allow: near the target
}

// heapprofd and Memray record an allocation at or above their cutoff whole: its site
// is certain to be present with its true bytes.
TEST(Flaky, PassThroughAllocationsAreCertain) {
  for (const char* scheme : {"heapprofd", "memray"}) {
    const Built b = build(std::string(R"({"scheme": ")") + scheme + R"(", "rate": 4096, "sites": [
        {"name": "large", "allocations": [{"size": 1048576, "count": 3}]}],
      "assertions": [{"site": "large", "present": true}, {"site": "large", "bytes": ["3MiB", "3MiB"]},
                     {"site": "large", "samples": [3, 3]}]})");
    const FlakyRates rates = flaky_rates(b.test);
    for (const FlakyRate& r : rates.assertions) EXPECT_LT(*r.false_failure, 1e-12) << scheme;
    const FlakyCheck check = check_flaky(b.test, *b.scheme, b.trace, 200, 3, 1);
    EXPECT_EQ(check.any_failure, 0u) << scheme;
  }
}

// heapprofd before Android 12 has no sampling model of its own (family none): every
// rate comes from the engine, its values from the scheme's own estimators. It is
// heapprofd with pass-through at s >= T, so each measured rate must agree, within 5 SE
// (two-sided false alarm 5.7e-7 each), with the exact rate of heapprofd
// {"passthrough": "rate"} and with the closed form: below T the samples in B bytes are
// Poisson(B/T) (the code's gaps floor(Exp(T)) + 1 shift the mean by 1/(2T) relative,
// 1.2e-4 here: far inside 5 SE), each weighing T bytes; at or above T an allocation is
// recorded whole.
TEST(Flaky, SchemeWithoutAModelIsMeasuredByTheEngine) {
  const double t = 4096;
  const std::string workload = R"(, "rate": 4096, "sites": [
      {"name": "a", "allocations": [{"size": 1000, "count": 410}]},
      {"name": "b", "allocations": [{"size": 64, "count": 192}]},
      {"name": "c", "allocations": [{"size": 16, "count": 13}]},
      {"name": "d", "allocations": [{"size": 8192, "count": 2}, {"size": 100, "count": 100}]}],
    "assertions": [{"site": "a", "bytes": [307200, 512000]}, {"site": "b", "present": true},
                   {"site": "c", "present": false}, {"site": "d", "bytes": [16384, 32768]},
                   {"site": "d", "samples": [2, 5]}]})";
  const Built pre12 = build(R"({"scheme": "heapprofd-pre12")" + workload);
  ASSERT_FALSE(pre12.test.model);
  const FlakyRates unmeasured = flaky_rates(pre12.test);
  for (const FlakyRate& r : unmeasured.assertions) {
    EXPECT_FALSE(r.false_failure);
    EXPECT_EQ(r.method, "by the engine");
  }
  EXPECT_TRUE(std::isnan(unmeasured.whole));
  const Built modelled = build(R"({"scheme": "heapprofd", "params": {"passthrough": "rate"})" + workload);
  ASSERT_TRUE(modelled.test.model);
  const FlakyRates exact = flaky_rates(modelled.test);

  const std::uint64_t replications = 10000;
  const FlakyCheck check = check_flaky(pre12.test, *pre12.scheme, pre12.trace, replications, 23, 2);
  FlakyRates measured = unmeasured;
  fill_rates_from_check(measured, check);
  // The closed forms: a's K ~ Poisson(410000 / T), bytes T K in [75 T, 125 T]; b has
  // 3 T bytes (fails e^-3), c 208 B (fails 1 - e^(-208/T)); d's two 8 KiB allocations
  // are certain (16384 B, 2 samples) and its 10000 B below T add K ~ Poisson(10000 / T)
  // samples: bytes 16384 + T K <= 32768 fails when K > 4, samples 2 + K <= 5 when K > 3.
  const boost::math::poisson_distribution<> a_samples(410000 / t), d_samples(10000 / t);
  const double closed[] = {boost::math::cdf(a_samples, 74) + boost::math::cdf(boost::math::complement(a_samples, 125)),
                           std::exp(-3.0), -std::expm1(-208 / t),
                           boost::math::cdf(boost::math::complement(d_samples, 4)),
                           boost::math::cdf(boost::math::complement(d_samples, 3))};
  for (std::size_t k = 0; k < pre12.test.assertions.size(); ++k) {
    const FlakyRate& r = measured.assertions[k];
    ASSERT_TRUE(r.false_failure);
    EXPECT_EQ(r.method, "by the engine, 10000 replications");
    EXPECT_NEAR(*exact.assertions[k].false_failure, closed[k], 1e-9) << pre12.test.assertions[k].text;
    EXPECT_GT(closed[k], 0.01);  // seen by the engine: 10000 replications hold >= 100 failures on average
    EXPECT_NEAR(*r.false_failure, closed[k], testing::kSigmas * se(closed[k], replications))
        << pre12.test.assertions[k].text;
    // The one-sided 95% Clopper-Pearson bound lies above the measured rate, and within
    // 2.5 SE of it (the normal approximation's 1.645 SE, widened for the exact interval).
    ASSERT_TRUE(r.upper_95);
    EXPECT_GT(*r.upper_95, *r.false_failure);
    EXPECT_LT(*r.upper_95, *r.false_failure + 2.5 * se(closed[k], replications));
  }
  ASSERT_TRUE(measured.whole_upper_95);
  EXPECT_EQ(measured.whole_method, "by the engine, 10000 replications");
}

TEST(Flaky, CheckBoundIsFiveSeAndABinomialTail) {
  EXPECT_TRUE(exceeds_rate(508, 20000, 3.454e-6));  // the 16 MiB window ignored
  EXPECT_FALSE(exceeds_rate(508, 20000, 0.02391));
  // One failure in 100 at f = 1e-4 is 9.9 SE above but has tail 1e-2: not an alarm.
  EXPECT_FALSE(exceeds_rate(1, 100, 1e-4));
  EXPECT_TRUE(exceeds_rate(1, 100, 0));
}

// A directory of the test's own (mkdtemp), removed afterwards.
class FlakyCli : public ::testing::Test {
 protected:
  std::string file(const std::string& name, const std::string& contents) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << contents;
    return path;
  }
  testing::ScratchDirectory scratch_;
  const fs::path dir_ = scratch_.path();
};

TEST_F(FlakyCli, GperftoolsSamplingTestTableAndCheck) {
  const auto r = run_cli("flaky " + allocsim::testing::source_dir() +
                         "/traces/profiles/flaky-gperftools.json --check 4000 -j 2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = nlohmann::json::parse(r.output);
  EXPECT_NEAR(json["assertions"][0]["false_failure"].get<double>(), shipped_sampling_test_rate(0), 1e-9);
  EXPECT_EQ(json["check"]["replications"], 4000);
  const auto table = run_cli("flaky " + allocsim::testing::source_dir() + "/traces/profiles/flaky-gperftools.json");
  EXPECT_NE(table.output.find("big bytes in [50 MiB (52428800 B), 110 MiB (115343360 B)]"), std::string::npos)
      << table.output;
}

// A rate the model states honestly passes its check (exit 0); the failing side of
// the bound is Flaky.CheckBoundIsFiveSeAndABinomialTail.
TEST_F(FlakyCli, HonestRatesPassTheirCheck) {
  const std::string test = file("t.json", R"({"scheme": "go", "rate": 4096,
    "sites": [{"name": "s", "allocations": [{"size": 64, "count": 300}]}],
    "assertions": [{"site": "s", "present": true}, {"site": "s", "samples": [1, 6]}]})");
  const auto r = run_cli("flaky " + test + " --check 2000 -j 2", true);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("measured by the engine: 2000 replications"), std::string::npos) << r.output;
}

// A bias for the whole test: each assertion's power beside its rate, the tightest
// band at the target, and an impossible bias refused naming $.bias (exit 2).
TEST_F(FlakyCli, PowerAndTightestBandBesideTheRates) {
  const std::string sites = R"("sites": [{"name": "s", "allocations": [{"size": 64, "count": 3000}]}])";
  const std::string test = file("t.json", R"({"scheme": "go", "rate": 4096, "bias": 0.5, )" + sites +
                                              R"(, "assertions": [{"site": "s", "samples": [20, 70]},
        {"site": "s", "present": true, "bias": -0.5}]})");
  const auto table = run_cli("flaky " + test + " --target 1e-3");
  ASSERT_EQ(table.exit_code, 0) << table.output;
  EXPECT_NE(table.output.find("power (bias)"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("(+50%)"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("1: tightest band at 0.001: ["), std::string::npos) << table.output;
  const auto json = nlohmann::json::parse(run_cli("flaky " + test + " --json --check 2000 -j 2").output);
  EXPECT_EQ(json["assertions"][0]["bias"], 0.5);
  // The first assertion's power: it fails when 1.5 K falls outside [20, 70], K the
  // samples of 3000 allocations of 64 B at 4 KiB, Binomial(3000, 1 - e^(-64/4096)).
  const boost::math::binomial_distribution<> samples(3000, -std::expm1(-64.0 / 4096));
  const double power = boost::math::cdf(samples, 13.0) + boost::math::cdf(boost::math::complement(samples, 46.0));
  EXPECT_NEAR(json["assertions"][0]["power"].get<double>(), power, 1e-9);
  EXPECT_EQ(json["assertions"][1]["bias"], -0.5);
  EXPECT_EQ(json["assertions"][1]["power"], json["assertions"][1]["false_failure"]);
  EXPECT_TRUE(json["assertions"][0].contains("measured_power"));
  EXPECT_TRUE(json["assertions"][0].contains("tightest_band"));
  const std::string bad = file("bad.json", R"({"scheme": "go", "rate": 4096, "bias": -1, )" + sites +
                                               R"(, "assertions": [{"site": "s", "present": true}]})");
  const auto r = run_cli("flaky " + bad, true);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("$.bias"), std::string::npos) << r.output;
}

TEST_F(FlakyCli, EmitsTheAssertionsWithTheirRatesAsCode) {
  const std::string test = allocsim::testing::source_dir() + "/traces/profiles/flaky-gperftools.json";
  const auto gtest = run_cli("flaky " + test + " --emit gtest");
  ASSERT_EQ(gtest.exit_code, 0) << gtest.output;
  EXPECT_NE(gtest.output.find("EXPECT_TRUE(bytes(\"big\") >= 52428800 && bytes(\"big\") <= 115343360);"),
            std::string::npos)
      << gtest.output;
  EXPECT_NE(gtest.output.find("false-failure rate " + printed(shipped_sampling_test_rate(0), 3) + " (exact)"),
            std::string::npos)
      << gtest.output;
  EXPECT_NE(gtest.output.find("// Generated by: allocsim flaky"), std::string::npos) << gtest.output;
  const auto pytest = run_cli("flaky " + test + " --emit pytest");
  EXPECT_NE(pytest.output.find("assert 52428800 <= bytes(\"big\") <= 115343360"), std::string::npos) << pytest.output;
  const auto go = run_cli("flaky " + test + " --emit go");
  EXPECT_NE(go.output.find("func TestProfilerSites(t *testing.T) {"), std::string::npos) << go.output;
  EXPECT_EQ(run_cli("flaky " + test + " --emit rust").exit_code, 2);
  // With a bias: each assertion's power beside its rate.
  const auto biased =
      run_cli("flaky " + allocsim::testing::source_dir() + "/traces/profiles/flaky-gperftools-bias.json --emit gtest");
  ASSERT_EQ(biased.exit_code, 0) << biased.output;
  EXPECT_NE(biased.output.find("false-failure rate " + printed(shipped_sampling_test_rate(0), 3) +
                               " (exact); power against a -20% bias " + printed(shipped_sampling_test_rate(-0.2), 4) +
                               " (exact)"),
            std::string::npos)
      << biased.output;
}

// --power: the inverse answer states the power it reaches; without a bias to have power
// against, --power is refused (exit 2, one line).
TEST_F(FlakyCli, PowerTargetNeedsABiasAndIsStatedInTheAnswer) {
  const std::string sites = R"("sites": [{"name": "s", "allocations": [{"size": 64, "count": 10000}]}])";
  const std::string test = file("t.json", R"({"scheme": "per-allocation", "rate": 100, "bias": 0.5, )" + sites +
                                              R"(, "assertions": [{"site": "s", "samples": [70, 130]}]})");
  const auto r = run_cli("flaky " + test + " --power 0.999 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = nlohmann::json::parse(r.output);
  EXPECT_EQ(json["inverse"]["power_target"], 0.999);
  EXPECT_GE(json["inverse"]["power_at_multiplier"].get<double>(), 0.999);
  EXPECT_LE(json["inverse"]["false_failure_at_multiplier"].get<double>(), 1e-6);
  EXPECT_NE(json["inverse"]["text"].get<std::string>().find("against each stated bias"), std::string::npos);
  const std::string unbiased = file("u.json", R"({"scheme": "per-allocation", "rate": 100, )" + sites +
                                                  R"(, "assertions": [{"site": "s", "samples": [70, 130]}]})");
  const auto refused = run_cli("flaky " + unbiased + " --power 0.9", true);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("--power"), std::string::npos) << refused.output;
  EXPECT_EQ(std::count(refused.output.begin(), refused.output.end(), '\n'), 1) << refused.output;
}

// A scheme without a model (JFR's throttled, adaptive sampler: no rate, no count
// estimator) in table, JSON and emitted code: every rate by the engine (10000
// replications unless --check), the measured rate's 95% upper bound in the comment, and
// the missing tightest band and inverse answer said in one line; an assertion reading
// an estimator the scheme lacks, or a rate it has no parameter for, is refused (exit 2).
TEST_F(FlakyCli, SchemeWithoutAModelIsMeasuredAndSaysWhatItLacks) {
  const std::string sites = R"("sites": [{"name": "s", "allocations": [{"size": 64, "count": 20000}]},
    {"name": "t", "allocations": [{"size": 4096, "count": 5}]}])";
  const std::string test = file("t.json", R"({"scheme": "jfr", )" + sites + R"(,
    "assertions": [{"site": "s", "present": true}, {"site": "s", "share_at_least": 0.5}]})");
  const auto table = run_cli("flaky " + test + " -j 2");
  ASSERT_EQ(table.exit_code, 0) << table.output;
  EXPECT_NE(table.output.find("by the engine, 10000 replications"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("no tightest band and no inverse answer: jfr has no sampling model"), std::string::npos)
      << table.output;
  const auto json = nlohmann::json::parse(run_cli("flaky " + test + " --json --check 2000 -j 2").output);
  EXPECT_EQ(json["assertions"][0]["method"], "by the engine, 2000 replications");
  EXPECT_TRUE(json["assertions"][0].contains("upper_95"));
  EXPECT_TRUE(json.contains("whole_upper_95"));
  EXPECT_NE(json["unavailable"].get<std::string>().find("no inverse answer"), std::string::npos);
  EXPECT_FALSE(json.contains("inverse"));
  const auto emitted = run_cli("flaky " + test + " --emit pytest -j 2");
  ASSERT_EQ(emitted.exit_code, 0) << emitted.output;
  EXPECT_NE(emitted.output.find("(by the engine, 10000 replications; <= "), std::string::npos) << emitted.output;
  EXPECT_NE(emitted.output.find("at 95% confidence, Clopper-Pearson)"), std::string::npos) << emitted.output;
  EXPECT_NE(emitted.output.find("assert present(\"s\")"), std::string::npos) << emitted.output;

  const std::string count = file("count.json", R"({"scheme": "jfr", )" + sites + R"(,
    "assertions": [{"site": "s", "count": [1, 30000]}]})");
  const auto refused = run_cli("flaky " + count, true);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("$.assertions[0]: scheme \"jfr\" has no sampling model and no \"count\" estimator"),
            std::string::npos)
      << refused.output;
  const std::string rate = file("rate.json", R"({"scheme": "jfr", "rate": 4096, )" + sites + R"(,
    "assertions": [{"site": "s", "present": true}]})");
  const auto no_rate = run_cli("flaky " + rate, true);
  EXPECT_EQ(no_rate.exit_code, 2) << no_rate.output;
  EXPECT_NE(no_rate.output.find("$.rate"), std::string::npos) << no_rate.output;
}

TEST_F(FlakyCli, BadInputIsOneLineNamingTheJsonPathExit2NothingWritten) {
  const std::string sites = R"("sites": [{"name": "s", "allocations": [{"size": 64, "count": 10}]}])";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"scheme": "go", "rate": "512KiB", )" + sites + R"(, "assertions": [{"site": "t", "present": true}]})",
       "$.assertions[0].site"},
      {R"({"scheme": "go", "rate": "512KiB", )" + sites +
           R"(, "assertions": [{"site": "s", "bytes": ["2MiB", "1MiB"]}]})",
       "$.assertions[0].bytes"},
      {R"({"scheme": "go", "rate": "512kB", )" + sites + R"(, "assertions": [{"site": "s", "present": true}]})",
       "$.rate"},
      {R"({"scheme": "go", "rate": 4096, )" + sites + R"(, "assertions": [{"site": "s", "presnt": true}]})",
       "$.assertions[0]"},
  };
  for (const auto& [text, path] : cases) {
    const std::string test = file("t.json", text), out = (dir_ / "out.json").string();
    const auto r = run_cli("flaky " + test + " --out " + out, true);
    EXPECT_EQ(r.exit_code, 2) << text << "\n" << r.output;
    EXPECT_NE(r.output.find(path), std::string::npos) << path << "\n" << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_FALSE(fs::exists(out));
  }
}

}  // namespace
}  // namespace allocsim::profile
