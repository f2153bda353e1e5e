// memleak (sampler/systems/memleak/): the kept fraction gcd(g, N)/N worked by hand,
// the lattice cases that keep everything or a fixed share in every run, the Monte
// Carlo kept count against that closed form with and without jitter, and the
// outstanding (live_) estimate through the engine.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "allocsim/engine/scheme_replay.h"
#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/memleak/memleak.h"
#include "testing/scenarios.h"
#include "testing/statistical_assertions.h"
#include "testing/traces.h"

namespace allocsim {
namespace {

std::unique_ptr<Scheme> memleak(std::uint64_t every, std::uint64_t granularity, std::uint64_t jitter = 0) {
  return create_scheme("memleak", {{"rate", every}, {"clock_granularity_ns", granularity}, {"clock_jitter_ns", jitter}},
                       "$");
}

// gcd(1000, 1024) = 8, gcd(100, 1024) = 4, gcd(1000, 1000) = 1000, gcd(1, N) = 1.
TEST(MemleakKeptFraction, GcdOverNByHand) {
  EXPECT_EQ(memleak_kept_fraction(1000, 1024), 8.0 / 1024);
  EXPECT_EQ(memleak_kept_fraction(100, 1024), 4.0 / 1024);
  EXPECT_EQ(memleak_kept_fraction(1000, 1000), 1.0);
  EXPECT_EQ(memleak_kept_fraction(1000, 250), 1.0);
  EXPECT_EQ(memleak_kept_fraction(100, 1250), 50.0 / 1250);
  EXPECT_EQ(memleak_kept_fraction(1, 1024), 1.0 / 1024);
  EXPECT_EQ(memleak_kept_fraction(7, 1), 1.0);
  EXPECT_EQ(memleak_clock_period(1000, 1024), 128000u);
  EXPECT_EQ(memleak_clock_period(100, 1000), 1000u);
}

// Lemire's bounded draw covers {0 .. bound - 1} evenly: 6 values, 60000 draws, each
// count within 5 binomial standard errors of 10000 (false alarm 5.7e-7 each).
TEST(MemleakKeptFraction, UniformDrawBelowABound) {
  RandomStream stream({5, 1, 0}, 0);
  std::vector<double> counts(6, 0);
  for (int k = 0; k < 60000; ++k) {
    const std::uint64_t x = memleak_uniform_below(stream, 6);
    ASSERT_LT(x, 6u);
    counts[x] += 1;
  }
  for (const double c : counts) EXPECT_TRUE(testing::binomial_count_within_sigmas(c, 60000, 1.0 / 6));
}

// A clock whose period is a multiple of N keeps every allocation in every run, and
// N <= 1 keeps everything whatever the clock: exact.
TEST(MemleakKeptFraction, PeriodAMultipleOfNKeepsEverything) {
  const Trace trace = testing::make_trace(std::vector<std::uint64_t>(500, 64));
  for (const auto& [every, granularity] :
       {std::pair<std::uint64_t, std::uint64_t>{1000, 1000}, {250, 1000}, {100, 100}, {1, 1}, {1, 1000}}) {
    const auto scheme = memleak(every, granularity, 37);
    SchemeReplay replay(*scheme, trace);
    for (std::uint64_t r = 0; r < 20; ++r) {
      replay.replay({3, 1, r});
      EXPECT_EQ(replay.observations().size(), trace.size()) << "N " << every << ", g " << granularity;
    }
  }
}

// Allocations L = lcm(g, N) ns apart read the same residue: a run keeps all of them
// or none, all with probability gcd(g, N)/N. 2000 runs, the runs that keep all
// within 5 binomial standard errors (false alarm 5.7e-7 per case); every run exact.
TEST(MemleakKeptFraction, AllocationsOnePeriodApartShareTheirFate) {
  for (const auto& [every, granularity] : {std::pair<std::uint64_t, std::uint64_t>{1024, 1000}, {1024, 100}, {40, 1}}) {
    const std::uint64_t period = memleak_clock_period(granularity, every);
    // At 1e9 bytes a second, s = L bytes take L ns.
    const Trace trace = testing::make_trace(std::vector<std::uint64_t>(50, period));
    const auto scheme = create_scheme(
        "memleak", {{"rate", every}, {"clock_granularity_ns", granularity}, {"alloc_rate", 1'000'000'000}}, "$");
    SchemeReplay replay(*scheme, trace);
    double all = 0;
    constexpr int kRuns = 2000;
    for (int r = 0; r < kRuns; ++r) {
      replay.replay({9, 2, static_cast<std::uint64_t>(r)});
      const std::size_t kept = replay.observations().size();
      ASSERT_TRUE(kept == 0 || kept == trace.size()) << kept;
      all += kept == trace.size() ? 1 : 0;
    }
    EXPECT_TRUE(testing::binomial_count_within_sigmas(all, kRuns, memleak_kept_fraction(granularity, every)))
        << "N " << every << ", g " << granularity;
  }
}

// The mean kept count over R runs against n gcd(g, N)/N, within 5 standard errors of
// the runs' own spread (false alarm 5.7e-7 per case): without jitter (evenly paced
// allocations, the phase alone random) and with 50 us of jitter.
TEST(MemleakKeptFraction, MeanKeptCountIsGcdOverNOfTheAllocations) {
  const Trace trace = testing::make_trace(std::vector<std::uint64_t>(4000, 64));
  for (const std::uint64_t jitter : {std::uint64_t{0}, std::uint64_t{50000}}) {
    for (const auto& [every, granularity] :
         {std::pair<std::uint64_t, std::uint64_t>{1024, 1000}, {1000, 100}, {1024, 100}, {100, 1}, {97, 1000}}) {
      const auto scheme = memleak(every, granularity, jitter);
      SchemeReplay replay(*scheme, trace);
      constexpr int kRuns = 3000;
      double sum = 0, sum_squares = 0;
      for (int r = 0; r < kRuns; ++r) {
        replay.replay({11, 4, static_cast<std::uint64_t>(r)});
        const auto kept = static_cast<double>(replay.observations().size());
        sum += kept;
        sum_squares += kept * kept;
      }
      const double mean = sum / kRuns, variance = sum_squares / kRuns - mean * mean;
      ASSERT_GT(variance, 0) << "N " << every << ", g " << granularity;
      const double expected = static_cast<double>(trace.size()) * memleak_kept_fraction(granularity, every);
      EXPECT_TRUE(testing::within_sigmas(mean, expected, std::sqrt(variance / kRuns)))
          << "N " << every << ", g " << granularity << ", jitter " << jitter;
    }
  }
}

// Outstanding allocations (live_) are kept at the same rate, and the estimators are
// what memleak prints (raw) and N times that: on 20000 allocations with exponential
// lifetimes (mean 20000 events: about 37 % freed), g = 1000 and N = 1024, the raw
// live count is 8/1024 of the live ones and the scaled one 8 times the truth, each
// within 5 standard errors (false alarm 5.7e-7 each); bytes = N bytes_raw and
// bytes_raw = 64 count_raw (all sizes 64) up to rounding.
TEST(MemleakOutstanding, LiveWindowKeptAtGcdOverN) {
  const std::string scenario = R"({
    "name": "memleak-live", "seed": 4, "replications": 400,
    "trace": {"allocations": 20000, "sizes": {"distribution": "constant", "size": 64},
              "lifetime": {"distribution": "exponential", "mean": 20000}},
    "schemes": [{"scheme": "memleak", "rate": 1024, "clock_granularity_ns": 1000, "clock_jitter_ns": 200000}],
    "windows": ["allocated", "live_at_end"]})";
  const ScenarioResult result = testing::run_scenario_text(scenario);
  const Metrics& raw = testing::find_row(result, "memleak", "live_count_raw");
  const Metrics& all = testing::find_row(result, "memleak", "count_raw");
  ASSERT_GT(raw.truth, 0);
  ASSERT_LT(raw.truth, all.truth);
  EXPECT_TRUE(testing::within_sigmas(raw.mean, raw.truth * 8 / 1024, raw.se_bias));
  const Metrics& scaled = testing::find_row(result, "memleak", "live_count");
  EXPECT_TRUE(testing::within_sigmas(scaled.mean, scaled.truth * 8, scaled.se_bias));
  const Metrics& bytes = testing::find_row(result, "memleak", "live_bytes");
  const Metrics& bytes_raw = testing::find_row(result, "memleak", "live_bytes_raw");
  EXPECT_TRUE(testing::matches_closed_form(bytes.mean, 1024 * bytes_raw.mean, 1e-12));
  EXPECT_TRUE(testing::matches_closed_form(bytes_raw.mean, 64 * raw.mean, 1e-12));
}

}  // namespace
}  // namespace allocsim
