#pragma once
// Exact prefix sums of one stream of counted sizes in about 4 bytes per event:
// what skip-ahead replay searches (thread_index.h). value(k), the sum of sizes
// 0..k-1 for k = 0..n, is kept as a 64-bit base per block of kBlock values (the
// block's first value) plus a 32-bit offset from that base per value. A block whose
// offsets do not all fit in 32 bits (a size of 4 GiB or more, or several large ones
// together) keeps its kBlock values in 64 bits in a side table instead (the escape).
// The bases are the search's middle level; every kTopStride-th value is its top
// level, 1/1024 of the events (8 MB for 10^9): small enough to stay in cache.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace allocsim {

class CompactPrefix {
 public:
  static constexpr std::size_t kBlock = 64;
  // Blocks per top-level entry: a segment's bases fill two cache lines.
  static constexpr std::size_t kSegment = 16;
  static constexpr std::size_t kTopStride = kBlock * kSegment;
  // Blocks a search steps through one by one before it searches the segment.
  static constexpr std::size_t kNearBlocks = 3;

  // The prefix sums of n sizes, size(k) for k = 0..n-1, built in one pass (no
  // 64-bit array of n values on the way). The sum must fit in 64 bits
  // (kMaxTraceBytes, trace.h).
  template <class Size>
  CompactPrefix(std::size_t n, Size size) {
    reserve(n + 1);
    std::uint64_t sum = 0;
    for (std::size_t k = 0; k < n; ++k) {
      append(sum);
      sum += size(k);
    }
    append(sum);
  }

  // n, the number of sizes.
  std::size_t size() const { return offset_.size() - 1; }
  std::uint64_t value(std::size_t k) const {
    if (!wide_blocks_.empty()) [[unlikely]] {
      if (const std::uint64_t* wide = wide_block(k / kBlock)) return wide[k % kBlock];
    }
    return base_[k / kBlock] + offset_[k];
  }
  // For each x of the non-decreasing xs, the k with
  //   value(k) + add * k <= x < value(k + 1) + add * (k + 1),
  // searching forward from `from` (value(from) + add * from <= xs[0]); every x is
  // below value(n) + add * n. The search runs level by level across the whole
  // batch, each level's cache lines requested for every position before any is
  // read, so that the misses of different positions overlap.
  void find_sorted(std::span<const std::uint64_t> xs, std::size_t from, std::uint64_t add,
                   std::span<std::size_t> ks) const;

  // Bytes of every level and of the escaped blocks.
  std::size_t bytes() const;
  // Blocks kept in 64 bits.
  std::size_t wide_block_count() const { return wide_blocks_.size(); }

 private:
  void reserve(std::size_t values);
  void append(std::uint64_t value) {
    const std::size_t k = offset_.size();
    if (k % kBlock == 0) start_block(value);
    const std::uint64_t offset = value - base_.back();
    if (open_block_wide_ || offset > std::numeric_limits<std::uint32_t>::max()) [[unlikely]] {
      append_wide(value);
      return;
    }
    offset_.push_back(static_cast<std::uint32_t>(offset));
  }
  void start_block(std::uint64_t value);
  void append_wide(std::uint64_t value);
  // The kBlock 64-bit values of block b if it is escaped, else null.
  const std::uint64_t* wide_block(std::size_t b) const;
  // The last k of block b with value(k) + add * k <= x, given that the block's
  // first value satisfies it.
  std::size_t find_in_block(std::size_t b, std::uint64_t x, std::uint64_t add) const;

  std::vector<std::uint32_t> offset_;       // value(k) - base_[k / kBlock]; 0 in an escaped block
  std::vector<std::uint64_t> base_;         // base_[b] = value(b * kBlock)
  std::vector<std::uint64_t> top_;          // top_[m] = value(m * kTopStride)
  std::vector<std::size_t> wide_blocks_;    // the escaped blocks, increasing
  std::vector<std::uint64_t> wide_values_;  // kBlock values per escaped block, in the same order
  bool open_block_wide_ = false;            // while building: the last block is escaped
};

}  // namespace allocsim
