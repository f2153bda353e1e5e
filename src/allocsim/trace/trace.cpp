#include "allocsim/trace/trace.h"

#include <algorithm>

#include "allocsim/util/error.h"

namespace allocsim {

void Trace::validate(const std::string& where) const {
  const std::size_t n = size();
  auto fail = [&](const std::string& what) { throw InputError(where + ": " + what); };
  if (thread.size() != n || stack.size() != n || type.size() != n || time.size() != n ||
      free_time.size() != n || (!allocated.empty() && allocated.size() != n)) {
    fail("trace columns have different lengths");
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
  for (std::size_t i = 0; i < n; ++i) {
    if (thread[i] >= thread_count) fail("event " + std::to_string(i) + ": thread id out of range");
    if (stack[i] >= stack_count) fail("event " + std::to_string(i) + ": stack id out of range");
    if (type[i] >= type_count) fail("event " + std::to_string(i) + ": type id out of range");
    if (i > 0 && time[i] < time[i - 1]) fail("event " + std::to_string(i) + ": time goes backwards");
    if (free_time[i] != kNeverFreed && free_time[i] < time[i]) {
      fail("event " + std::to_string(i) + ": freed before it was allocated");
    }
    if (!allocated.empty() && allocated[i] < requested[i]) {
      fail("event " + std::to_string(i) + ": allocated size smaller than requested size");
    }
  }
  check_byte_totals(where);
}

void Trace::check_byte_totals(const std::string& where) const {
  auto check = [&](const std::vector<std::uint64_t>& sizes, const char* what) {
    std::uint64_t total = 0;
    for (const std::uint64_t size : sizes) {
      if (__builtin_add_overflow(total, size, &total) || total > kMaxTraceBytes) {
        throw InputError(where + ": the trace's " + what + " sizes add up to more than 2^62 = " +
                         std::to_string(kMaxTraceBytes) + " bytes, the most a trace may hold");
      }
    }
  };
  check(requested, "requested");
  check(allocated, "allocated");
}

}  // namespace allocsim
