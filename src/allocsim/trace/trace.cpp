#include "allocsim/trace/trace.h"

#include <algorithm>
#include <utility>

#include "allocsim/util/error.h"

namespace allocsim {

namespace {

// Whole-trace checks scan a mapped trace in blocks, dropping each block's pages
// after it, so checking a file larger than memory leaves nothing resident.
constexpr std::size_t kScanBlock = std::size_t{1} << 22;

template <class Check>
void scan_in_blocks(const Trace& trace, Check check) {
  for (std::size_t first = 0; first < trace.size(); first += kScanBlock) {
    const std::size_t last = std::min(trace.size(), first + kScanBlock);
    for (std::size_t i = first; i < last; ++i) check(i);
    trace.drop_resident(first, last);
  }
}

}  // namespace

void Trace::validate(const std::string& where) const {
  const std::size_t n = size();
  auto fail = [&](const std::string& what) { throw InputError(where + ": " + what); };
  if (thread.size() != n || stack.size() != n || type.size() != n || time.size() != n || free_time.size() != n ||
      (!allocated.empty() && allocated.size() != n)) {
    fail("trace columns have different lengths");
  }
  for (const auto& [problem, column] :
       {std::pair{thread.wide_table_problem(), "thread"}, std::pair{requested.wide_table_problem(), "requested"},
        std::pair{allocated.wide_table_problem(), "allocated"}}) {
    if (!problem.empty()) fail(std::string(column) + " column: " + problem);
  }
  if (thread_count == 0 || stack_count == 0 || type_count == 0) {
    fail("thread, stack and type counts must be at least 1");
  }
  // Per-id tables are sized by these counts: a count no event or name can use is
  // a corrupt header, not a reason to allocate gigabytes.
  if (thread_count > kMaxTraceThreads) {
    fail(std::to_string(thread_count) + " threads, more than the " + std::to_string(kMaxTraceThreads) + " allowed");
  }
  auto check_id_count = [&](std::uint32_t count, std::size_t names, const char* what) {
    if (count > std::max<std::size_t>({n, names, 1})) {
      fail(std::to_string(count) + " " + what + " ids for " + std::to_string(n) + " events and " +
           std::to_string(names) + " names");
    }
  };
  check_id_count(stack_count, stack_names.size(), "stack");
  check_id_count(type_count, type_names.size(), "type");
  const bool has_allocated = !allocated.empty();
  scan_in_blocks(*this, [&](std::size_t i) {
    if (thread[i] >= thread_count) fail("event " + std::to_string(i) + ": thread id out of range");
    if (stack[i] >= stack_count) fail("event " + std::to_string(i) + ": stack id out of range");
    if (type[i] >= type_count) fail("event " + std::to_string(i) + ": type id out of range");
    if (i > 0 && time[i] < time[i - 1]) fail("event " + std::to_string(i) + ": time goes backwards");
    if (free_time[i] != kNeverFreed && free_time[i] < time[i]) {
      fail("event " + std::to_string(i) + ": freed before it was allocated");
    }
    if (has_allocated && allocated[i] < requested[i]) {
      fail("event " + std::to_string(i) + ": allocated size smaller than requested size");
    }
  });
  check_byte_totals(where);
}

void ByteTotals::check(const std::string& where) const {
  for (const auto& [total, what] : {std::pair{requested_, "requested"}, std::pair{allocated_, "allocated"}}) {
    if (total.too_large) {
      throw InputError(where + ": the trace's " + what + " sizes add up to more than 2^62 = " +
                       std::to_string(kMaxTraceBytes) + " bytes, the most a trace may hold");
    }
  }
}

void Trace::add_byte_totals(std::size_t first, std::size_t last, ByteTotals& totals) const {
  const bool has_allocated = !allocated.empty();
  for (std::size_t i = first; i < last; ++i) totals.add(requested[i], has_allocated ? allocated[i] : 0);
}

void Trace::check_byte_totals(const std::string& where) const {
  ByteTotals totals;
  scan_in_blocks(*this, [&](std::size_t i) { add_byte_totals(i, i + 1, totals); });
  totals.check(where);
}

std::size_t Trace::storage_bytes() const {
  return thread.storage_bytes() + requested.storage_bytes() + allocated.storage_bytes() + stack.storage_bytes() +
         type.storage_bytes() + time.storage_bytes() + free_time.storage_bytes();
}

void Trace::drop_resident(std::size_t first, std::size_t last) const {
  if (!mapped()) return;
  thread.drop_resident(first, last);
  requested.drop_resident(first, last);
  if (!allocated.empty()) allocated.drop_resident(first, last);
  stack.drop_resident(first, last);
  type.drop_resident(first, last);
  time.drop_resident(first, last);
  free_time.drop_resident(first, last);
}

}  // namespace allocsim
