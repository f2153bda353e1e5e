#pragma once
// Small traces built in the test.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "allocsim/trace/trace.h"

namespace allocsim::testing {

// A trace of the given requested sizes; thread ids default to 0, stacks to 0,
// everything live at the end.
inline Trace make_trace(const std::vector<std::uint64_t>& sizes,
                        const std::vector<std::uint32_t>& threads = {}) {
  Trace t;
  t.requested = sizes;
  const std::size_t n = sizes.size();
  t.thread = threads.empty() ? std::vector<std::uint32_t>(n, 0) : threads;
  t.stack.assign(n, 0);
  t.type.assign(n, 0);
  t.time.resize(n);
  for (std::size_t i = 0; i < n; ++i) t.time.mutable_data()[i] = i;
  t.free_time.assign(n, kNeverFreed);
  t.thread_count = 1;
  for (auto id : t.thread) t.thread_count = std::max(t.thread_count, id + 1);
  return t;
}

}  // namespace allocsim::testing
