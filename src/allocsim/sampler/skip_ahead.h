#pragma once
// Pieces shared by the integer countdown samplers' skip-ahead replay
// (replay_skip_ahead): a per-(scheme, trace) cache of the counted-size prefix sums,
// and the "first success" walk of the samplers that discard the leftover after a
// sample (jemalloc, tcmalloc, dotnet, dotnet-tick reset).
#include <cstdint>
#include <memory>
#include <mutex>

#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// A value derived from a trace (prefix sums of the sizes a scheme counts, its
// pass-through events) built once per (scheme, trace, index) and shared, read-only,
// by every worker's skip-ahead run through a shared_ptr. Keyed by the addresses of
// the trace, its requested column and the index, and the trace size; building a
// new value for another trace drops the scheme's reference to the old one (runs
// still holding it keep it alive). Copying a scheme copies an empty cache.
template <class T>
class SkipAheadCache {
 public:
  SkipAheadCache() = default;
  SkipAheadCache(const SkipAheadCache&) {}
  SkipAheadCache& operator=(const SkipAheadCache&) { return *this; }

  template <class Build>
  std::shared_ptr<const T> get(const Trace& trace, const ThreadIndex& index, Build build) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!value_ || trace_ != &trace || column_ != trace.requested.data() || index_ != &index ||
        size_ != trace.size()) {
      value_ = std::make_shared<const T>(build());
      trace_ = &trace;
      column_ = trace.requested.data();
      index_ = &index;
      size_ = trace.size();
    }
    return value_;
  }

 private:
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const T> value_;
  mutable const Trace* trace_ = nullptr;
  mutable const std::uint64_t* column_ = nullptr;
  mutable const ThreadIndex* index_ = nullptr;
  mutable std::size_t size_ = 0;
};

// First-success countdown over stream s of `streams`: draw() returns the number of
// counted bytes that pass before the sampled one (the failures before the next
// success; may be as large as UINT64_MAX); the event holding that byte is sampled
// with emit(k, offset) (k: its position in the stream, offset: the sampled byte's
// 0-based offset in its counted size), the leftover is discarded and the next draw
// counts from the end of that event. draw() is called exactly as often, and in the
// same order, as the streaming replay calls it for this stream: once at the start
// and once after each sample.
template <class Draw, class Emit>
void first_success_skip_ahead(const CountedStreams& streams, std::uint32_t s, Draw&& draw, Emit&& emit) {
  const std::uint64_t end = streams.total(s);
  std::uint64_t start = 0;  // counted bytes before the current wait
  std::size_t k = 0;        // first event of the current wait
  for (;;) {
    const std::uint64_t failures = draw();
    if (failures >= end - start) return;
    const std::uint64_t x = start + failures;  // 0-based position of the sampled byte
    k = streams.find(s, x, k);
    emit(k, x - streams.at(s, k));
    ++k;
    start = streams.at(s, k);
  }
}

}  // namespace allocsim
