#include "allocsim/trace/thread_index.h"

#include <algorithm>

namespace allocsim {

ThreadIndex::ThreadIndex(const Trace& trace) {
  if (trace.thread_count > 1) {
    std::vector<std::size_t> counts(trace.thread_count, 0);
    for (std::size_t i = 0; i < trace.size(); ++i) ++counts[trace.thread[i]];
    const bool wide = EventList::needs_wide(trace.size());
    events_.reserve(trace.thread_count);
    for (std::uint32_t t = 0; t < trace.thread_count; ++t) events_.emplace_back(counts[t], wide);
    std::fill(counts.begin(), counts.end(), 0);
    for (std::size_t i = 0; i < trace.size(); ++i) events_[trace.thread[i]].set(counts[trace.thread[i]]++, i);
  }
  requested_.reserve(trace.thread_count);
  for (std::uint32_t t = 0; t < trace.thread_count; ++t) {
    const std::size_t n = events_.empty() ? trace.size() : events_[t].size();
    requested_.emplace_back(n, [&](std::size_t k) { return trace.requested[event(t, k)]; });
  }
}

double ThreadIndex::bytes_per_event() const {
  std::size_t events = 0, bytes = 0;
  for (std::uint32_t t = 0; t < thread_count(); ++t) {
    events += size(t);
    bytes += requested_[t].bytes() + (events_.empty() ? 0 : events_[t].bytes());
  }
  return events == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(events);
}

CountedStreams CountedStreams::requested(const ThreadIndex& index, std::uint64_t add) {
  CountedStreams s;
  s.threads_ = &index;
  s.add_ = add;
  for (std::uint32_t t = 0; t < index.thread_count(); ++t) s.prefix_.push_back(&index.requested(t));
  return s;
}

void CountedStreams::finish_owned() {
  for (const CompactPrefix& prefix : own_) prefix_.push_back(&prefix);
}

double CountedStreams::owned_bytes_per_event() const {
  std::size_t events = 0, bytes = 0;
  for (std::uint32_t s = 0; s < stream_count(); ++s) events += size(s);
  for (const CompactPrefix& prefix : own_) bytes += prefix.bytes();
  return events == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(events);
}

std::size_t CountedStreams::find(std::uint32_t s, std::uint64_t x, std::size_t from) const {
  std::size_t k = 0;
  find_sorted(s, {&x, 1}, from, {&k, 1});
  return k;
}

void CountedStreams::find_sorted(std::uint32_t s, std::span<const std::uint64_t> xs, std::size_t from,
                                 std::span<std::size_t> ks) const {
  prefix_[s]->find_sorted(xs, from, add_, ks);
  // The caller reads event(s, k) of each answer next; in a per-thread stream that
  // is a cold list, so its lines are requested for the whole batch first.
  if (threads_ != nullptr) {
    for (const std::size_t k : ks) threads_->prefetch_event(s, k);
  }
}

}  // namespace allocsim
