#include "allocsim/trace/compact_prefix.h"

#include <algorithm>

#include "allocsim/util/huge_pages.h"

namespace allocsim {
namespace {

// The last i in [lo, hi) with value(i) <= x, given value(lo) <= x: a binary search
// whose steps are conditional moves, not branches (the comparisons are
// unpredictable, and a mispredicted branch costs as much as a cached load).
template <class Value>
std::size_t last_not_above(std::size_t lo, std::size_t hi, std::uint64_t x, Value value) {
  std::size_t n = hi - lo;
  while (n > 1) {
    const std::size_t half = n / 2;
    lo = value(lo + half) <= x ? lo + half : lo;
    n -= half;
  }
  return lo;
}

// Requests the cache lines of values [first, last) of `values` without waiting.
template <class T>
void prefetch_range(const std::vector<T>& values, std::size_t first, std::size_t last) {
  constexpr std::size_t kLine = 64 / sizeof(T);
  const T* data = values.data();
  for (std::size_t i = first; i < last; i += kLine) __builtin_prefetch(data + i);
  __builtin_prefetch(data + last - 1);
}

template <class T>
std::size_t memory_bytes(const std::vector<T>& v) {
  return v.size() * sizeof(T);
}

}  // namespace

void CompactPrefix::reserve(std::size_t values) {
  offset_.reserve(values);
  advise_huge_pages(offset_.data(), values * sizeof(std::uint32_t));
  base_.reserve(values / kBlock + 1);
  top_.reserve(values / kTopStride + 1);
}

void CompactPrefix::start_block(std::uint64_t value) {
  if (offset_.size() % kTopStride == 0) top_.push_back(value);
  base_.push_back(value);
  open_block_wide_ = false;
}

void CompactPrefix::append_wide(std::uint64_t value) {
  const std::size_t k = offset_.size(), first = k - k % kBlock;
  if (!open_block_wide_) {
    // The block's earlier values fitted; they move to the side table with it.
    open_block_wide_ = true;
    wide_blocks_.push_back(k / kBlock);
    wide_values_.resize(wide_values_.size() + kBlock, 0);
    for (std::size_t i = first; i < k; ++i) {
      wide_values_[wide_values_.size() - kBlock + (i - first)] = base_.back() + offset_[i];
      offset_[i] = 0;
    }
  }
  wide_values_[wide_values_.size() - kBlock + (k - first)] = value;
  offset_.push_back(0);
}

const std::uint64_t* CompactPrefix::wide_block(std::size_t b) const {
  const auto it = std::lower_bound(wide_blocks_.begin(), wide_blocks_.end(), b);
  if (it == wide_blocks_.end() || *it != b) return nullptr;
  return wide_values_.data() + static_cast<std::size_t>(it - wide_blocks_.begin()) * kBlock;
}

std::size_t CompactPrefix::bytes() const {
  return memory_bytes(offset_) + memory_bytes(base_) + memory_bytes(top_) + memory_bytes(wide_blocks_) +
         memory_bytes(wide_values_);
}

[[gnu::always_inline]] inline std::size_t CompactPrefix::find_in_block(std::size_t b, std::uint64_t x,
                                                                       std::uint64_t add) const {
  const std::size_t first = b * kBlock, last = std::min(offset_.size(), first + kBlock);
  if (!wide_blocks_.empty()) [[unlikely]] {
    if (const std::uint64_t* wide = wide_block(b)) {
      return last_not_above(first, last, x, [&](std::size_t i) { return wide[i - first] + add * i; });
    }
  }
  // value(i) + add * i <= x  <=>  offset_[i] + add * (i - first) <= x - (value(first) + add * first),
  // whose right side is >= 0 by the precondition.
  const std::uint64_t room = x - (base_[b] + add * first);
  return last_not_above(first, last, room,
                        [&](std::size_t i) { return std::uint64_t{offset_[i]} + add * (i - first); });
}

void CompactPrefix::find_sorted(std::span<const std::uint64_t> xs, std::size_t from, std::uint64_t add,
                                std::span<std::size_t> ks) const {
  const std::uint64_t base_add = add * kBlock, top_add = add * kTopStride;
  // Top level (small, cached): the last m with top value <= x, walking forward
  // from the previous answer since the positions never decrease. The segment found
  // is then requested: bases [m * kSegment, m * kSegment + kSegment).
  std::size_t m = from / kTopStride;
  std::size_t previous = SIZE_MAX;
  for (std::size_t j = 0; j < xs.size(); ++j) {
    while (m + 1 < top_.size() && top_[m + 1] + top_add * (m + 1) <= xs[j]) ++m;
    ks[j] = m;
    if (m != previous) {
      prefetch_range(base_, m * kSegment, std::min(base_.size(), m * kSegment + kSegment));
      previous = m;
    }
  }
  // Bases: the block within the segment (kept from the previous position, or from
  // `from`, when the next block starts above x: near points share blocks); then
  // its offsets are requested.
  auto base_value = [&](std::size_t b) { return base_[b] + base_add * b; };
  std::size_t block = from / kBlock, prefetched = SIZE_MAX;
  for (std::size_t j = 0; j < xs.size(); ++j) {
    auto beyond = [&](std::size_t b) { return b + 1 < base_.size() && base_value(b + 1) <= xs[j]; };
    // Dense points land in the same block or the next few: step there; search
    // the rest of the segment only for a longer jump.
    for (std::size_t step = 0; step < kNearBlocks && beyond(block); ++step) ++block;
    if (beyond(block)) {
      const std::size_t segment = ks[j] * kSegment;
      block = last_not_above(std::max(block, segment), std::min(base_.size(), segment + kSegment), xs[j], base_value);
    }
    ks[j] = block;
    if (block != prefetched) {
      prefetch_range(offset_, block * kBlock, std::min(offset_.size(), block * kBlock + kBlock));
      prefetched = block;
    }
  }
  // Offsets: the event within the block (the next block's base is above x).
  for (std::size_t j = 0; j < xs.size(); ++j) ks[j] = find_in_block(ks[j], xs[j], add);
}

}  // namespace allocsim
