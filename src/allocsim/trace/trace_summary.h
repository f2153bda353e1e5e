#pragma once
// What a trace holds, for `allocsim trace info`: event counts, bytes, live heap at
// the end and at its peak, threads, stacks, the log2 size histogram and the biggest stacks.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/trace/trace.h"

namespace allocsim {

struct TraceSummary {
  struct Bucket {  // requested sizes in [lo, hi); bucket 0 holds size 0
    std::string label;
    std::uint64_t lo = 0, hi = 0;  // hi 0 = 2^64
    std::uint64_t allocations = 0, bytes = 0;
  };
  struct Stack {
    std::string name;
    std::uint64_t allocations = 0, bytes = 0;
  };
  std::uint64_t allocations = 0;
  std::uint64_t frees = 0;
  std::uint64_t bytes = 0;  // total requested bytes allocated
  std::uint64_t live_allocations = 0;
  std::uint64_t live_bytes = 0;  // requested bytes live at the end
  std::uint32_t threads = 0, stacks = 0, types = 0;
  bool has_allocated_sizes = false;
  std::uint64_t allocated_bytes = 0;  // allocator's sizes, when known
  std::uint64_t first_time = 0, last_time = 0;
  std::uint64_t peak_time = 0, peak_live_bytes = 0;  // high-water mark of live requested bytes
  std::vector<Bucket> size_histogram;                // only buckets that occur, in size order
  std::vector<Stack> top_stacks;                     // by bytes, at most `top` of them
};

// InputError (naming `where`) if a byte total overflows 64 bits.
TraceSummary summarize_trace(const Trace& trace, const std::string& where, std::size_t top = 10);
nlohmann::ordered_json to_json(const TraceSummary& summary);

// The few totals a results summary records per sweep point (summary.json), summed
// in double as they are reported.
struct TraceTotals {
  std::uint64_t allocations = 0;
  std::uint64_t live_allocations = 0;
  double requested_bytes = 0;
  double live_requested_bytes = 0;
  std::uint32_t threads = 0, stacks = 0, types = 0;
};

TraceTotals trace_totals(const Trace& trace);

}  // namespace allocsim
