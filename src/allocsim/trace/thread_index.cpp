#include "allocsim/trace/thread_index.h"

#include <algorithm>

#include "allocsim/util/huge_pages.h"

namespace allocsim {
namespace {

// Every stride-th entry of `values`.
std::vector<std::uint64_t> every(std::span<const std::uint64_t> values, std::size_t stride) {
  std::vector<std::uint64_t> sampled;
  sampled.reserve(values.size() / stride + 1);
  for (std::size_t k = 0; k < values.size(); k += stride) sampled.push_back(values[k]);
  return sampled;
}

template <class Vectors>
std::size_t bytes_of(const Vectors& vectors) {
  std::size_t bytes = 0;
  for (const auto& v : vectors) bytes += v.size() * sizeof(v[0]);
  return bytes;
}

}  // namespace

ThreadIndex::ThreadIndex(const Trace& trace) : prefix_(trace.thread_count) {
  if (trace.thread_count > 1) {
    events_.resize(trace.thread_count);
    std::vector<std::size_t> counts(trace.thread_count, 0);
    for (std::size_t i = 0; i < trace.size(); ++i) ++counts[trace.thread[i]];
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
    coarse_.push_back(every(prefix, kStride));
    top_.push_back(every(prefix, kTopStride));
  }
}

double ThreadIndex::bytes_per_event() const {
  std::size_t events = 0;
  for (std::uint32_t t = 0; t < thread_count(); ++t) events += size(t);
  const std::size_t bytes = bytes_of(events_) + bytes_of(prefix_) + bytes_of(coarse_) + bytes_of(top_);
  return events == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(events);
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

// Requests the cache lines of [first, last) without waiting for them.
void prefetch_range(const std::uint64_t* first, const std::uint64_t* last) {
  constexpr std::size_t kLine = 64 / sizeof(std::uint64_t);
  for (const std::uint64_t* p = first; p < last; p += kLine) __builtin_prefetch(p);
  __builtin_prefetch(last - 1);
}

// One stream's prefix sums and their two sparser levels, each value plus `add`
// per event before it: value(i) = fine[i] + add * i.
struct Levels {
  std::span<const std::uint64_t> fine, coarse, top;
  std::uint64_t add;
};

// The three-level search of find_sorted (thread_index.h). Positions are processed
// in batches; a level's lines are requested for the whole batch before the level
// is searched, so its misses overlap instead of following one another.
void find_sorted_in(const Levels& l, std::span<const std::uint64_t> xs, std::size_t from,
                    std::span<std::size_t> ks) {
  constexpr std::size_t S = ThreadIndex::kStride, kTop = ThreadIndex::kTopStride;
  const std::uint64_t coarse_add = l.add * S, top_add = l.add * kTop;
  // Top level (small, cached): the last m with top value <= x, walking forward
  // from the previous answer since the positions never decrease. The segment found
  // is then requested: coarse entries [m*S, m*S + S).
  std::size_t m = from / kTop;
  std::size_t previous = SIZE_MAX;
  for (std::size_t j = 0; j < xs.size(); ++j) {
    while (m + 1 < l.top.size() && l.top[m + 1] + top_add * (m + 1) <= xs[j]) ++m;
    ks[j] = m;
    if (m != previous) {
      const std::size_t first = m * S, last = std::min(l.coarse.size(), first + S);
      prefetch_range(l.coarse.data() + first, l.coarse.data() + last);
      previous = m;
    }
  }
  // Coarse level: the block within the segment (kept from the previous position,
  // or from `from`, when the next block starts above x: near points share blocks);
  // then its prefix sums are requested.
  auto coarse_value = [&](std::size_t i) { return l.coarse[i] + coarse_add * i; };
  std::size_t block = from / S, prefetched = SIZE_MAX;
  for (std::size_t j = 0; j < xs.size(); ++j) {
    if (block + 1 < l.coarse.size() && coarse_value(block + 1) <= xs[j]) {
      const std::size_t first = ks[j] * S, last = std::min(l.coarse.size(), first + S);
      block = last_not_above(first, last, xs[j], coarse_value);
    }
    ks[j] = block;
    if (block != prefetched) {
      const std::size_t lo = block * S, hi = std::min(l.fine.size(), lo + S);
      prefetch_range(l.fine.data() + lo, l.fine.data() + hi);
      prefetched = block;
    }
  }
  // Fine level: the event within the block (the next block's first sum is above x).
  for (std::size_t j = 0; j < xs.size(); ++j) {
    const std::size_t first = ks[j] * S, last = std::min(l.fine.size(), first + S);
    ks[j] = last_not_above(first, last, xs[j], [&](std::size_t i) { return l.fine[i] + l.add * i; });
  }
}

}  // namespace

CountedStreams CountedStreams::requested(const ThreadIndex& index, std::uint64_t add) {
  CountedStreams s;
  s.threads_ = &index;
  s.add_ = add;
  for (std::uint32_t t = 0; t < index.thread_count(); ++t) {
    s.prefix_.push_back(index.requested_prefix(t));
    s.coarse_.push_back(index.requested_coarse(t));
    s.top_.push_back(index.requested_top(t));
  }
  return s;
}

void CountedStreams::finish_owned() {
  for (const auto& prefix : own_) {
    own_coarse_.push_back(every(prefix, kStride));
    own_top_.push_back(every(prefix, kTopStride));
  }
  for (std::size_t s = 0; s < own_.size(); ++s) {
    prefix_.emplace_back(own_[s]);
    coarse_.emplace_back(own_coarse_[s]);
    top_.emplace_back(own_top_[s]);
  }
}

double CountedStreams::owned_bytes_per_event() const {
  std::size_t events = 0;
  for (std::uint32_t s = 0; s < stream_count(); ++s) events += size(s);
  const std::size_t bytes = bytes_of(own_) + bytes_of(own_coarse_) + bytes_of(own_top_);
  return events == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(events);
}

std::size_t CountedStreams::find(std::uint32_t s, std::uint64_t x, std::size_t from) const {
  std::size_t k = 0;
  find_sorted(s, {&x, 1}, from, {&k, 1});
  return k;
}

void CountedStreams::find_sorted(std::uint32_t s, std::span<const std::uint64_t> xs, std::size_t from,
                                 std::span<std::size_t> ks) const {
  find_sorted_in({prefix_[s], coarse_[s], top_[s], add_}, xs, from, ks);
  // The caller reads event(s, k) of each answer next; in a per-thread stream that
  // is a cold list, so its lines are requested for the whole batch first.
  if (threads_ != nullptr) {
    for (const std::size_t k : ks) threads_->prefetch_event(s, k);
  }
}

}  // namespace allocsim
