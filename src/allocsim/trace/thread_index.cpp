#include "allocsim/trace/thread_index.h"

#include <algorithm>

#include "allocsim/util/huge_pages.h"

namespace allocsim {

ThreadIndex::ThreadIndex(const Trace& trace) : prefix_(trace.thread_count), coarse_(trace.thread_count) {
  if (trace.thread_count > 1) {
    events_.resize(trace.thread_count);
    std::vector<std::size_t> counts(trace.thread_count, 0);
    for (std::uint32_t t : trace.thread) ++counts[t];
    for (std::uint32_t t = 0; t < trace.thread_count; ++t) resize_on_huge_pages(events_[t], counts[t]);
    std::fill(counts.begin(), counts.end(), 0);
    for (std::size_t i = 0; i < trace.size(); ++i) events_[trace.thread[i]][counts[trace.thread[i]]++] = i;
  }
  for (std::uint32_t t = 0; t < trace.thread_count; ++t) {
    const std::size_t n = events_.empty() ? trace.size() : events_[t].size();
    auto& prefix = prefix_[t];
    resize_on_huge_pages(prefix, n + 1);
    prefix[0] = 0;
    for (std::size_t k = 0; k < n; ++k) prefix[k + 1] = prefix[k] + trace.requested[event(t, k)];
    for (std::size_t k = 0; k < prefix.size(); k += kStride) coarse_[t].push_back(prefix[k]);
  }
}

namespace {

// The last i in [lo, hi) with value(i) <= x, given value(lo) <= x: a binary search
// whose steps are conditional moves, not branches (the comparisons are
// unpredictable, and a mispredicted branch costs as much as a cached load).
template <class Value, class Bound>
std::size_t last_not_above(std::size_t lo, std::size_t hi, Bound x, Value value) {
  std::size_t n = hi - lo;
  while (n > 1) {
    const std::size_t half = n / 2;
    lo = value(lo + half) <= x ? lo + half : lo;
    n -= half;
  }
  return lo;
}

// The last i in [from, n) with p[i] + step * i <= x, galloping from `from`
// (which satisfies it) to bracket it, then searching the bracket.
std::size_t gallop_integer(const std::uint64_t* p, std::size_t n, std::uint64_t step_add, std::uint64_t x,
                           std::size_t from) {
  auto value = [&](std::size_t i) { return p[i] + step_add * i; };
  std::size_t lo = from, step = 1;
  while (lo + step < n && value(lo + step) <= x) {
    lo += step;
    step *= 2;
  }
  return last_not_above(lo, std::min(n, lo + step), x, value);  // value(lo + step) > x, or past n
}

// The block of a prefix array a search ends in is far from the last one (skip-ahead
// jumps hundreds of events), so its cache lines all miss. Asking for all of them
// at once overlaps those misses instead of paying them one after another.
void prefetch_block(const std::uint64_t* first, const std::uint64_t* last) {
  constexpr std::size_t kLine = 64 / sizeof(std::uint64_t);
  for (const std::uint64_t* p = first; p < last; p += kLine) __builtin_prefetch(p);
  __builtin_prefetch(last - 1);
}

}  // namespace

// The prefix sums are integers, so prefix[k] <= x exactly when prefix[k] <= floor(x):
// the search compares integers only.
std::size_t ThreadIndex::find(std::uint32_t t, double x, std::size_t from) const {
  const auto bound = static_cast<std::uint64_t>(x);
  const auto& coarse = coarse_[t];
  const auto& prefix = prefix_[t];
  const std::size_t block = gallop_integer(coarse.data(), coarse.size(), 0, bound, from / kStride);
  const std::size_t first = std::max(from, block * kStride);
  const std::size_t last = std::min(prefix.size(), (block + 1) * kStride + 1);
  prefetch_block(prefix.data() + first, prefix.data() + last);
  return last_not_above(first, last, bound, [&](std::size_t i) { return prefix[i]; });
}

CountedStreams CountedStreams::requested(const ThreadIndex& index, std::uint64_t add) {
  CountedStreams s;
  s.threads_ = &index;
  s.add_ = add;
  for (std::uint32_t t = 0; t < index.thread_count(); ++t) {
    s.prefix_.push_back(index.requested_prefix(t));
    s.coarse_.push_back(index.requested_coarse(t));
  }
  return s;
}

void CountedStreams::finish_owned() {
  own_coarse_.resize(own_.size());
  for (std::size_t s = 0; s < own_.size(); ++s) {
    for (std::size_t k = 0; k < own_[s].size(); k += kStride) own_coarse_[s].push_back(own_[s][k]);
    prefix_.emplace_back(own_[s]);
    coarse_.emplace_back(own_coarse_[s]);
  }
}


std::size_t CountedStreams::find(std::uint32_t s, std::uint64_t x, std::size_t from) const {
  const auto coarse = coarse_[s];
  const auto prefix = prefix_[s];
  const std::size_t block = gallop_integer(coarse.data(), coarse.size(), add_ * kStride, x, from / kStride);
  const std::size_t first = std::max(from, block * kStride);
  const std::size_t last = std::min(prefix.size(), (block + 1) * kStride + 1);
  prefetch_block(prefix.data() + first, prefix.data() + last);
  // Positions are absolute, so the per-event addend applies to the fine array as is.
  return last_not_above(first, last, x, [&](std::size_t i) { return prefix[i] + add_ * i; });
}

}  // namespace allocsim
