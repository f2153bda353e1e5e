// jfr (sampler/systems/jfr/): JFR's throttle against windows worked by hand from
// jfrAdaptiveSampler.cpp (exact); its steady-state samples per second against the
// expectation derived from the algorithm (a dynamic programme over each second's five
// windows) at kSigmas = 5 standard errors (false alarm 5.7e-7, normal approximation,
// fixed seed), with every second's exact cap of 150; and the events and weights of
// jdk.ObjectAllocationSample on hand-built traces (exact): a thread slower than the
// target, one slower than a window, the outside-TLAB tries, and the weights' sum.
#include "allocsim/sampler/systems/jfr/jfr.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "allocsim/random/random_stream.h"
#include "allocsim/util/error.h"
#include "scheme_theory_checks.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::catalogue_entry;
using testing::make_trace;
using testing::parameter_default;
using testing::within_sigmas;

constexpr std::uint64_t kMs = 1'000'000;  // ns

std::unique_ptr<Scheme> make(const nlohmann::json& params) { return testing::create_scheme("jfr", params); }

// A uniform source that must not be called (k = 1 needs no draw).
double no_uniform() {
  ADD_FAILURE() << "the throttle drew a uniform where k = 1 needs none";
  return 0.5;
}

// `count` events 1 ns apart from `start`, then the event at `start` + 200 ms that
// expires the window (rejected, and it opens the next one): how many were accepted.
template <class Uniform>
int window_of(JfrThrottle& throttle, std::uint64_t start, int count, Uniform&& uniform,
              std::vector<int>* accepted_ordinals = nullptr) {
  int accepted = 0;
  for (int j = 0; j < count; ++j) {
    if (throttle.sample(start + 1 + static_cast<std::uint64_t>(j), uniform)) {
      ++accepted;
      if (accepted_ordinals != nullptr) accepted_ordinals->push_back(j + 1);
    }
  }
  EXPECT_FALSE(throttle.sample(start + 200 * kMs, uniform)) << "the expiring event is rejected";
  return accepted;
}

TEST(JfrScheme, CatalogueAndBadParameters) {
  const nlohmann::json entry = catalogue_entry("jfr");
  ASSERT_FALSE(entry.is_null());
  EXPECT_EQ(parameter_default(entry, "throttle"), 150);  // default.jfc: throttle 150/s
  EXPECT_EQ(parameter_default(entry, "alloc_rate"), 512 << 20);
  EXPECT_EQ(make(nlohmann::json::object())->estimators().size(), 2u);  // bytes, count_raw
  EXPECT_THROW(make({{"tlab", 576}}), InputError);                     // not above the reserve
  EXPECT_THROW(make({{"throttle", -1}}), InputError);
  EXPECT_THROW(make({{"clock", "cpu"}}), InputError);
  const Trace one = make_trace({8});
  const ThreadIndex index(one);
  EXPECT_EQ(make({{"tlab", 4672}})->start_skip_ahead(one, index), nullptr);  // streaming only
}

// JfrEventThrottler::update_params for "r/s": r <= 9 one window of 1 s with r points
// (no debt carried), otherwise 200 ms windows with r / 5 points, debt carried over 5.
TEST(JfrThrottle, ParametersOfARate) {
  const JfrThrottleParams p150 = jfr_throttle_params(150);
  EXPECT_EQ(p150.points, 30u);
  EXPECT_EQ(p150.window_ns, 200 * kMs);
  EXPECT_EQ(p150.lookback, 25u);
  EXPECT_EQ(p150.carry_limit, 5u);
  EXPECT_EQ(jfr_throttle_params(300).points, 60u);
  EXPECT_EQ(jfr_throttle_params(12).points, 2u);  // 12 / 5
  const JfrThrottleParams p9 = jfr_throttle_params(9);
  EXPECT_EQ(p9.points, 9u);
  EXPECT_EQ(p9.window_ns, 1000 * kMs);
  EXPECT_EQ(p9.carry_limit, 1u);
}

// By hand at 150/s (30 points, alpha = 1/25, carry limit 5). The start's rotation
// leaves the carry count at 1. Rotation m (m = 1, 2, ...) carries the debt unless the
// count has reached 5 (rotations 4, 9, ...: count 1 -> 2 -> 3 -> 4 -> 5 -> reset).
//   W1: n = 30, 10 events -> 10; debt 10 - 30 = -20, carried: n2 = 50.
//   W2: 60 events -> 50 (the cap n k = 50); debt 0: n3 = 30.
//   W3: 5 events -> 5; debt -25: n4 = 55.
//   W4: no events -> 0; debt -55: n5 = 85. (count now 5)
//   W5: 20 events -> 20; debt -65, forgotten (count 5 -> 1): n6 = 30.
//   W6: 40 events -> 30.
// The EWMA stays below every n (0.4, 2.784, 2.873, 2.758, 3.447, ...): k = 1 always,
// and no uniform is drawn.
TEST(JfrThrottle, DebtCarriedWithinTheSecondThenForgotten) {
  JfrThrottle throttle(jfr_throttle_params(150), no_uniform);
  std::uint64_t start = 0;
  std::vector<int> accepted;
  for (int count : {10, 60, 5, 0, 20, 40}) {
    accepted.push_back(window_of(throttle, start, count, no_uniform));
    start += 200 * kMs;
  }
  EXPECT_EQ(accepted, (std::vector<int>{10, 50, 5, 0, 20, 30}));
  EXPECT_EQ(throttle.rotations(), 7u);  // the start's and six expiries
}

// The first window: k = 1 (the EWMA starts at 0), the first 30 events accepted, the
// rest of the window and the expiring event rejected; the window's end is 200 ms
// after the recording starts, and the next one's 200 ms after the expiring event.
TEST(JfrThrottle, FirstWindowTakesTheFirstThirty) {
  JfrThrottle throttle(jfr_throttle_params(150), no_uniform);
  int accepted = 0;
  for (std::uint64_t t = 0; t < 200 * kMs; t += 5 * kMs) accepted += throttle.sample(t, no_uniform) ? 1 : 0;
  EXPECT_EQ(accepted, 30);
  EXPECT_FALSE(throttle.sample(250 * kMs, no_uniform));
  EXPECT_EQ(throttle.active().end_ns, 450 * kMs);
  EXPECT_TRUE(throttle.sample(449 * kMs, no_uniform));
}

// The geometric interval. W1 has 2000 events: EWMA 2000/25 = 80 > 30, p = 30/80, and
// u = 0.5 gives k = ceil(ln 0.5 / ln 0.625) = ceil(1.4748) = 2: W2 accepts ordinals
// 2, 4, ..., 60 (n k = 60) and nothing after. W2 has 100 events: EWMA 0.04 * 100 +
// 0.96 * 80 = 80.8, truncated to 80, u = 0 is clamped to 0.01: k = ceil(0.0214) = 1.
// The truncation to size_t (JDK 17): 774 events give an EWMA of 30.96, truncated to
// 30 <= n = 30, so k = 1 with no draw (a double EWMA would have drawn).
TEST(JfrThrottle, GeometricIntervalFromTheTruncatedEwma) {
  std::vector<double> draws = {0.5, 0.0};
  std::size_t used = 0;
  auto scripted = [&] { return draws.at(used++); };
  JfrThrottle throttle(jfr_throttle_params(150), scripted);
  EXPECT_EQ(window_of(throttle, 0, 2000, scripted), 30);
  EXPECT_EQ(used, 1u);
  EXPECT_EQ(throttle.active().interval, 2u);
  EXPECT_EQ(throttle.active().projected_population, 60u);
  std::vector<int> ordinals;
  EXPECT_EQ(window_of(throttle, 200 * kMs, 100, scripted, &ordinals), 30);
  std::vector<int> even;
  for (int j = 2; j <= 60; j += 2) even.push_back(j);
  EXPECT_EQ(ordinals, even);
  EXPECT_EQ(used, 2u);
  EXPECT_EQ(throttle.active().interval, 1u);
  EXPECT_DOUBLE_EQ(throttle.average_population(), 80.8);

  JfrThrottle truncating(jfr_throttle_params(150), no_uniform);
  EXPECT_EQ(window_of(truncating, 0, 774, no_uniform), 30);
  EXPECT_DOUBLE_EQ(truncating.average_population(), 30.96);
  EXPECT_EQ(truncating.active().interval, 1u);
  EXPECT_EQ(jfr_next_geometric(0.375, 0.5), 2u);
  EXPECT_EQ(jfr_next_geometric(0.375, 0.0), 1u);
}

// 150/s is a ceiling, and what it delivers at a steady event rate well above it.
// Events every 100 us (10^4/s): from the second window on, each window measures
// P = 1999 events (the one at its end opens the next) and lasts exactly 200 ms, so
// second s is windows 5s+1 .. 5s+5, one debt cycle. After a minute the EWMA sits at
// its fixed point (P(1 - 0.96^w) < P by less than 1: the projected population is
// P - 1, computed below with the JDK's own formula). In a window of n points,
// k = ceil(ln(1-u)/ln(1-p)) with p = n / (P - 1) (geometric: P(k <= K) = 1 - (1-p)^K,
// up to the 2^-26 grid of u), it accepts min(n, floor(P / k)), and its shortfall
// d = n - accepted makes the next window's n = 30 + d within the second. Exact in
// every second: at most 150 (the debt only moves the 5 x 30 points around). Mean:
// the dynamic programme over n, 144.58 a second; the simulation over 3000 seconds
// against it at 5 standard errors (seconds are independent: the debt resets).
double expected_samples_per_second(std::uint64_t population, std::uint64_t projected) {
  std::map<std::uint64_t, double> n_distribution = {{30, 1.0}};
  double expected = 0;
  for (int window = 0; window < 5; ++window) {
    std::map<std::uint64_t, double> next;
    for (const auto& [n, probability] : n_distribution) {
      auto add = [&](std::uint64_t k, double pk) {
        const std::uint64_t accepted = std::min(n, population / k);
        expected += probability * pk * static_cast<double>(accepted);
        next[30 + n - accepted] += probability * pk;
      };
      if (projected <= n) {
        add(1, 1.0);
        continue;
      }
      const double q = 1 - static_cast<double>(n) / static_cast<double>(projected);
      double below = 0;
      for (std::uint64_t k = 1; k <= population; ++k) {
        const double upto = 1 - std::pow(q, static_cast<double>(k));
        add(k, upto - below);
        below = upto;
      }
      add(population + 1, 1 - below);  // k > P: nothing accepted
    }
    n_distribution = std::move(next);
  }
  return expected;
}

TEST(JfrThrottle, SteadyRateDeliversTheDerivedMeanAndNeverMoreThan150) {
  constexpr std::uint64_t kSpacing = 100'000;  // ns
  constexpr int kWarmSeconds = 60, kSeconds = 3000;
  RandomStream lane({2811, 0, 0}, 0);
  auto uniform = [&] { return jfr_uniform_from_bits(lane.next_u64()); };
  JfrThrottle throttle(jfr_throttle_params(150), uniform);
  std::uint64_t t = 0;
  double sum = 0, sum_squares = 0;
  std::uint64_t most = 0;
  for (int second = 0; second < kWarmSeconds + kSeconds; ++second) {
    std::uint64_t accepted = 0;
    for (; t < static_cast<std::uint64_t>(second + 1) * 1000 * kMs; t += kSpacing) {
      accepted += throttle.sample(t, uniform) ? 1 : 0;
    }
    if (second < kWarmSeconds) continue;
    most = std::max(most, accepted);
    sum += static_cast<double>(accepted);
    sum_squares += static_cast<double>(accepted) * static_cast<double>(accepted);
  }
  EXPECT_EQ(throttle.rotations(), 1u + 5u * (kWarmSeconds + kSeconds) - 1u);  // the last window has not expired
  EXPECT_LE(most, 150u);
  double average = 0;  // the EWMA's fixed point, as the JDK computes it
  for (int w = 0; w < 5 * kWarmSeconds; ++w) average = 0.04 * 1999 + (1 - 0.04) * average;
  const double expected = expected_samples_per_second(1999, static_cast<std::uint64_t>(average));
  EXPECT_NEAR(expected, 144.58, 0.01);
  const double mean = sum / kSeconds;
  const double se = std::sqrt((sum_squares / kSeconds - mean * mean) / (kSeconds - 1));
  EXPECT_TRUE(within_sigmas(mean, expected, se));
  RecordProperty("samples_per_second", std::to_string(mean) + " se " + std::to_string(se));
}

// One thread, objects of 64 bytes, TLABs of 4672 bytes (usable 4672 + 64 - 576 =
// 4160: 65 objects each), so refill j happens at object 65 j; at 416000 bytes a
// second refill j is at t = 10 j ms: 100 refills a second, below the 150/s target.
// Refill 0 sees a = 0 (no event), refill 1 initializes L = 4160 (no event), refills
// 2..99 try. Windows: [0, 200 ms), then each from the expiring event: the tries at
// 200, 400, 600, 800 ms are rejected, all others accepted (<= 19 per window, k = 1).
// Weights: 4160 per TLAB since the previous accepted try (8320 after a rejection);
// they sum to 4160 (99 - 1): the thread's 416000 bytes less its first and last TLAB.
Trace constant_trace(std::size_t n) { return make_trace(std::vector<std::uint64_t>(n, 64)); }

std::vector<Observation> replay_jfr(const Trace& trace, const nlohmann::json& params, std::uint64_t seed = 1) {
  const auto run = make(params)->start(trace);
  std::vector<Observation> out;
  run->replay({seed, 0, 0}, out);
  return out;
}

TEST(JfrSampler, BelowTheTargetOneTryPerWindowIsLost) {
  const Trace trace = constant_trace(65 * 100);
  const auto out = replay_jfr(trace, {{"tlab", 4672}, {"tlab_max", 0}, {"alloc_rate", 416000}});
  std::vector<std::uint64_t> events;
  std::vector<double> weights;
  std::uint64_t previous = 1;
  for (std::uint64_t j = 2; j < 100; ++j) {
    if (j % 20 == 0) continue;
    events.push_back(65 * j);
    weights.push_back(4160.0 * static_cast<double>(j - previous));
    previous = j;
  }
  ASSERT_EQ(out.size(), events.size());
  EXPECT_EQ(out.size(), 94u);
  double sum = 0;
  for (std::size_t o = 0; o < out.size(); ++o) {
    EXPECT_EQ(out[o].event, events[o]);
    EXPECT_EQ(out[o].weight, weights[o]) << "event " << events[o];
    sum += out[o].weight;
  }
  EXPECT_EQ(sum, 416000.0 - 2 * 4160.0);
}

// Refills 250 ms apart (4 a second): every try finds the window expired, is rejected
// and opens a window that has expired again by the next: no event at all.
TEST(JfrSampler, SlowerThanAWindowNothingIsSampled) {
  const Trace trace = constant_trace(65 * 40);
  EXPECT_TRUE(replay_jfr(trace, {{"tlab", 4672}, {"tlab_max", 0}, {"alloc_rate", 16640}}).empty());
  // At 20 ms a refill the same thread gets every try but the expiring ones.
  EXPECT_FALSE(replay_jfr(trace, {{"tlab", 4672}, {"tlab_max", 0}, {"alloc_rate", 208000}}).empty());
}

// normalize_as_tlab_and_send_allocation_samples, by hand: TLAB 4672, max 4672 (an
// object above 4096 = E goes outside), the trace's clock in ms. Window ends: 200, then
// 200 ms after each expiring try.
//   i0 4096 @0     new TLAB, full; a = 0: L stays 0.
//   i1 4096 @1     new TLAB (a = 4096): L = 4096, initialization.
//   i2 12296 @250  refill fails: a = 4096 + 4096 + 12296 = 20488; a - L >= E: up to
//                  ceil(12296/4096) = 4 tries; try 1 expires W1 (W2 to 450, n = 60),
//                  try 2 accepted: weight 16392.
//   i3 5000 @700   outside, 2 tries: try 1 expires W2, try 2 accepted: 5000.
//   i4 4104 @1000  outside, 2 tries (4104 > E): same, 4104. (W4 to 1200)
//   i5 4096 @1100  new TLAB, a = L: no event.
//   i6 4096 @1400  new TLAB, a - L = 4096: one try, expires W4: lost.
//   i7 4000 @1450  new TLAB: accepted, 8192 (i5's and i6's TLABs).
//   i8 4096 @1500  free 96 > limit 73: outside with the TLAB kept, a - L = 4096 = E:
//                  one try, accepted: 4096.
//   i9 4000 @1550  free 96 <= limit 105: new TLAB, accepted: 4000 (i7's TLAB).
//   i10 200 @1560  free 96 > 73: outside, a - L = 200 < E: no try at all.
//   i11 4096 @1700 new TLAB, one try, expires W5: lost.
// The weights sum to a(i9) - a(i1) = 45880 - 4096 = 41784.
TEST(JfrSampler, OutsideTlabTriesAndWindowEdges) {
  Trace trace = make_trace({4096, 4096, 12296, 5000, 4104, 4096, 4096, 4000, 4096, 4000, 200, 4096});
  const std::vector<std::uint64_t> ms = {0, 1, 250, 700, 1000, 1100, 1400, 1450, 1500, 1550, 1560, 1700};
  for (std::size_t i = 0; i < ms.size(); ++i) trace.time.mutable_data()[i] = ms[i];
  const auto out = replay_jfr(trace, {{"tlab", 4672}, {"tlab_max", 4672}, {"clock", "trace"}, {"tick_ns", 1e6}});
  const std::vector<std::pair<std::uint64_t, double>> expected = {{2, 16392}, {3, 5000}, {4, 4104},
                                                                  {7, 8192},  {8, 4096}, {9, 4000}};
  ASSERT_EQ(out.size(), expected.size());
  double sum = 0;
  for (std::size_t o = 0; o < out.size(); ++o) {
    EXPECT_EQ(out[o].event, expected[o].first);
    EXPECT_EQ(out[o].weight, expected[o].second) << "event " << expected[o].first;
    sum += out[o].weight;
  }
  EXPECT_EQ(sum, 41784.0);
}

// Conservation on a busier trace (three threads, small objects, mid-sized ones that
// go outside with the TLAB kept, large ones past tlab_max), above the target: every
// weight is positive, at most one event per object, events in trace order, and each
// thread's weights sum to at most its bytes (exact inequalities: a only grows, and
// a never exceeds the thread's bytes).
TEST(JfrSampler, WeightsNeverExceedEachThreadsBytes) {
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint32_t> threads;
  for (std::uint64_t i = 0; i < 200000; ++i) {
    const std::uint64_t h = (i * 2654435761u) % 1000;
    sizes.push_back(h < 990 ? 16 + h % 200 : (h < 998 ? 6000 + h * 7 : 300000 + h));
    threads.push_back(static_cast<std::uint32_t>((i * 7 + i / 13) % 3));
  }
  const Trace trace = make_trace(sizes, threads);
  std::vector<double> bytes(3, 0), weights(3, 0);
  for (std::size_t i = 0; i < sizes.size(); ++i) bytes[threads[i]] += static_cast<double>(jvm_object_size(sizes[i]));
  const auto out = replay_jfr(trace, {{"tlab", 65536}, {"tlab_max", 131072}, {"alloc_rate", 64 << 20}}, 7);
  ASSERT_GT(out.size(), 100u);
  for (std::size_t o = 0; o < out.size(); ++o) {
    EXPECT_GT(out[o].weight, 0.0);
    if (o > 0) {
      EXPECT_LT(out[o - 1].event, out[o].event);
    }
    weights[threads[out[o].event]] += out[o].weight;
  }
  for (int t = 0; t < 3; ++t) EXPECT_LE(weights[t], bytes[t]) << "thread " << t;
}

}  // namespace
}  // namespace allocsim
