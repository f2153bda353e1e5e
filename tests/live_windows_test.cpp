// Live heap at chosen moments: the snapshot rule, the high-water mark, and
// estimates of the live bytes at a time and at the peak.
#include <gtest/gtest.h>

#include <cmath>

#include "allocsim/stats/window.h"
#include "allocsim/trace/live_peak.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::find_row;
using testing::make_trace;
using testing::run_scenario_text;

// Times 0..4, sizes 10, 20, 30, 40, 50. Allocation 0 freed at 2, 1 freed at 4,
// 2 freed at 2 (same tick as 2's own allocation), 3 and 4 never.
Trace five_allocations() {
  Trace t = make_trace({10, 20, 30, 40, 50});
  t.free_time = {2, 4, 2, kNeverFreed, kNeverFreed};
  return t;
}

TEST(LiveWindow, SnapshotSeesEveryEventStampedAtOrBeforeIt) {
  const Trace t = five_allocations();
  const Window at2{Window::Kind::live_at, 2}, at4{Window::Kind::live_at, 4};
  // At 2: 0 and 2 are freed at 2 (gone), 1 is live, 3 and 4 not yet allocated.
  const bool expected2[] = {false, true, false, false, false};
  // At 4: 1 freed at 4, 3 and 4 live.
  const bool expected4[] = {false, false, false, true, true};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(at2.contains(t, i), expected2[i]) << i;
    EXPECT_EQ(at4.contains(t, i), expected4[i]) << i;
    EXPECT_EQ(Window{Window::Kind::live_at_end}.contains(t, i), i >= 3) << i;
    EXPECT_TRUE(Window{}.contains(t, i));
  }
  EXPECT_EQ(at2.estimator_prefix(), "live_at_2_");
  EXPECT_EQ(Window{Window::Kind::live_at_peak}.estimator_prefix(), "peak_");
}

// Live bytes after each tick: t0 10, t1 30, t2 20 (+30 -10 -30), t3 60, t4 90
// (+50 -20): the peak is 90 at time 4. Frees of a tick apply before the peak is
// compared, so the transient 60 within tick 2 is never a peak.
TEST(LivePeak, EarliestMaximumOfLiveBytes) {
  const LivePeak peak = live_peak(five_allocations());
  EXPECT_EQ(peak.time, 4u);
  EXPECT_EQ(peak.bytes, 90u);
  Trace rising_then_falling = make_trace({100, 1, 1});
  rising_then_falling.free_time = {1, kNeverFreed, kNeverFreed};
  EXPECT_EQ(live_peak(rising_then_falling).time, 0u);
  EXPECT_EQ(live_peak(rising_then_falling).bytes, 100u);
  EXPECT_EQ(live_peak(Trace{}).bytes, 0u);
}

// A Poisson sampler of rate T is unbiased in every window with variance
// T * (live bytes) at a moment as for the whole trace (a Poisson process on bytes: each byte
// sampled independently); the live window's truth is the exact live sum.
TEST(LiveWindow, PoissonEstimatesLiveBytesAtAMomentAndAtThePeak) {
  const std::string json = R"({"name": "t", "seed": 3, "replications": 3000,
    "trace": {"allocations": 4000, "threads": 2, "seed": 11,
              "sizes": {"distribution": "log_uniform", "min": 16, "max": 65536},
              "lifetime": {"distribution": "exponential", "mean": 800}},
    "schemes": [{"scheme": "poisson", "rate": 65536}],
    "windows": ["allocated", "live_at_end", "live_at_peak", {"live_at": 1000}]})";
  const auto result = run_scenario_text(json, 2);
  // The trace fixes its own seed, so it can be rebuilt here for the exact truths.
  const Trace trace = load_trace(parse_scenario(json, "t").points[0].trace, 0);
  double live_at_1000 = 0;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (trace.time[i] <= 1000 && trace.free_time[i] > 1000) live_at_1000 += static_cast<double>(trace.requested[i]);
  }
  const Metrics& at = find_row(result, "poisson", "live_at_1000_bytes");
  const Metrics& peak = find_row(result, "poisson", "peak_bytes");
  const Metrics& all = find_row(result, "poisson", "bytes");
  EXPECT_EQ(at.truth, live_at_1000);
  EXPECT_EQ(peak.truth, static_cast<double>(live_peak(trace).bytes));
  EXPECT_GT(peak.truth, at.truth);
  EXPECT_LT(peak.truth, all.truth);
  for (const Metrics* m : {&at, &peak, &all}) {
    EXPECT_TRUE(testing::matches_closed_form(*m->theory.var, 65536.0 * m->truth, 1e-6));
    // kSigmas standard errors of the mean estimate, sqrt(T * truth / R).
    EXPECT_TRUE(testing::within_sigmas(m->bias, 0.0, testing::mean_standard_error(65536.0 * m->truth, 3000)));
    EXPECT_TRUE(testing::within_sigmas(m->var, *m->theory.var, m->se_var));
  }
}

}  // namespace
}  // namespace allocsim
