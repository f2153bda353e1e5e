// async-profiler (sampler/systems/async-profiler/async_profiler.h): the nativemem
// counter against a line-for-line port of src/engine.h updateCounter, its skip-ahead
// against its streaming replay, the closed forms of alloc and nativemem against Monte
// Carlo, and tlab mode's TLAB events (scripted by hand) and its expected total
// against Monte Carlo. Each statistical comparison is at kSigmas = 5 standard errors: a false
// alarm rate of 5.7e-7 per check (normal approximation), with fixed seeds.
#include "allocsim/sampler/systems/async-profiler/async_profiler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

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
using testing::within_sigmas;

std::unique_ptr<Scheme> make(const nlohmann::json& params) { return testing::create_scheme("async-profiler", params); }

// src/engine.h Engine::updateCounter at HEAD b583d82, single-threaded (the CAS
// always succeeds).
bool update_counter(std::uint64_t& counter, std::uint64_t value, std::uint64_t interval) {
  if (interval <= 1) return true;
  const std::uint64_t prev = counter;
  const std::uint64_t next = prev + value;
  if (next < interval) {
    counter = next;
    return false;
  }
  counter = next % interval;
  return true;
}

TEST(AsyncProfilerScheme, CatalogueAndBadParameters) {
  const nlohmann::json entry = catalogue_entry("async-profiler");
  ASSERT_FALSE(entry.is_null());
  EXPECT_EQ(parameter_default(entry, "mode"), "alloc");
  EXPECT_EQ(parameter_default(entry, "interval"), 524287);  // DEFAULT_ALLOC_INTERVAL
  EXPECT_THROW(make({{"mode", "live"}}), InputError);
  EXPECT_NO_THROW(make({{"mode", "tlab"}}));
  EXPECT_THROW(make({{"mode", "tlab"}, {"tlab", 512}}), InputError);  // not above tlab_reserve (576)
  EXPECT_THROW(make({{"mode", "tlab"}, {"tlab_max", 8}}), InputError);
  EXPECT_THROW(make({{"interval", 1ULL << 31}}), InputError);  // a jint in alloc mode
  EXPECT_NO_THROW(make({{"mode", "nativemem"}, {"interval", 1ULL << 31}}));
  EXPECT_THROW(make({{"rate", 4096}, {"interval", 4096}}), InputError);  // one name, not both
  EXPECT_EQ(make(nlohmann::json::object())->estimators().size(), 3u);    // bytes, count_raw, bytes_ht
  EXPECT_EQ(make({{"mode", "nativemem"}})->estimators().size(), 2u);
  EXPECT_EQ(make({{"mode", "tlab"}})->estimators().size(), 2u);  // bytes, count_raw
  EXPECT_EQ(parameter_default(entry, "tlab"), 262144);
}

// Hand-computed: T = 10, starting value 4. 4+3 = 7; 7+4 = 11 fires at offset 2
// (10 - 1 - 7) and keeps 1; 1+5 = 6; 6+25 = 31 fires once (three multiples) at
// offset 3, keeps 1; 1+0 = 1; 1+2 = 3. Weights are the sizes.
TEST(AsyncProfilerNativemem, ScriptedStride) {
  const Trace trace = make_trace({3, 4, 5, 25, 0, 2});
  std::vector<ScriptedStream> lanes = {ScriptedStream({}, {14})};  // 14 mod 10 = 4
  std::vector<Observation> out;
  NativememSampler(10).replay(trace, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].event, 1u);
  EXPECT_EQ(out[0].offset, 2u);
  EXPECT_EQ(out[0].weight, 4.0);
  EXPECT_EQ(out[1].event, 3u);
  EXPECT_EQ(out[1].offset, 3u);
  EXPECT_EQ(out[1].samples, 1u);
  EXPECT_EQ(out[1].weight, 25.0);
  EXPECT_EQ(lanes[0].words_used(), 1u);
}

// The firing allocations are exactly those updateCounter fires on, started at the
// same value, for intervals from 2 to beyond every size, and at 0 and 1 (every
// malloc, an empty one too).
TEST(AsyncProfilerNativemem, FiresWhereUpdateCounterFires) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t i = 0; i < 3000; ++i) sizes.push_back(i % 17 == 0 ? 0 : 1 + (i * 2654435761u) % 9000);
  const Trace trace = make_trace(sizes);
  for (std::uint64_t interval : {0, 1, 2, 3, 7, 64, 4096, 65536, 1 << 24}) {
    for (std::uint64_t word : {0ULL, 1ULL, 12345ULL, 0xFFFFFFFFFFFFFFFFULL}) {
      std::vector<ScriptedStream> lanes = {ScriptedStream({}, {word})};
      std::vector<Observation> out;
      NativememSampler(interval).replay(trace, std::span<ScriptedStream>(lanes), out);
      std::uint64_t counter = interval <= 1 ? 0 : word % interval;
      std::size_t o = 0;
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (!update_counter(counter, sizes[i], interval)) continue;
        ASSERT_LT(o, out.size()) << interval;
        ASSERT_EQ(out[o].event, i) << "interval " << interval << " word " << word;
        EXPECT_EQ(out[o].weight, static_cast<double>(sizes[i]));
        ++o;
      }
      EXPECT_EQ(o, out.size()) << interval;
    }
  }
}

// Skip-ahead over the process-wide stream gives the streaming observations, on one
// thread and over three (the counter is process-wide: thread order is trace order).
TEST(AsyncProfilerNativemem, SkipAheadMatchesStreaming) {
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint32_t> threads;
  for (std::uint64_t i = 0; i < 2000; ++i) {
    sizes.push_back(i % 13 == 0 ? 0 : 1 + (i * 2654435761u) % (i % 50 == 0 ? 300000 : 5000));
    threads.push_back(static_cast<std::uint32_t>((i * 7) % 3));
  }
  const Trace one = make_trace(sizes), three = make_trace(sizes, threads);
  for (const Trace* trace : {&one, &three}) {
    const ThreadIndex index(*trace);
    for (std::uint64_t interval : {0, 1, 2, 3, 4096, 524288, 1 << 30}) {
      const auto scheme = make({{"mode", "nativemem"}, {"interval", interval}});
      const auto skipping = scheme->start_skip_ahead(*trace, index);
      if (interval <= 1) {
        EXPECT_EQ(skipping, nullptr);
        continue;
      }
      ASSERT_NE(skipping, nullptr);
      testing::expect_same_observations(*scheme->start(*trace), *skipping, 20);
    }
  }
}

// interval <= 1 records every malloc at its size: no error at all, and the theory
// says so (P(not sampled) = 0, an empty allocation included).
TEST(AsyncProfilerNativemem, IntervalZeroOrOneIsExact) {
  const Trace trace = make_trace({0, 24, 100});
  for (std::uint64_t interval : {0, 1}) {
    const auto scheme = make({{"mode", "nativemem"}, {"interval", interval}});
    for (std::size_t estimator : {0u, 1u}) {
      for (const AllocationTheory& one : scheme->theory(estimator).all_allocations(trace)) {
        EXPECT_EQ(one.bias, 0.0);
        EXPECT_EQ(one.variance, 0.0);
        EXPECT_EQ(one.log_p_none, -INFINITY);
      }
    }
    std::vector<Observation> out;
    scheme->start(trace)->replay({1, 0, 0}, out);
    EXPECT_EQ(out.size(), 3u);
  }
}

// One allocation of s bytes per record at T = 4096 (a multiple of 8, so s = T/2,
// T, 2T are the JVM's object sizes). Derived relative biases of bytes,
// max(s,T)(1 - e^(-s/T))/s - 1: 2(1 - e^-0.5) - 1 = -21.306 %, -e^-1 = -36.788 %,
// -e^-2 = -13.534 %; count_raw (samples as a count) 1 - e^(-s/T) - 1 = -e^(-s/T); bytes_ht 0.
TEST(AsyncProfilerAlloc, WeightMaxSizeIntervalIsBiasedNearT) {
  const double derived[] = {-0.213061, -0.367879, -0.135335};
  const std::uint64_t sizes[] = {2048, 4096, 8192};
  for (std::size_t j = 0; j < 3; ++j) {
    const std::string scenario = R"({"name": "t", "seed": )" + std::to_string(28 + j) +
                                 R"(, "replications": 40000, "trace": {"allocations": 1,
      "sizes": {"distribution": "constant", "size": )" +
                                 std::to_string(sizes[j]) +
                                 R"(}}, "schemes": [{"scheme": "async-profiler", "interval": 4096}]})";
    const ScenarioResult result = run_scenario_text(scenario, 2);
    const Metrics& bytes = find_row(result, "async-profiler", "bytes");
    EXPECT_TRUE(within_sigmas(bytes.rel_bias, derived[j], bytes.se_bias / bytes.truth)) << sizes[j];
    ASSERT_TRUE(bytes.theory.bias);
    EXPECT_NEAR(*bytes.theory.bias / bytes.truth, derived[j], 1e-6);
    const Metrics& samples = find_row(result, "async-profiler", "count_raw");
    EXPECT_NEAR(*samples.theory.bias, -std::exp(-static_cast<double>(sizes[j]) / 4096), 1e-12);
    const Metrics& ht = find_row(result, "async-profiler", "bytes_ht");
    EXPECT_EQ(*ht.theory.bias, 0.0);
    EXPECT_TRUE(testing::unbiased(ht)) << sizes[j];
    // Every row against its closed form: bias, variance and P(>= 1 sample).
    EXPECT_GE(expect_rows_match_theory(result, "async-profiler"), 3);
  }
}

// Mixed sizes over three threads: every group's bias, variance and P(>= 1 sample)
// as the per-object theory gives them, for all three estimators.
TEST(AsyncProfilerAlloc, MatchesTheoryOnMixedSizes) {
  const auto result = run_scenario_text(R"({"name": "t", "seed": 282, "replications": 3000,
    "trace": {"allocations": 2000, "threads": 3,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.8, "distribution": "log_uniform", "min": 16, "max": 512},
        {"weight": 0.2, "distribution": "log_uniform", "min": 1024, "max": 32768}]},
      "stacks": {"rule": "random", "count": 4}},
    "schemes": [{"scheme": "async-profiler", "interval": 4096}],
    "groups": ["total", "stack", "size_bucket"]})",
                                        2);
  EXPECT_GT(expect_rows_match_theory(result, "async-profiler"), 20);
}

// One allocation of s < T under the random phase is sampled with probability s/T:
// relative bias of bytes s/T - 1 (-75 % at s = T/4, -26.8 % at s = 3000, T = 4096),
// and none at s >= T (always sampled: exact).
TEST(AsyncProfilerNativemem, OwnSizeWeightIsBiasedLikeSizeOverT) {
  const std::uint64_t sizes[] = {1024, 3000, 4096, 10000};
  for (std::size_t j = 0; j < 4; ++j) {
    const double s = static_cast<double>(sizes[j]);
    const double derived = std::min(1.0, s / 4096) - 1;
    const std::string scenario = R"({"name": "t", "seed": )" + std::to_string(40 + j) +
                                 R"(, "replications": 40000, "trace": {"allocations": 1,
      "sizes": {"distribution": "constant", "size": )" +
                                 std::to_string(sizes[j]) +
                                 R"(}}, "schemes": [{"scheme": "async-profiler", "mode": "nativemem",
                                 "interval": 4096}]})";
    const ScenarioResult result = run_scenario_text(scenario, 2);
    const Metrics& bytes = find_row(result, "async-profiler", "bytes");
    ASSERT_TRUE(bytes.theory.bias && bytes.theory.var);
    EXPECT_NEAR(*bytes.theory.bias / bytes.truth, derived, 1e-12);
    if (derived == 0) {
      EXPECT_EQ(bytes.bias, 0.0);
      EXPECT_EQ(bytes.var, 0.0);
    } else {
      EXPECT_TRUE(within_sigmas(bytes.rel_bias, derived, bytes.se_bias / bytes.truth)) << sizes[j];
    }
    EXPECT_GE(expect_rows_match_theory(result, "async-profiler"), 2);
  }
}

// A mixed trace: each group's bias is the sum of the allocations' s min(1, s/T) - s
// (the Monte Carlo's own standard error: the firings are not independent, so the
// theory has no variance for a group of several allocations).
TEST(AsyncProfilerNativemem, GroupBiasIsTheSumOfMarginals) {
  const auto result = run_scenario_text(R"({"name": "t", "seed": 283, "replications": 4000,
    "trace": {"allocations": 2000, "threads": 3,
      "sizes": {"distribution": "log_uniform", "min": 16, "max": 16384},
      "stacks": {"rule": "random", "count": 4}},
    "schemes": [{"scheme": "async-profiler", "mode": "nativemem", "interval": 4096}],
    "groups": ["total", "stack", "size_bucket"]})",
                                        2);
  EXPECT_GT(expect_rows_match_theory(result, "async-profiler"), 10);
  const Metrics& total = find_row(result, "async-profiler", "bytes");
  EXPECT_FALSE(total.theory.var);
  EXPECT_LT(*total.theory.bias, -0.1 * total.truth);  // small mallocs weigh s^2/T
}

// tlab mode by hand: TLABs of 1024 bytes with a reserve of 64 (usable 1160 of the
// 1224 the first object's refill gets: desired + object), refill_waste_limit 1024/64
// = 16, +32 per outside allocation. One thread:
//   #0 200: no TLAB, free 0 <= 16: refill, event v = 1224; #1-#4: fast (top 1000);
//   #5 200: 1200 > 1160, free 160 > 16: outside (limit 48), v = 200;
//   #6 1000: free 160 > 48: outside (limit 80), v = 1000; #7 8: fast (top 1008);
//   #8-#10 160: 1168 > 1160, free 152 > 80, 112, 144: outside (limit 112, 144, 176);
//   #11 160: 152 <= 176: refill of 1024 + 160, v = 1184.
// Interval 0: every event. Interval 1000 from 0: 1224 fires (keeps 224), 424, 1424
// fires (424), 584, 744, 904, 2088 fires (88).
TEST(AsyncProfilerTlab, ScriptedRefillsAndOutsideObjects) {
  const Trace trace = make_trace({200, 200, 200, 200, 200, 200, 1000, 8, 160, 160, 160, 160});
  JvmTlabConfig config;
  config.desired = 1024;
  config.reserve = 64;
  struct Case {
    std::uint64_t interval;
    std::vector<std::size_t> events;
    std::vector<double> values;
  };
  const Case cases[] = {{0, {0, 5, 6, 8, 9, 10, 11}, {1224, 200, 1000, 160, 160, 160, 1184}},
                        {1000, {0, 6, 11}, {1224, 1000, 1184}}};
  for (const Case& c : cases) {
    std::vector<ScriptedStream> lanes = {ScriptedStream({}, {0})};
    std::vector<Observation> out;
    AsyncProfilerTlabSampler(config, c.interval).replay(trace, std::span<ScriptedStream>(lanes), out);
    ASSERT_EQ(out.size(), c.events.size()) << c.interval;
    for (std::size_t o = 0; o < out.size(); ++o) {
      EXPECT_EQ(out[o].event, c.events[o]) << c.interval;
      EXPECT_EQ(out[o].weight, c.values[o]) << c.interval;
      EXPECT_EQ(out[o].samples, 1u);
    }
  }
}

// The phase: the counter starts at the stream's first word mod T, then follows
// updateCounter over the events' values (those of interval 0) exactly; threads keep
// their own TLABs but share the counter.
TEST(AsyncProfilerTlab, OneCounterOverEveryThreadsEvents) {
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint32_t> threads;
  for (std::uint64_t i = 0; i < 5000; ++i) {
    sizes.push_back(8 + (i * 2654435761u) % (i % 97 == 0 ? 20000 : 600));
    threads.push_back(static_cast<std::uint32_t>((i * 7) % 3));
  }
  const Trace trace = make_trace(sizes, threads);
  JvmTlabConfig config;
  config.desired = 4096;
  config.max = 16384;
  config.reserve = 576;
  std::vector<ScriptedStream> all_lanes(3, ScriptedStream({}, {0}));
  std::vector<Observation> every;
  AsyncProfilerTlabSampler(config, 0).replay(trace, std::span<ScriptedStream>(all_lanes), every);
  ASSERT_GT(every.size(), 500u);
  for (std::uint64_t interval : {2, 4096, 10000, 100000}) {
    for (std::uint64_t word : {0ULL, 777ULL, 0xFFFFFFFFFFFFFFFFULL}) {
      std::vector<ScriptedStream> lanes(3, ScriptedStream({}, {word}));
      std::vector<Observation> out;
      AsyncProfilerTlabSampler(config, interval).replay(trace, std::span<ScriptedStream>(lanes), out);
      std::uint64_t counter = word % interval;
      std::size_t o = 0;
      for (const Observation& e : every) {
        if (!update_counter(counter, static_cast<std::uint64_t>(e.weight), interval)) continue;
        ASSERT_LT(o, out.size());
        EXPECT_EQ(out[o].event, e.event) << interval << " " << word;
        EXPECT_EQ(out[o].weight, e.weight);
        ++o;
      }
      EXPECT_EQ(o, out.size()) << interval;
    }
  }
}

// The TLAB events are deterministic and only the counter's phase is random, so each
// event of value v fires with probability min(1, v/T) and E[bytes] = sum of v min(1,
// v/T) over the events (those at interval 0), exactly. Small objects in 16 KiB TLABs
// at T = 32 KiB: about half the bytes (V/T). Monte Carlo over 4000 replications
// within kSigmas = 5 standard errors of it (false alarm 5.7e-7).
TEST(AsyncProfilerTlab, ExpectedBytesAreTheEventsScaledByValueOverT) {
  constexpr double kSigmas = 5;
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint32_t> threads;
  double truth = 0;
  for (std::uint64_t i = 0; i < 20000; ++i) {
    sizes.push_back(16 + (i * 2654435761u) % 1000);
    threads.push_back(static_cast<std::uint32_t>(i % 2));
    truth += static_cast<double>(jvm_object_size(sizes.back()));
  }
  const Trace trace = make_trace(sizes, threads);
  const std::uint64_t interval = 32768;
  const nlohmann::json tlab = {{"mode", "tlab"}, {"tlab", 16384}};
  nlohmann::json every_event = tlab, strided = tlab;
  every_event["interval"] = 0;
  strided["interval"] = interval;
  std::vector<Observation> events;
  make(every_event)->start(trace)->replay({5, 0, 0}, events);
  double expected = 0, all_events = 0;
  for (const Observation& e : events) {
    expected += e.weight * std::min(1.0, e.weight / static_cast<double>(interval));
    all_events += e.weight;
  }
  // Every refill valued at its TLAB: the waste at each TLAB's end counts, a few %.
  EXPECT_GT(all_events, truth);
  EXPECT_LT(all_events, 1.1 * truth);
  const auto scheme = make(strided);
  const auto run = scheme->start(trace);
  const int replications = 4000;
  double sum = 0, sum_sq = 0;
  for (int r = 0; r < replications; ++r) {
    std::vector<Observation> out;
    run->replay({2026, 0, static_cast<std::uint64_t>(r)}, out);
    double bytes = 0;
    for (const Observation& o : out) bytes += o.weight;
    sum += bytes;
    sum_sq += bytes * bytes;
  }
  const double mean = sum / replications;
  const double se = std::sqrt((sum_sq / replications - mean * mean) / (replications - 1));
  EXPECT_LE(std::abs(mean - expected), kSigmas * se) << mean << " vs " << expected << " se " << se;
  EXPECT_NEAR(expected / truth, 16384.0 / interval, 0.05);  // ~ -50 %, not the bytes
}

}  // namespace
}  // namespace allocsim
