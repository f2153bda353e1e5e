#pragma once
// The counts in a native trace's header (native_trace.h: events at byte 24, thread,
// stack and type counts at 32, 36 and 40, the same in versions 1 and 2), read
// without reading or checking the rest of the file: enough to plan work on the
// trace before it is loaded.
#include <cstdint>
#include <optional>
#include <string>

namespace allocsim {

struct NativeTraceCounts {
  std::uint64_t events = 0;
  std::uint32_t threads = 0;
  std::uint32_t stacks = 0;
  std::uint32_t types = 0;
};

// nullopt when the file cannot be read or does not start like a native trace of
// version 1 or 2 (loading it then reports what is wrong).
std::optional<NativeTraceCounts> read_native_trace_counts(const std::string& path);

}  // namespace allocsim
