// The compact skip-ahead index (compact_prefix.h, event_list.h, thread_index.h)
// answers exactly as plain 64-bit prefix sums do: every value, every search, with
// escaped blocks (a size of 4 GiB or more, many large sizes in one block, the
// 2^32 boundary), several threads, a per-event addend, and its reported size.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "allocsim/trace/compact_prefix.h"
#include "allocsim/trace/event_list.h"
#include "allocsim/trace/thread_index.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::make_trace;

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

// sizes with zeros, small ones, runs of 100 MB ones (43 of them overflow a block's
// 32-bit offsets) and single sizes of 4 to 16 GiB.
std::vector<std::uint64_t> random_sizes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> sizes;
  while (sizes.size() < n) {
    const std::uint64_t kind = rng() % 1000;
    if (kind < 100) {
      sizes.push_back(0);
    } else if (kind < 990) {
      sizes.push_back(1 + rng() % 300);
    } else if (kind < 996) {
      for (std::uint64_t run = 0, length = 40 + rng() % 30; run < length && sizes.size() < n; ++run) {
        sizes.push_back(100'000'000);
      }
    } else {
      sizes.push_back(4 * kGiB + rng() % (12 * kGiB));
    }
  }
  return sizes;
}

std::vector<std::uint64_t> reference_prefix(const std::vector<std::uint64_t>& sizes) {
  std::vector<std::uint64_t> prefix(sizes.size() + 1, 0);
  for (std::size_t k = 0; k < sizes.size(); ++k) prefix[k + 1] = prefix[k] + sizes[k];
  return prefix;
}

// The k with prefix[k] + add k <= x < prefix[k + 1] + add (k + 1).
std::size_t reference_find(const std::vector<std::uint64_t>& prefix, std::uint64_t add, std::uint64_t x) {
  std::size_t lo = 0, hi = prefix.size() - 1;  // the last k with value(k) <= x
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo + 1) / 2;
    if (prefix[mid] + add * mid <= x) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// Non-decreasing positions below `end`, repeats and long jumps included.
std::vector<std::uint64_t> sorted_positions(std::uint64_t end, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> xs;
  for (std::size_t j = 0; j < count; ++j) xs.push_back(rng() % end);
  xs.push_back(0);
  xs.push_back(end - 1);
  std::sort(xs.begin(), xs.end());
  for (std::size_t j = 1; j < xs.size(); j += 17) xs[j] = xs[j - 1];  // repeats
  return xs;
}

// Searches xs in batches of varying length, each from the previous answer, and
// compares every answer with the reference.
void expect_searches_match(const CompactPrefix& prefix, const std::vector<std::uint64_t>& reference, std::uint64_t add,
                           std::uint64_t seed) {
  const std::size_t n = reference.size() - 1;
  const std::uint64_t end = reference[n] + add * n;
  const std::vector<std::uint64_t> xs = sorted_positions(end, 3000, seed);
  std::vector<std::size_t> ks(xs.size());
  std::size_t from = 0;
  for (std::size_t j = 0, length = 1; j < xs.size(); j += length, length = length % 70 + 3) {
    const std::size_t m = std::min(length, xs.size() - j);
    prefix.find_sorted(std::span<const std::uint64_t>(xs).subspan(j, m), from, add,
                       std::span<std::size_t>(ks).subspan(j, m));
    from = ks[j + m - 1];
  }
  for (std::size_t j = 0; j < xs.size(); ++j) {
    ASSERT_EQ(ks[j], reference_find(reference, add, xs[j])) << "add " << add << " x " << xs[j];
  }
}

TEST(CompactPrefix, ValuesAndSearchesMatchPlainPrefixSums) {
  for (const std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{20000}}) {
    SCOPED_TRACE(n);
    const std::vector<std::uint64_t> sizes = random_sizes(n, 11 + n);
    const std::vector<std::uint64_t> reference = reference_prefix(sizes);
    const CompactPrefix prefix(n, [&](std::size_t k) { return sizes[k]; });
    ASSERT_EQ(prefix.size(), n);
    for (std::size_t k = 0; k <= n; ++k) ASSERT_EQ(prefix.value(k), reference[k]) << k;
    if (n == 20000) {
      // Both kinds of escape occur, and most blocks stay narrow.
      EXPECT_GT(prefix.wide_block_count(), 10u);
      EXPECT_LT(prefix.wide_block_count(), n / CompactPrefix::kBlock / 2);
      EXPECT_GT(n / CompactPrefix::kTopStride, 3u);  // several top-level segments
    }
    if (reference[n] == 0) continue;  // no position to search
    for (const std::uint64_t add : {0u, 1u, 7u}) expect_searches_match(prefix, reference, add, n + add);
  }
}

// A block's offsets escape exactly when one exceeds 2^32 - 1, at any place in
// the block (its earlier values move to the side table with it).
TEST(CompactPrefix, EscapesAtThe32BitBoundary) {
  constexpr std::uint64_t kMax32 = 0xffffffffu;
  struct Case {
    std::vector<std::uint64_t> sizes;
    std::size_t wide_blocks;
  };
  std::vector<std::uint64_t> fits(64, 0), escapes_late(64, 1), second_block(130, 2);
  fits[0] = kMax32;           // block 0's offsets reach 2^32 - 1; block 1 starts at it
  escapes_late[62] = kMax32;  // offset of value 63 = 62 + 2^32 - 1
  second_block[100] = 5 * kGiB;
  const std::vector<Case> cases = {{fits, 0},
                                   {{kMax32, 1}, 1},
                                   {escapes_late, 1},
                                   {second_block, 1},
                                   {std::vector<std::uint64_t>(200, 2 * kGiB), 4}};
  for (const Case& c : cases) {
    const std::vector<std::uint64_t> reference = reference_prefix(c.sizes);
    const CompactPrefix prefix(c.sizes.size(), [&](std::size_t k) { return c.sizes[k]; });
    EXPECT_EQ(prefix.wide_block_count(), c.wide_blocks);
    for (std::size_t k = 0; k < reference.size(); ++k) ASSERT_EQ(prefix.value(k), reference[k]) << k;
    for (const std::uint64_t add : {0u, 3u}) expect_searches_match(prefix, reference, add, add);
  }
}

// The size reported: 4 bytes per value, 8 per block and per top-level entry, and
// an escaped block's 64 values of 8 bytes plus its number.
TEST(CompactPrefix, BytesReported) {
  auto levels = [](double values) {
    return 4 * values + 8 * std::ceil(values / CompactPrefix::kBlock) +
           8 * std::ceil(values / CompactPrefix::kTopStride);
  };
  const CompactPrefix narrow(30000, [](std::size_t k) { return k % 300; });
  EXPECT_EQ(narrow.wide_block_count(), 0u);
  EXPECT_DOUBLE_EQ(static_cast<double>(narrow.bytes()), levels(30001));
  std::vector<std::uint64_t> sizes(30000, 5);
  sizes[1000] = 8 * kGiB;
  const CompactPrefix escaped(30000, [&](std::size_t k) { return sizes[k]; });
  EXPECT_EQ(escaped.wide_block_count(), 1u);
  EXPECT_DOUBLE_EQ(static_cast<double>(escaped.bytes()), levels(30001) + 8 + 64 * 8);
}

TEST(EventList, NarrowAndWideHoldTheSameIndices) {
  EXPECT_FALSE(EventList::needs_wide(std::uint64_t{1} << 32));  // indices up to 2^32 - 1
  EXPECT_TRUE(EventList::needs_wide((std::uint64_t{1} << 32) + 1));
  EventList narrow(1000, false), wide(1000, true);
  for (std::size_t k = 0; k < 1000; ++k) {
    narrow.set(k, 0xffffffffu - 3 * k);
    wide.set(k, (std::uint64_t{5} << 32) + k);
  }
  EXPECT_EQ(narrow.bytes(), 4000u);
  EXPECT_EQ(wide.bytes(), 8000u);
  for (std::size_t k = 0; k < 1000; ++k) {
    ASSERT_EQ(narrow[k], 0xffffffffu - 3 * k);
    ASSERT_EQ(wide[k], (std::uint64_t{5} << 32) + k);
  }
}

// A multi-threaded trace whose sizes include 4 GiB and more (the trace column's
// own escape): each thread's events, sums and searches, with an addend, match
// sums built from the trace directly; a counted size the streams own and the
// whole-trace stream match too. The index takes 4 bytes per event for the event
// lists plus its levels.
TEST(ThreadIndex, MultiThreadWideSizesMatchPlainPrefixSums) {
  const std::size_t n = 12000;
  const std::vector<std::uint64_t> sizes = random_sizes(n, 5);
  std::vector<std::uint32_t> threads(n);
  std::mt19937_64 rng(9);
  for (auto& t : threads) t = static_cast<std::uint32_t>(rng() % 3);
  const Trace trace = make_trace(sizes, threads);
  const ThreadIndex index(trace);
  ASSERT_EQ(index.thread_count(), 3u);
  const CountedStreams doubled = CountedStreams::per_thread(index, [&](std::uint64_t i) { return 2 * sizes[i]; });
  double expected_bytes = 4.0 * n;
  std::size_t wide_blocks = 0;
  for (std::uint32_t t = 0; t < 3; ++t) {
    SCOPED_TRACE(t);
    std::vector<std::uint64_t> own, own_doubled;
    for (std::size_t i = 0; i < n; ++i) {
      if (threads[i] != t) continue;
      ASSERT_EQ(index.event(t, own.size()), i);
      own.push_back(sizes[i]);
      own_doubled.push_back(2 * sizes[i]);
    }
    ASSERT_EQ(index.size(t), own.size());
    const std::vector<std::uint64_t> reference = reference_prefix(own);
    const CompactPrefix& prefix = index.requested(t);
    wide_blocks += prefix.wide_block_count();
    expected_bytes += static_cast<double>(prefix.bytes());
    for (const std::uint64_t add : {0u, 1u}) {
      const CountedStreams streams = CountedStreams::requested(index, add);
      for (std::size_t k = 0; k <= own.size(); ++k) ASSERT_EQ(streams.at(t, k), reference[k] + add * k);
      expect_searches_match(prefix, reference, add, t);
    }
    const std::vector<std::uint64_t> doubled_reference = reference_prefix(own_doubled);
    for (std::size_t k = 0; k <= own.size(); ++k) ASSERT_EQ(doubled.at(t, k), doubled_reference[k]);
    const std::uint64_t x = doubled_reference.back() / 3;
    EXPECT_EQ(doubled.find(t, x, 0), reference_find(doubled_reference, 0, x));
  }
  EXPECT_GT(wide_blocks, 0u);
  EXPECT_DOUBLE_EQ(index.bytes_per_event(), expected_bytes / n);
  const CountedStreams whole = CountedStreams::whole_trace(n, [&](std::uint64_t i) { return sizes[i]; });
  const std::vector<std::uint64_t> reference = reference_prefix(sizes);
  for (std::size_t k = 0; k <= n; ++k) ASSERT_EQ(whole.at(0, k), reference[k]);
  const std::uint64_t x = reference.back() - 1;
  EXPECT_EQ(whole.find(0, x, 0), reference_find(reference, 0, x));
}

}  // namespace
}  // namespace allocsim
