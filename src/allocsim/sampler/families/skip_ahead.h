#pragma once
// What the countdown samplers' skip-ahead replay (replay_skip_ahead) shares beyond
// their family (countdown_discard.h, countdown_carry.h): a per-(scheme, trace)
// cache of the counted-size prefix sums.
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
    if (!value_ || trace_ != &trace || column_ != trace.requested.codes().data() || index_ != &index ||
        size_ != trace.size()) {
      value_ = std::make_shared<const T>(build());
      trace_ = &trace;
      column_ = trace.requested.codes().data();
      index_ = &index;
      size_ = trace.size();
    }
    return value_;
  }

 private:
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const T> value_;
  mutable const Trace* trace_ = nullptr;
  mutable const void* column_ = nullptr;
  mutable const ThreadIndex* index_ = nullptr;
  mutable std::size_t size_ = 0;
};

}  // namespace allocsim
