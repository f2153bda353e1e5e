#pragma once
// The events of each traced thread in order, with prefix sums of their requested
// sizes: what skip-ahead replay searches. Built once per trace and shared by every
// scheme and worker. A single-threaded trace stores no event lists (event k of
// thread 0 is event k).
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/trace/trace.h"
#include "allocsim/util/huge_pages.h"

namespace allocsim {

class ThreadIndex {
 public:
  explicit ThreadIndex(const Trace& trace);

  std::uint32_t thread_count() const { return static_cast<std::uint32_t>(prefix_.size()); }
  // Number of events of thread t.
  std::size_t size(std::uint32_t t) const { return prefix_[t].size() - 1; }
  // Trace index of thread t's k-th event.
  std::uint64_t event(std::uint32_t t, std::size_t k) const { return events_.empty() ? k : events_[t][k]; }
  // Requests the cache line of event(t, k) without waiting for it.
  void prefetch_event(std::uint32_t t, std::size_t k) const {
    if (!events_.empty()) __builtin_prefetch(events_[t].data() + k);
  }
  // prefix[k] = requested bytes of thread t's events 0..k-1; size(t) + 1 entries.
  std::span<const std::uint64_t> requested_prefix(std::uint32_t t) const { return prefix_[t]; }
  // coarse[j] = requested_prefix(t)[j * kStride].
  std::span<const std::uint64_t> requested_coarse(std::uint32_t t) const { return coarse_[t]; }
  // top[m] = requested_prefix(t)[m * kTopStride].
  std::span<const std::uint64_t> requested_top(std::uint32_t t) const { return top_[t]; }
  // Bytes of the index per trace event (event lists, prefix sums and their levels).
  double bytes_per_event() const;

  // Every kStride-th prefix sum (the coarse level) and every kTopStride-th (the top
  // level, 1/4096 of the events: in cache even for 10^8 events). A search walks the
  // top level, then one kStride-entry segment of the coarse level, then one
  // kStride-event block of the prefix sums.
  static constexpr std::size_t kStride = 64;
  static constexpr std::size_t kTopStride = kStride * kStride;

 private:
  std::vector<std::vector<std::uint64_t>> events_;  // empty for a single thread
  std::vector<std::vector<std::uint64_t>> prefix_;
  std::vector<std::vector<std::uint64_t>> coarse_;  // coarse_[t][j] = prefix_[t][j * kStride]
  std::vector<std::vector<std::uint64_t>> top_;     // top_[t][m] = prefix_[t][m * kTopStride]
};

// Event streams with prefix sums of an integer "counted size" (requested, size
// class, aligned, requested + 1, ...): what the integer countdown samplers' skip-ahead
// replay searches. Either one stream per traced thread (event k of stream t is
// ThreadIndex::event(t, k)) or the whole trace as one stream (event k is k), for
// process-wide counters. A stream's value at k is prefix[k] + add * k, so the
// requested sizes plus a constant per event (tcmalloc's requested + 1) borrow the
// ThreadIndex's arrays with no new memory; other counted sizes own theirs (one
// uint64 per event plus 1/64 of that for the coarse level and 1/4096 for the top).
class CountedStreams {
 public:
  static constexpr std::size_t kStride = ThreadIndex::kStride;
  static constexpr std::size_t kTopStride = ThreadIndex::kTopStride;

  // Thread t's requested sizes plus `add` bytes per event, borrowed from `index`
  // (which must outlive this).
  static CountedStreams requested(const ThreadIndex& index, std::uint64_t add = 0);
  // Thread t's events, counted(trace index) bytes each.
  template <class Counted>
  static CountedStreams per_thread(const ThreadIndex& index, Counted counted) {
    CountedStreams s;
    s.threads_ = &index;
    s.own_.resize(index.thread_count());
    for (std::uint32_t t = 0; t < index.thread_count(); ++t) {
      auto& prefix = s.own_[t];
      resize_on_huge_pages(prefix, index.size(t) + 1);
      prefix[0] = 0;
      for (std::size_t k = 0; k < index.size(t); ++k) prefix[k + 1] = prefix[k] + counted(index.event(t, k));
    }
    s.finish_owned();
    return s;
  }
  // The whole trace of n events as one stream, counted(i) bytes each.
  template <class Counted>
  static CountedStreams whole_trace(std::size_t n, Counted counted) {
    CountedStreams s;
    s.own_.resize(1);
    auto& prefix = s.own_[0];
    resize_on_huge_pages(prefix, n + 1);
    prefix[0] = 0;
    for (std::size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + counted(i);
    s.finish_owned();
    return s;
  }

  CountedStreams(CountedStreams&&) = default;
  CountedStreams& operator=(CountedStreams&&) = default;

  std::uint32_t stream_count() const { return static_cast<std::uint32_t>(prefix_.size()); }
  // Number of events of stream s.
  std::size_t size(std::uint32_t s) const { return prefix_[s].size() - 1; }
  // Trace index of stream s's k-th event.
  std::uint64_t event(std::uint32_t s, std::size_t k) const {
    return threads_ == nullptr ? k : threads_->event(s, k);
  }
  // Counted bytes of stream s's events 0..k-1 (k <= size(s)).
  std::uint64_t at(std::uint32_t s, std::size_t k) const { return prefix_[s][k] + add_ * k; }
  std::uint64_t total(std::uint32_t s) const { return at(s, size(s)); }
  // The k with at(k) <= x < at(k + 1) (the event holding 0-based byte position x of
  // stream s), searching forward from `from`, which must satisfy at(from) <= x.
  // Requires x < total(s). Exact integer comparisons.
  std::size_t find(std::uint32_t s, std::uint64_t x, std::size_t from) const;
  // ks[j] = find(s, xs[j], ...) for positions xs that never decrease, all below
  // total(s), with at(from) <= xs[0]. The searches run level by level across the
  // whole batch, each level's cache lines requested for every position before any
  // is read, so that the misses of different positions overlap.
  void find_sorted(std::uint32_t s, std::span<const std::uint64_t> xs, std::size_t from,
                   std::span<std::size_t> ks) const;
  // Bytes this object owns per event of its streams (0 when it borrows its sums).
  double owned_bytes_per_event() const;

 private:
  CountedStreams() = default;
  void finish_owned();

  const ThreadIndex* threads_ = nullptr;  // null: one stream over the whole trace
  std::uint64_t add_ = 0;
  std::vector<std::span<const std::uint64_t>> prefix_, coarse_, top_;
  std::vector<std::vector<std::uint64_t>> own_, own_coarse_, own_top_;  // empty when borrowed
};

}  // namespace allocsim
