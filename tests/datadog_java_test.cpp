// ddprof-java (sampler/systems/ddprof-java/): the PID's first updates worked by hand,
// the update trigger (every 100th sample, more than 1 s), the clamps, the float weight,
// and by Monte Carlo: unbiased at a fixed interval, the drawn-interval reference
// unbiased while the PID moves the interval, and the profile's bytes off by exactly the
// telescoped v(T_last) - v(T_0) per thread (ddprof_java.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "allocsim/engine/scheme_replay.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/ddprof-java/ddprof_java.h"
#include "allocsim/util/error.h"
#include "testing/traces.h"

namespace allocsim {
namespace {

constexpr double kAlpha = 0.3382612265622483;  // cos(2 pi f) - 1 + sqrt(...), f = float(1/15)

TEST(DdprofJavaPid, SmoothingFactorOfTheFifteenSecondCutoff) { EXPECT_NEAR(DatadogJavaPid::alpha(), kAlpha, 1e-15); }

// Update 1: 300 samples in 1.5 s (200/s): e = -100, smoothed -100 a, derivative -100 a,
// signal = 31 (-100) + 511 * 0 + 3 (-100 a) = -3201.48, T = 262144 + 3201 = 265345.
// Update 2: 100 samples in 2 s (50/s): e = 50, smoothed 50 a + (1 - a)(-100 a),
// derivative a (50 + 100 a) = 28.355, signal = 31 * 50 + 511 (-100) + 3 * 28.355
// = -49464.93, T = 265345 + 49464 = 314809.
TEST(DdprofJavaPid, FirstUpdatesWorkedByHand) {
  DatadogJavaPid pid(100);
  const double s1 = pid.compute(300, 1e9 / 1.5e9);
  EXPECT_NEAR(s1, -3100 - 300 * kAlpha, 1e-9);
  EXPECT_DOUBLE_EQ(pid.integral(), -100);
  const double s2 = pid.compute(100, 0.5);
  EXPECT_NEAR(s2, 31 * 50 - 511 * 100 + 3 * kAlpha * (50 + 100 * kAlpha), 1e-9);
  EXPECT_NEAR(s2, -49464.934618797, 1e-6);
  EXPECT_DOUBLE_EQ(pid.integral(), -50);
}

TEST(DdprofJavaInterval, UpdatesOnEveryHundredthSampleAfterMoreThanOneSecond) {
  DatadogJavaConfig config;  // 256 KiB configured, 256 KiB floor, 100 a window
  DatadogJavaInterval agent(config, 0);
  EXPECT_EQ(agent.interval(), 262144);
  for (int s = 1; s <= 100; ++s) agent.on_sample(9'900'000ull * s);  // the 100th at 0.99 s
  EXPECT_EQ(agent.updates(), 0u);
  for (int s = 101; s <= 200; ++s) agent.on_sample(990'000'000ull + 100'000ull * (s - 100));  // the 200th at 1 s
  EXPECT_EQ(agent.updates(), 0u) << "time_diff > 1 s is strict";
  for (int s = 201; s < 300; ++s) agent.on_sample(1'000'000'000ull + 1'000'000ull * (s - 200));
  EXPECT_EQ(agent.updates(), 0u) << "only multiples of 100 check the clock";
  agent.on_sample(1'500'000'000);  // the 300th: 200/s over 1.5 s
  EXPECT_EQ(agent.updates(), 1u);
  EXPECT_EQ(agent.interval(), 265345);
  for (int s = 1; s < 100; ++s) agent.on_sample(1'500'000'000ull + 10'000'000ull * s);
  agent.on_sample(3'500'000'000);  // the count restarted: 100 in 2 s
  EXPECT_EQ(agent.updates(), 2u);
  EXPECT_EQ(agent.interval(), 314809);
}

// The 256 KiB floor applies at the start only; the PID clamps at the configured interval.
TEST(DdprofJavaInterval, ClampsAtTheConfiguredIntervalNotTheFloor) {
  DatadogJavaConfig config;
  config.interval = 1000;
  DatadogJavaInterval agent(config, 0);
  EXPECT_EQ(agent.interval(), 262144);
  agent.update(0, 1.0);  // no samples: e = 100, signal 3100 + 300 a = 3201.48
  EXPECT_EQ(agent.interval(), 262144 - 3201);
  for (int k = 0; k < 20; ++k) agent.update(0, 1.0);
  EXPECT_EQ(agent.interval(), 1000);
  DatadogJavaInterval busy(config, 0);
  for (int k = 0; k < 3; ++k) busy.update(1'000'000'000, 1.0);
  EXPECT_EQ(busy.interval(), 2147483647);
}

TEST(DdprofJavaWeight, FloatOfTheInverseInclusionProbability) {
  EXPECT_EQ(datadog_java_weight(0, 1000), 1);
  EXPECT_EQ(datadog_java_weight(64, 0), 1);
  const double exact = 1 / (1 - std::exp(-64.0 / 262144));
  EXPECT_EQ(datadog_java_weight(64, 262144), static_cast<double>(static_cast<float>(exact)));
  EXPECT_NEAR(datadog_java_weight(64, 262144), exact, exact * 1e-7);
  EXPECT_NEAR(datadog_java_thread_bias(64, 1000, 1000), 0, 1e-12);
  // v(T) = T + u/2 + u^2/(12 T) + O(u^4/T^3): 1000 - 4096/12 (1/1000 - 1/2000) = 999.829
  EXPECT_NEAR(datadog_java_thread_bias(64, 1000, 2000), 1000 - 4096.0 / 12 / 2000, 1e-3);
}

struct Totals {
  double bytes = 0, bytes_drawn = 0, telescoped = 0, samples = 0;
};

// Per replication: the bytes estimators' totals, and the telescoped sum over threads
// of v(T_last) - v(T_0) (unrounded weights), for a trace of one object size u.
Totals replay_totals(SchemeReplay& replay, const Trace& trace, double u, double first_interval, std::uint64_t seed) {
  replay.replay({41, 3, seed});
  const auto& obs = replay.observations();
  Totals t;
  std::vector<double> last(trace.thread_count, -1);
  for (std::size_t o = 0; o < obs.size(); ++o) {
    t.bytes += datadog_java_sample_bytes(u, obs[o].weight);
    t.bytes_drawn += replay.registers(o)[3];
    t.samples += 1;
    last[trace.thread[obs[o].event]] = obs[o].weight;
  }
  for (const double l : last) {
    if (l >= 0) t.telescoped += datadog_java_thread_bias(u, first_interval, l);
  }
  return t;
}

struct Mean {
  double sum = 0, sum2 = 0, n = 0;
  void add(double x) {
    sum += x;
    sum2 += x * x;
    n += 1;
  }
  double mean() const { return sum / n; }
  double se() const { return std::sqrt(std::max(0.0, sum2 / n - mean() * mean()) / (n - 1)); }
};

// A fixed interval (rate limiting off): HotSpot's countdown with the agent's weights is
// Horvitz-Thompson, unbiased for the total bytes and for each size class. 5 SE over 200
// replications: false alarm ~6e-7 per assertion.
TEST(DdprofJavaScheme, UnbiasedAtAFixedInterval) {
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint32_t> threads;
  for (int i = 0; i < 40'000; ++i) {
    sizes.push_back(i % 4 == 0 ? 100'000 : (i % 4 == 1 ? 10'000 : (i % 4 == 2 ? 1'000 : 24)));
    threads.push_back(static_cast<std::uint32_t>((i / 3) % 4));
  }
  const Trace trace = testing::make_trace(sizes, threads);
  double truth = 0;
  for (const std::uint64_t s : sizes) truth += static_cast<double>(jvm_object_size(s));
  const auto scheme = create_scheme("ddprof-java", {{"rate_limiting", false}}, "$");
  SchemeReplay replay(*scheme, trace);
  Mean bytes, count;
  for (std::uint64_t r = 0; r < 200; ++r) {
    replay.replay({7, 1, r});
    double b = 0, c = 0;
    for (std::size_t o = 0; o < replay.observations().size(); ++o) {
      b += replay.registers(o)[0];
      c += replay.registers(o)[1];
      EXPECT_EQ(replay.observations()[o].offset, 262144u);
      EXPECT_EQ(replay.observations()[o].weight, 262144.0);
    }
    bytes.add(b);
    count.add(c);
  }
  EXPECT_LT(std::abs(bytes.mean() - truth), 5 * bytes.se()) << bytes.mean() << " vs " << truth;
  EXPECT_LT(std::abs(count.mean() - 40'000), 5 * count.se()) << count.mean();
}

// The PID moving the interval: 4 threads of 64-byte objects at 2 MB/s (the wall clock)
// for 12 s, interval and floor 1 KiB: T climbs from 1 KiB far past the ~20 KiB of 100/s (the
// double integration overshoots: the excess is ~15 % of the bytes). The
// drawn-interval reference stays unbiased; the profile's bytes exceed the truth by the
// telescoped sum of v(T_last) - v(T_0) over the threads, exactly in expectation: their
// difference is within 5 SE of 0 (false alarm ~6e-7 each).
TEST(DdprofJavaScheme, BiasTelescopesToTheLastIntervalPerThread) {
  const std::size_t n = 375'000;  // 24 MB of 64-byte objects: 12 s at 2 MB/s
  std::vector<std::uint64_t> sizes(n, 64);
  std::vector<std::uint32_t> threads(n);
  for (std::size_t i = 0; i < n; ++i) threads[i] = static_cast<std::uint32_t>(i % 4);
  const Trace trace = testing::make_trace(sizes, threads);
  const double truth = 64.0 * static_cast<double>(n);
  const auto scheme =
      create_scheme("ddprof-java", {{"interval", 1024}, {"floor", 1024}, {"alloc_rate", 2'000'000}}, "$");
  SchemeReplay replay(*scheme, trace);
  Mean drawn_error, identity, excess, samples;
  for (std::uint64_t r = 0; r < 200; ++r) {
    const Totals t = replay_totals(replay, trace, 64, 1024, r);
    drawn_error.add(t.bytes_drawn - truth);
    identity.add(t.bytes - truth - t.telescoped);
    excess.add(t.bytes - truth);
    samples.add(t.samples);
  }
  std::printf("bytes excess %.0f (%.3f %%), telescoped identity residual %.0f +- %.0f, %.1f samples/s\n", excess.mean(),
              100 * excess.mean() / truth, identity.mean(), identity.se(), samples.mean() / 12);
  EXPECT_LT(std::abs(drawn_error.mean()), 5 * drawn_error.se()) << drawn_error.mean();
  EXPECT_LT(std::abs(identity.mean()), 5 * identity.se()) << identity.mean();
  // T climbed (to hundreds of KiB per thread): the excess is positive, far beyond its SE.
  EXPECT_GT(excess.mean(), 5 * excess.se());
}

// Below 100 T_min bytes a second (25.6 MB/s at the shipped 256 KiB) the PID asks for a
// smaller interval than the configured clamp: T stays at 256 KiB and the profiler takes
// A / T samples a second, fewer than its 100 (the integral winds up meanwhile). 10 MB/s
// of 8 KiB objects for 20 s on 2 threads: each object sampled with 1 - e^(-u/T), the
// count of samples within 5 SE of n (1 - e^(-u/T)) (~38 a second; false alarm ~6e-7).
TEST(DdprofJavaScheme, BelowTheTargetTheIntervalStaysAtTheClamp) {
  const std::size_t n = 24'414;  // 200 MB / 8192 B: 20 s at 10 MB/s
  std::vector<std::uint32_t> threads(n);
  for (std::size_t i = 0; i < n; ++i) threads[i] = static_cast<std::uint32_t>(i % 2);
  const Trace trace = testing::make_trace(std::vector<std::uint64_t>(n, 8192), threads);
  const auto scheme = create_scheme("ddprof-java", {{"alloc_rate", 10'000'000}}, "$");
  SchemeReplay replay(*scheme, trace);
  Mean samples;
  for (std::uint64_t r = 0; r < 100; ++r) {
    replay.replay({5, 2, r});
    for (const Observation& o : replay.observations()) ASSERT_EQ(o.weight, 262144.0);
    samples.add(static_cast<double>(replay.observations().size()));
  }
  const double expected = static_cast<double>(n) * -std::expm1(-8192.0 / 262144);
  std::printf("%.1f samples/s (target 100)\n", samples.mean() / 20);
  EXPECT_LT(std::abs(samples.mean() - expected), 5 * samples.se()) << samples.mean() << " vs " << expected;
}

TEST(DdprofJavaScheme, RejectsOutOfRangeParameters) {
  EXPECT_THROW(create_scheme("ddprof-java", {{"interval", 4'294'967'296}}, "$"), InputError);
  EXPECT_THROW(create_scheme("ddprof-java", {{"floor", 4'294'967'296}}, "$"), InputError);
  EXPECT_THROW(create_scheme("ddprof-java", {{"alloc_rate", 0}}, "$"), InputError);
}

}  // namespace
}  // namespace allocsim
