#pragma once
// The events of each traced thread in order, with prefix sums of their requested
// sizes: what skip-ahead replay searches. Built once per trace and shared by every
// scheme and worker. A single-threaded trace stores no event lists (event k of
// thread 0 is event k). About 4 bytes per event for the sums (compact_prefix.h)
// and 4 for the event lists of a multi-threaded trace (event_list.h).
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/trace/compact_prefix.h"
#include "allocsim/trace/event_list.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

class ThreadIndex {
 public:
  explicit ThreadIndex(const Trace& trace);

  std::uint32_t thread_count() const { return static_cast<std::uint32_t>(requested_.size()); }
  // Number of events of thread t.
  std::size_t size(std::uint32_t t) const { return requested_[t].size(); }
  // Trace index of thread t's k-th event.
  std::uint64_t event(std::uint32_t t, std::size_t k) const { return events_.empty() ? k : events_[t][k]; }
  // Requests the cache line of event(t, k) without waiting for it.
  void prefetch_event(std::uint32_t t, std::size_t k) const {
    if (!events_.empty()) events_[t].prefetch(k);
  }
  // value(k) = requested bytes of thread t's events 0..k-1, for k = 0..size(t).
  const CompactPrefix& requested(std::uint32_t t) const { return requested_[t]; }
  // Bytes of the index per trace event (event lists and prefix sums).
  double bytes_per_event() const;

 private:
  std::vector<EventList> events_;  // empty for a single thread
  std::vector<CompactPrefix> requested_;
};

// Event streams with prefix sums of an integer "counted size" (requested, size
// class, aligned, requested + 1, ...): what the integer countdown samplers' skip-ahead
// replay searches. Either one stream per traced thread (event k of stream t is
// ThreadIndex::event(t, k)) or the whole trace as one stream (event k is k), for
// process-wide counters. A stream's value at k is prefix[k] + add * k, so the
// requested sizes plus a constant per event (tcmalloc's requested + 1) borrow the
// ThreadIndex's sums with no new memory; other counted sizes own theirs (a
// CompactPrefix per stream, about 4 bytes per event).
class CountedStreams {
 public:
  // Thread t's requested sizes plus `add` bytes per event, borrowed from `index`
  // (which must outlive this).
  static CountedStreams requested(const ThreadIndex& index, std::uint64_t add = 0);
  // Thread t's events, counted(trace index) bytes each. counted is called once per
  // event, thread by thread and each thread's events in trace order, so it may
  // carry state per thread.
  template <class Counted>
  static CountedStreams per_thread(const ThreadIndex& index, Counted counted) {
    CountedStreams s;
    s.threads_ = &index;
    s.own_.reserve(index.thread_count());
    for (std::uint32_t t = 0; t < index.thread_count(); ++t) {
      s.own_.emplace_back(index.size(t), [&](std::size_t k) { return counted(index.event(t, k)); });
    }
    s.finish_owned();
    return s;
  }
  // The whole trace of n events as one stream, counted(i) bytes each.
  template <class Counted>
  static CountedStreams whole_trace(std::size_t n, Counted counted) {
    CountedStreams s;
    s.own_.emplace_back(n, counted);
    s.finish_owned();
    return s;
  }

  CountedStreams(CountedStreams&&) = default;
  CountedStreams& operator=(CountedStreams&&) = default;

  std::uint32_t stream_count() const { return static_cast<std::uint32_t>(prefix_.size()); }
  // Number of events of stream s.
  std::size_t size(std::uint32_t s) const { return prefix_[s]->size(); }
  // Trace index of stream s's k-th event.
  std::uint64_t event(std::uint32_t s, std::size_t k) const { return threads_ == nullptr ? k : threads_->event(s, k); }
  // Counted bytes of stream s's events 0..k-1 (k <= size(s)).
  std::uint64_t at(std::uint32_t s, std::size_t k) const { return prefix_[s]->value(k) + add_ * k; }
  std::uint64_t total(std::uint32_t s) const { return at(s, size(s)); }
  // The k with at(k) <= x < at(k + 1) (the event holding 0-based byte position x of
  // stream s), searching forward from `from`, which must satisfy at(from) <= x.
  // Requires x < total(s). Exact integer comparisons.
  std::size_t find(std::uint32_t s, std::uint64_t x, std::size_t from) const;
  // ks[j] = find(s, xs[j], ...) for positions xs that never decrease, all below
  // total(s), with at(from) <= xs[0], searched together (CompactPrefix::find_sorted).
  void find_sorted(std::uint32_t s, std::span<const std::uint64_t> xs, std::size_t from,
                   std::span<std::size_t> ks) const;
  // Bytes this object owns per event of its streams (0 when it borrows its sums).
  double owned_bytes_per_event() const;

 private:
  CountedStreams() = default;
  void finish_owned();

  const ThreadIndex* threads_ = nullptr;  // null: one stream over the whole trace
  std::uint64_t add_ = 0;
  std::vector<const CompactPrefix*> prefix_;  // into own_, or the ThreadIndex's
  std::vector<CompactPrefix> own_;            // empty when borrowed
};

}  // namespace allocsim
