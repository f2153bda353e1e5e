#include "allocsim/sampler/families/wall_clock.h"

#include <cmath>
#include <limits>

#include "allocsim/json/byte_size.h"

namespace allocsim {

std::vector<ParameterInfo> wall_clock_parameters(std::uint64_t default_bytes_per_second) {
  return {
      {"clock", "string", "rate",
       "what times the allocations: \"rate\" (the program allocates alloc_rate bytes a second, evenly) or "
       "\"trace\" (the trace's timestamps times tick_ns)"},
      {"alloc_rate", "integer", default_bytes_per_second,
       "the program's allocation rate in bytes per second, all threads together (clock \"rate\"); units "
       "accepted, e.g. \"512MiB\""},
      {"tick_ns", "number", 1, "nanoseconds per trace tick (clock \"trace\"; heaptrack's ticks are 1e6)"},
  };
}

WallClockSettings read_wall_clock(SchemeParameters& params) {
  WallClockSettings settings;
  const JsonValue clock = params["clock"];
  const std::string source = clock.string();
  if (source == "rate") {
    settings.source = WallClockSettings::Source::rate;
  } else if (source == "trace") {
    settings.source = WallClockSettings::Source::trace;
  } else {
    clock.fail("must be \"rate\" or \"trace\"");
  }
  settings.bytes_per_second = positive_byte_count(params["alloc_rate"]);
  settings.ns_per_tick = params["tick_ns"].positive_number();
  return settings;
}

std::uint64_t WallClock::trace_ticks_ns(std::size_t i) const {
  const double ns = std::floor(static_cast<double>(trace_.time[i]) * settings_.ns_per_tick);
  // Saturates: a clock past 2^64 ns (585 years) has long left every window.
  return ns >= 0x1p64 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(ns);
}

}  // namespace allocsim
