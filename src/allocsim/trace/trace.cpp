#include "allocsim/trace/trace.h"

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
}

}  // namespace allocsim
