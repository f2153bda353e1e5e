#include "allocsim/sampler/systems/jvm/jvm.h"

#include <gtest/gtest.h>

#include <cmath>

#include "allocsim/sampler/systems/go/go_random.h"
#include "allocsim/util/error.h"
#include "scheme_theory_checks.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::catalogue_entry;
using testing::expect_rows_match_theory;
using testing::find_row;
using testing::make_trace;
using testing::parameter_default;
using testing::run_scenario_text;
using testing::ScriptedStream;
using testing::uniform_for_next;

std::unique_ptr<Scheme> make_jvm(const nlohmann::json& params) { return testing::create_scheme("jvm", params); }

// 0xee9735062aa9 steps to 0x7fffffc00000 (inverse of the LCG, computed
// independently), whose top 26 bits are 2^25 - 1: q = 2^25, fast_log2 = 25 +
// log2(1 + 0.5/1024) (the table's bin midpoint), interval
// size_t((-1 + 0.000704) * (-ln 2 * 1000) + 1) = size_t(693.66) = 693.
TEST(JvmRandom, LcgAndTableLog) {
  EXPECT_DOUBLE_EQ(jvm_fast_log2(0x1.0p25), 25 + std::log2(1 + 0.5 / 1024));
  EXPECT_DOUBLE_EQ(jvm_fast_log2(1.5 * 0x1.0p3), 3 + std::log2(1 + 512.5 / 1024));
  std::uint64_t state = 0xee9735062aa9ULL;
  EXPECT_EQ(jvm_next_interval(state, 1000), 693u);
  EXPECT_EQ(state, 0x7fffffc00000u);
  // q = 2^26 (all top bits set): fast_log2 - 26 = +0.0007 is clamped to 0: interval 1.
  std::uint64_t top = 0x6e9735062aa9ULL;  // steps to 0xFFFFFFC00000
  EXPECT_EQ(jvm_next_interval(top, 1000), 1u);
  EXPECT_EQ(top, 0xFFFFFFC00000u);
}

// Over all 2^26 values of q (each equally likely), the faithful interval's mean is
// within 1e-4 of the ideal floor(Exp(T)) + 1's T + 1/2 and P(interval <= f T) within
// 1e-4 of 1 - e^-f, the inclusion probability the theory uses (computed: -2.6e-7;
// -7.8e-6, -4.0e-5, +5.1e-6 at f = 1/4, 1, 4); Go's draw likewise (+4.1e-5; -2.1e-5,
// -6.7e-6, -1.6e-6). This bounds the faithful draws' distortion of every theory row.
TEST(JvmRandom, FaithfulDrawsAreExponentialToOneInTenThousand) {
  const double T = 524288;
  const double f[] = {0.25, 1, 4};
  for (const bool go : {false, true}) {
    double sum = 0;
    double below[3] = {0, 0, 0};
    for (std::uint32_t q = 1; q <= (1u << 26); ++q) {
      const auto g = static_cast<double>(go ? go_exprand_from_q(q, T) : jvm_interval_from_q(q, T));
      sum += g;
      for (int j = 0; j < 3; ++j) below[j] += g <= f[j] * T;
    }
    const double n = 0x1.0p26;
    EXPECT_NEAR(sum / n / (T + 0.5), 1.0, 1e-4) << (go ? "go" : "jvm");
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(below[j] / n, -std::expm1(-f[j]), 1e-4) << (go ? "go " : "jvm ") << f[j];
  }
}

// T = 1000, ideal draws. Until 100: 50 B (object 56) -> 44 left; 30 (32) -> 12; 13 (16
// >= 12) sampled at offset 11, since-last 104. Until 8: 0 B never reaches it; 8 B
// (8 >= 8) sampled at 7 with since-last 8. Until 1000.
TEST(JvmSampler, ScriptedCountdownOnObjectSizes) {
  const double T = 1000;
  const Trace trace = make_trace({50, 30, 13, 0, 8});
  std::vector<ScriptedStream> lanes = {
      ScriptedStream({uniform_for_next(100, T), uniform_for_next(8, T), uniform_for_next(1000, T)})};
  JvmSampler sampler(T, false);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].event, 2u);
  EXPECT_EQ(out[0].offset, 11u);
  EXPECT_EQ(out[0].weight, 104.0);
  EXPECT_EQ(out[1].event, 4u);
  EXPECT_EQ(out[1].offset, 7u);
  EXPECT_EQ(out[1].weight, 8.0);
  EXPECT_EQ(lanes[0].uniforms_used(), 3u);

  std::vector<double> w(6);
  make_jvm({{"interval", 1000}})->weigh(trace, out, w);
  const double scale = 1 / -std::expm1(-16.0 / 1000);
  EXPECT_DOUBLE_EQ(w[0], 16 * scale);
  EXPECT_DOUBLE_EQ(w[1], scale);
  EXPECT_EQ(w[2], 104.0);
  EXPECT_EQ(w[5], 8.0);
}

// One shared _rnd: each thread's sampler re-seeds it with its address (the low 32
// bits of its lane's first word) and draws its first interval; later draws continue
// from the last seed in trace order, whichever thread samples. Objects larger than
// any interval (< 26 ln 2 T + 1) are sampled at offset interval - 1, which shows the
// intervals.
TEST(JvmSampler, FaithfulSharedStateReseededPerThread) {
  std::uint64_t s = 0x77;
  const std::uint64_t first0 = jvm_next_interval(s, 1000);
  s = 0x9;
  const std::uint64_t first1 = jvm_next_interval(s, 1000);
  const std::uint64_t second = jvm_next_interval(s, 1000);  // thread 0's redraw
  const std::uint64_t third = jvm_next_interval(s, 1000);   // thread 1's redraw
  const Trace trace = make_trace({1 << 20, 1 << 20, 1 << 20, 1 << 20}, {0, 1, 0, 1});
  std::vector<ScriptedStream> lanes = {ScriptedStream({}, {0x1234500000077ULL}),
                                       ScriptedStream({}, {0xABCD00000009ULL})};
  JvmSampler sampler(1000, true);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 4u);
  const std::uint64_t intervals[] = {first0, first1, second, third};
  for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(out[j].offset, intervals[j] - 1) << j;
  EXPECT_NE(first0, first1);
}

TEST(JvmScheme, CatalogueAndBadParameters) {
  const nlohmann::json entry = catalogue_entry("jvm");
  EXPECT_EQ(parameter_default(entry, "rate"), 524288);  // "interval", HotSpot's name, is its alias
  EXPECT_EQ(parameter_default(entry, "faithful"), true);
  EXPECT_THROW(make_jvm({{"interval", -1}}), InputError);
  EXPECT_THROW(make_jvm({{"interval", 1ULL << 31}}), InputError);
  EXPECT_THROW(make_jvm({{"rate", 4096}, {"interval", 4096}}), InputError);  // one name, not both
  // interval 0 samples every object with weight u.
  const Trace trace = make_trace({1, 24});
  std::vector<ScriptedStream> none = {ScriptedStream({})};
  JvmSampler every(0, false);
  std::vector<Observation> out;
  every.replay(trace, std::span<ScriptedStream>(none), out);
  ASSERT_EQ(out.size(), 2u);
  std::vector<double> w(6);
  make_jvm({{"interval", 0}})->weigh(trace, out, w);
  EXPECT_EQ(w[0], 8.0);
  EXPECT_EQ(w[3], 24.0);
}

// At interval 0 the countdown is 0 before every object, so even a 0-byte object is
// sampled (0 < 0 is false); the theory must say so: count weight 1, no bias, no
// variance, P(unsampled) = 0.
TEST(JvmScheme, IntervalZeroSamplesAndPredictsAZeroByteObject) {
  const Trace trace = make_trace({0, 24});
  std::vector<ScriptedStream> none = {ScriptedStream({})};
  JvmSampler every(0, false);
  std::vector<Observation> out;
  every.replay(trace, std::span<ScriptedStream>(none), out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].event, 0u);
  const auto scheme = make_jvm({{"interval", 0}});
  for (std::size_t estimator : {0u, 1u}) {
    const AllocationTheory zero = scheme->theory(estimator).all_allocations(trace)[0];
    EXPECT_EQ(zero.bias, 0.0) << estimator;
    EXPECT_EQ(zero.variance, 0.0) << estimator;
    EXPECT_EQ(zero.log_p_none, -INFINITY) << estimator;
  }
}

// Unbiased, with the exact per-allocation variance (inclusion 1 - e^(-u/T)), for the
// faithful shared-LCG draws and the ideal ones, on 3 threads.
TEST(JvmScheme, MatchesTheoryOnMixedSizes) {
  const auto result = run_scenario_text(R"({"name": "t", "seed": 331, "replications": 3000,
    "trace": {"allocations": 3000, "threads": 3,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.8, "distribution": "log_uniform", "min": 16, "max": 512},
        {"weight": 0.2, "distribution": "lognormal", "median": 4096, "sigma": 1.0, "max": 16384}]},
      "stacks": {"rule": "random", "count": 4},
      "lifetime": {"distribution": "exponential", "mean": 500}},
    "schemes": [{"scheme": "jvm", "interval": 4096},
                {"scheme": "jvm", "interval": 4096, "faithful": false, "label": "ideal"}],
    "groups": ["total", "stack", "size_bucket"], "windows": ["allocated", "live_at_end"]})",
                                        2);
  EXPECT_GT(expect_rows_match_theory(result, "jvm"), 20);
  EXPECT_GT(expect_rows_match_theory(result, "ideal"), 20);
}

}  // namespace
}  // namespace allocsim
