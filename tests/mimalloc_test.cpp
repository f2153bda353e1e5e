// mimalloc (sampler/systems/mimalloc/) and bun (sampler/systems/bun/): mimalloc's bins
// and mi_exp_sample by hand, the threshold law's mean against Monte Carlo, the
// page-refill batching's gap between samples against its closed form (batched and
// not), the min(old, new) countdown reset's interval and credit, and Bun's interval.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "allocsim/engine/scheme_replay.h"
#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/bun/bun.h"
#include "allocsim/sampler/systems/mimalloc/mimalloc.h"
#include "testing/statistical_assertions.h"
#include "testing/traces.h"

namespace allocsim {
namespace {

// Mean and standard error of the gaps (in allocations) between consecutive samples,
// and of the weights of the samples after the first, over `runs` replications.
struct GapStats {
  double gap_mean = 0, gap_se = 0, weight_mean = 0, weight_se = 0;
  std::size_t gaps = 0;
};

GapStats gap_stats(const Scheme& scheme, const Trace& trace, int runs, std::uint64_t seed) {
  SchemeReplay replay(scheme, trace);
  double g1 = 0, g2 = 0, w1 = 0, w2 = 0;
  std::size_t n = 0;
  for (int r = 0; r < runs; ++r) {
    replay.replay({seed, 1, static_cast<std::uint64_t>(r)});
    const auto& obs = replay.observations();
    for (std::size_t o = 1; o < obs.size(); ++o) {
      const double gap = static_cast<double>(obs[o].event - obs[o - 1].event);
      g1 += gap;
      g2 += gap * gap;
      w1 += obs[o].weight;
      w2 += obs[o].weight * obs[o].weight;
      ++n;
    }
  }
  GapStats stats;
  stats.gaps = n;
  const double dn = static_cast<double>(n);
  stats.gap_mean = g1 / dn;
  stats.gap_se = std::sqrt((g2 / dn - stats.gap_mean * stats.gap_mean) / dn);
  stats.weight_mean = w1 / dn;
  stats.weight_se = std::sqrt((w2 / dn - stats.weight_mean * stats.weight_mean) / dn);
  return stats;
}

// _mi_bin's block sizes: words, even words up to 8 words, then 4 bins per doubling.
TEST(MimallocBlockSize, BinsByHand) {
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> cases = {
      {0, 8},     {1, 8},     {8, 8},     {9, 16},    {16, 16},     {17, 32},     {32, 32},       {33, 48},
      {48, 48},   {49, 64},   {64, 64},   {65, 80},   {80, 80},     {81, 96},     {112, 112},     {113, 128},
      {128, 128}, {129, 160}, {160, 160}, {161, 192}, {1024, 1024}, {1025, 1280}, {32768, 32768}, {32769, 40960}};
  for (const auto& [s, b] : cases) EXPECT_EQ(mimalloc_block_size(s), b) << s;
  EXPECT_EQ(mimalloc_blocks_per_refill(64, kMimallocBatchBytes), 1024u);
  EXPECT_EQ(mimalloc_blocks_per_refill(40960, kMimallocBatchBytes), 1u);  // counted alone
}

// mi_exp_sample by hand: all ones (lz 0, frac 255) gives 255 * 177 >> 8 = 176, then
// 176 * 16384 >> 8 = 11264, + 1; r = 1 (lz 63) is capped at 32 T; r = 2^62 (lz 1,
// frac 0): 256 * 177 >> 8 = 177, 177 * 64 + 1 = 11329.
TEST(MimallocThreshold, ExpSampleByHand) {
  EXPECT_EQ(mimalloc_exp_sample(~std::uint64_t{0}, 16384), 11265u);
  EXPECT_EQ(mimalloc_exp_sample(0, 16384), 32u * 16384);
  EXPECT_EQ(mimalloc_exp_sample(1, 16384), 32u * 16384);
  EXPECT_EQ(mimalloc_exp_sample(std::uint64_t{1} << 62, 16384), 11329u);
  EXPECT_EQ(mimalloc_exp_sample(12345, 0), 0u);
}

// The law's mean (enumerated over lz and the 8 fraction bits) against 400000 draws
// from 64 random bits, within 5 standard errors (false alarm 5.7e-7); the mean is
// 1.5 * 177/256 ~ 1.037 of T up to the Q8 truncations (within 0.5 %).
TEST(MimallocThreshold, MeanOfTheLawAgainstMonteCarlo) {
  for (const std::uint64_t scale : {std::uint64_t{16384}, std::uint64_t{1000}}) {
    RandomStream stream({21, 1, scale}, 0);
    constexpr int kDraws = 400000;
    double sum = 0, sum_squares = 0;
    for (int k = 0; k < kDraws; ++k) {
      const auto x = static_cast<double>(mimalloc_exp_sample(stream.next_u64(), scale));
      sum += x;
      sum_squares += x * x;
    }
    const double mean = sum / kDraws;
    const double se = std::sqrt((sum_squares / kDraws - mean * mean) / kDraws);
    const double expected = mimalloc_mean_threshold(scale);
    EXPECT_TRUE(testing::within_sigmas(mean, expected, se)) << scale;
    EXPECT_NEAR(expected / static_cast<double>(scale), 1.5 * 177 / 256, 0.005) << scale;
  }
}

// Reset "new", every allocation of 64 bytes, one thread. Unbatched (batch 0) the
// sample after one at X bytes falls on allocation floor(X/64) + 1; batched (64 KiB:
// K = 1024 blocks a refill) on refill floor(X/(64 K)) + 1, K allocations apart. The
// mean gap over 300 runs of 200000 allocations against K (E floor(X/(K b)) + 1), within
// 5 standard errors (false alarm 5.7e-7 each): ~1044 allocations against ~266, a
// small site sampled ~4 times less often than its bytes would have it.
TEST(MimallocBatching, GapBetweenSamplesOfOneSizeClass) {
  const Trace trace = testing::make_trace(std::vector<std::uint64_t>(200000, 64));
  for (const std::uint64_t batch : {std::uint64_t{0}, kMimallocBatchBytes}) {
    const auto scheme =
        create_scheme("mimalloc", {{"rate", 16384}, {"batch", batch}, {"reset", "new"}, {"drawn_start", true}}, "$");
    const GapStats stats = gap_stats(*scheme, trace, 300, 31);
    const std::uint64_t k = batch == 0 ? 1 : mimalloc_blocks_per_refill(64, batch);
    const double expected = static_cast<double>(k) * (mimalloc_mean_floor(16384, 64 * k) + 1);
    ASSERT_GT(stats.gaps, 1000u);
    EXPECT_TRUE(testing::within_sigmas(stats.gap_mean, expected, stats.gap_se)) << "batch " << batch;
  }
  EXPECT_NEAR(1024 * (mimalloc_mean_floor(16384, 65536) + 1), 1044, 10);
  EXPECT_NEAR(mimalloc_mean_floor(16384, 64) + 1, 266, 2);
}

// Reset "min" (upstream), requests of 1 byte counted one by one: after a sample the
// countdown is min(X, X'), so the gap is min(X, X') + 1 allocations, while the credit
// counts from X': X' + 1 bytes. Bun's law (T = 1000): mean gap E[min] + 1 ~ T/2, mean
// credit E[X] + 1 ~ T, each within 5 standard errors over 200 runs (false alarm
// 5.7e-7 each): the credits sum to ~2 times the bytes.
TEST(MimallocReset, MinResetHalvesTheIntervalAndDoublesTheCredit) {
  const Trace trace = testing::make_trace(std::vector<std::uint64_t>(200000, 1));
  const auto scheme = create_scheme(
      "bun", {{"rate", 1000}, {"min_interval", 0}, {"batch", 0}, {"reset", "min"}, {"drawn_start", true}}, "$");
  const GapStats stats = gap_stats(*scheme, trace, 200, 41);
  EXPECT_TRUE(testing::within_sigmas(stats.gap_mean, bun_mean_min_interval(1000) + 1, stats.gap_se));
  EXPECT_TRUE(testing::within_sigmas(stats.weight_mean, bun_mean_interval(1000) + 1, stats.weight_se));
  EXPECT_NEAR(bun_mean_interval(1000), 999.5, 0.1);      // 1/(e^(1/T) - 1) + e^(-1/T) ~ T - 1/2 + 1 - 1
  EXPECT_NEAR(bun_mean_min_interval(1000), 499.5, 0.1);  // 1/(e^(2/T) - 1) + e^(-2/T) ~ T/2 - 1/2 + 1 - 1
}

// Reset "new": the credit of each sample after the first is exactly the bytes since
// the previous sample (1-byte requests: the gap), in every run.
TEST(MimallocReset, FreshResetCreditsExactlyTheBytesSinceTheLastSample) {
  const Trace trace = testing::make_trace(std::vector<std::uint64_t>(50000, 1));
  const auto scheme = create_scheme(
      "bun", {{"rate", 1000}, {"min_interval", 0}, {"batch", 0}, {"reset", "new"}, {"drawn_start", true}}, "$");
  SchemeReplay replay(*scheme, trace);
  for (std::uint64_t r = 0; r < 20; ++r) {
    replay.replay({43, 1, r});
    const auto& obs = replay.observations();
    ASSERT_GT(obs.size(), 10u);
    for (std::size_t o = 1; o < obs.size(); ++o)
      ASSERT_EQ(obs[o].weight, static_cast<double>(obs[o].event - obs[o - 1].event)) << o;
  }
}

// Bun's next_interval: clamp(trunc(-ln U T), 1, 16 T) by hand; its mean by the sum of
// P(X >= k) against 400000 draws, within 5 standard errors (false alarm 5.7e-7).
TEST(BunInterval, ClampAndMean) {
  EXPECT_EQ(bun_next_interval(1.0, 524288), 1u);                                   // -ln 1 = 0: at least 1
  EXPECT_EQ(bun_next_interval(std::exp(-2.5005), 1000), 2500u);                    // trunc(2500.5)
  EXPECT_EQ(bun_next_interval(std::exp(-20.0), 1000), 16000u);                     // capped at 16 T
  EXPECT_EQ(bun_next_interval(std::nextafter(std::exp(-0.0015), 0.0), 1000), 1u);  // trunc(1.5) = 1
  RandomStream stream({23, 1, 0}, 0);
  constexpr int kDraws = 400000;
  double sum = 0, sum_squares = 0;
  for (int k = 0; k < kDraws; ++k) {
    const auto x = static_cast<double>(bun_next_interval(stream.next_uniform(), 4096));
    sum += x;
    sum_squares += x * x;
  }
  const double mean = sum / kDraws;
  EXPECT_TRUE(
      testing::within_sigmas(mean, bun_mean_interval(4096), std::sqrt((sum_squares / kDraws - mean * mean) / kDraws)));
}

// An interval below MIN_SAMPLE_INTERVAL (64 KiB) is raised to it: 32 KiB samples exactly
// as 64 KiB does, run by run, unless the floor is lowered.
TEST(BunInterval, FloorOf64KiB) {
  const Trace trace = testing::make_trace(std::vector<std::uint64_t>(20000, 100));
  const auto low = create_scheme("bun", {{"rate", 32768}}, "$");
  const auto floor = create_scheme("bun", {{"rate", 65536}}, "$");
  const auto unfloored = create_scheme("bun", {{"rate", 32768}, {"min_interval", 0}}, "$");
  SchemeReplay a(*low, trace), b(*floor, trace), c(*unfloored, trace);
  double low_count = 0, unfloored_count = 0;
  for (std::uint64_t r = 0; r < 20; ++r) {
    a.replay({47, 1, r});
    b.replay({47, 1, r});
    c.replay({47, 1, r});
    ASSERT_EQ(a.observations().size(), b.observations().size()) << r;
    for (std::size_t o = 0; o < a.observations().size(); ++o)
      ASSERT_EQ(a.observations()[o].event, b.observations()[o].event) << r;
    low_count += static_cast<double>(a.observations().size());
    unfloored_count += static_cast<double>(c.observations().size());
  }
  EXPECT_GT(unfloored_count, low_count);  // 32 KiB unfloored samples about twice as often
}

}  // namespace
}  // namespace allocsim
