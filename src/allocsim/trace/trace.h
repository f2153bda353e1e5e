#pragma once
// A trace: the allocations of one program run, stored column by column so the
// replay loop streams through plain arrays. Allocation i is the i-th event in
// time order; its free (if any) is linked by free_time[i].
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace allocsim {

inline constexpr std::uint64_t kNeverFreed = std::numeric_limits<std::uint64_t>::max();

// The most bytes a trace may request (and, with allocated sizes, be handed) in all:
// every prefix sum of its sizes, per thread or over the whole trace, then fits in
// 64 bits, with room for what the samplers add to each size (a size class at most
// doubles a size; tcmalloc counts one more byte per allocation).
inline constexpr std::uint64_t kMaxTraceBytes = std::uint64_t{1} << 62;
// The most threads a trace may declare: each costs the skip-ahead index its own
// arrays, used or not.
inline constexpr std::uint32_t kMaxTraceThreads = std::uint32_t{1} << 20;

struct Trace {
  std::vector<std::uint32_t> thread;     // dense thread index, 0..thread_count-1
  std::vector<std::uint64_t> requested;  // bytes asked of malloc
  std::vector<std::uint64_t> allocated;  // bytes the allocator handed out; empty if unknown
  std::vector<std::uint32_t> stack;      // dense stack id, 0..stack_count-1
  std::vector<std::uint32_t> type;       // dense type id, 0..type_count-1
  std::vector<std::uint64_t> time;       // non-decreasing timestamps (trace ticks)
  std::vector<std::uint64_t> free_time;  // when the allocation was freed; kNeverFreed = live at end

  std::uint32_t thread_count = 1;
  std::uint32_t stack_count = 1;
  std::uint32_t type_count = 1;
  std::vector<std::string> stack_names;  // optional, indexed by stack id
  std::vector<std::string> type_names;   // optional, indexed by type id

  std::size_t size() const { return requested.size(); }
  bool has_allocated_sizes() const { return !allocated.empty(); }
  // The allocator's size when known, else the requested size.
  std::uint64_t allocated_size(std::size_t i) const {
    return allocated.empty() ? requested[i] : allocated[i];
  }
  bool live_at_end(std::size_t i) const { return free_time[i] == kNeverFreed; }

  // Throws InputError naming the first inconsistency (column lengths, ids out of
  // range, more ids declared than events or names could use, time going backwards,
  // a free before its allocation, byte totals past kMaxTraceBytes).
  void validate(const std::string& where) const;
  // The byte totals alone: "<where>: the trace requests N bytes, more than 2^62".
  void check_byte_totals(const std::string& where) const;
};

}  // namespace allocsim
