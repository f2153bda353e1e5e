#pragma once
// The events of each traced thread in order, with prefix sums of their requested
// sizes: what skip-ahead replay searches. Built once per trace and shared by every
// scheme and worker. A single-threaded trace stores no event lists (event k of
// thread 0 is event k).
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/trace/trace.h"

namespace allocsim {

class ThreadIndex {
 public:
  explicit ThreadIndex(const Trace& trace);

  std::uint32_t thread_count() const { return static_cast<std::uint32_t>(prefix_.size()); }
  // Number of events of thread t.
  std::size_t size(std::uint32_t t) const { return prefix_[t].size() - 1; }
  // Trace index of thread t's k-th event.
  std::uint64_t event(std::uint32_t t, std::size_t k) const { return events_.empty() ? k : events_[t][k]; }
  // prefix[k] = requested bytes of thread t's events 0..k-1; size(t) + 1 entries.
  std::span<const std::uint64_t> requested_prefix(std::uint32_t t) const { return prefix_[t]; }

  // The k with prefix[k] <= x < prefix[k + 1] (the event holding byte position x of
  // thread t's stream), searching forward from `from`, a position known to satisfy
  // prefix[from] <= x. Requires x < prefix.back().
  std::size_t find(std::uint32_t t, double x, std::size_t from) const;

 private:
  // Every kStride-th prefix sum, so the search gallops through an array that stays
  // in cache and touches the large one only inside one block.
  static constexpr std::size_t kStride = 64;

  std::vector<std::vector<std::uint64_t>> events_;  // empty for a single thread
  std::vector<std::vector<std::uint64_t>> prefix_;
  std::vector<std::vector<std::uint64_t>> coarse_;  // coarse_[t][j] = prefix_[t][j * kStride]
};

// The last position k in [from, prefix.size()) with prefix[k] <= x, found by
// galloping from `from`: O(log distance) steps. Requires prefix[from] <= x.
std::size_t gallop_last_not_above(std::span<const std::uint64_t> prefix, double x, std::size_t from);

}  // namespace allocsim
