#pragma once
// A trace: the allocations of one program run, stored column by column so the
// replay loop streams through arrays. Allocation i is the i-th event in time
// order; its free (if any) is linked by free_time[i]. Sizes and thread ids are
// stored narrow with an exact escape for the rare wide value (narrow_column.h);
// every column owns its storage or views a mapped native file (column.h).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "allocsim/trace/column.h"
#include "allocsim/trace/narrow_column.h"

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

// Running totals of a trace's requested and allocated bytes, for traces checked
// piece by piece: check() throws the error Trace::check_byte_totals describes.
class ByteTotals {
 public:
  void add(std::uint64_t requested, std::uint64_t allocated) {
    requested_.add(requested);
    allocated_.add(allocated);
  }
  void check(const std::string& where) const;

 private:
  struct Total {
    std::uint64_t bytes = 0;
    bool too_large = false;
    void add(std::uint64_t size) { too_large |= __builtin_add_overflow(bytes, size, &bytes) || bytes > kMaxTraceBytes; }
  };
  Total requested_, allocated_;
};

struct Trace {
  ThreadColumn thread;              // dense thread index, 0..thread_count-1
  SizeColumn requested;             // bytes asked of malloc
  SizeColumn allocated;             // bytes the allocator handed out; empty if unknown
  Column<std::uint32_t> stack;      // dense stack id, 0..stack_count-1
  Column<std::uint32_t> type;       // dense type id, 0..type_count-1
  Column<std::uint64_t> time;       // non-decreasing timestamps (trace ticks)
  Column<std::uint64_t> free_time;  // when the allocation was freed; kNeverFreed = live at end

  std::uint32_t thread_count = 1;
  std::uint32_t stack_count = 1;
  std::uint32_t type_count = 1;
  std::vector<std::string> stack_names;  // optional, indexed by stack id
  std::vector<std::string> type_names;   // optional, indexed by type id

  std::size_t size() const { return requested.size(); }
  bool has_allocated_sizes() const { return !allocated.empty(); }
  // The allocator's size when known, else the requested size.
  std::uint64_t allocated_size(std::size_t i) const { return allocated.empty() ? requested[i] : allocated[i]; }
  bool live_at_end(std::size_t i) const { return free_time[i] == kNeverFreed; }

  // Throws InputError naming the first inconsistency (column lengths, ids out of
  // range, more ids declared than events or names could use, time going backwards,
  // a free before its allocation, byte totals past kMaxTraceBytes).
  void validate(const std::string& where) const;
  // The byte totals alone: "<where>: the trace requests N bytes, more than 2^62".
  void check_byte_totals(const std::string& where) const;
  // Adds events [first, last) to `totals`.
  void add_byte_totals(std::size_t first, std::size_t last, ByteTotals& totals) const;
  // Drops the mapped pages of events [first, last) from this process's resident
  // set (a scan of a mapped trace then costs no memory); no-op for owned columns.
  void drop_resident(std::size_t first, std::size_t last) const;
  bool mapped() const { return requested.mapped(); }
  // Bytes the columns' storage takes (narrow codes and wide tables), owned or mapped.
  std::size_t storage_bytes() const;
};

}  // namespace allocsim
