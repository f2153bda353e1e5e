#pragma once
// When each allocation happens on the program's wall clock, for the samplers whose
// choices depend on time rather than on bytes alone: JFR's throttle (windows of
// 200 ms, a target of samples per second), Datadog's adaptive intervals (retuned every
// second to an overhead or sample-rate target), memleak's clock bits (kept iff
// ns mod N = 0). Every such scheme declares the same three parameters
// (wall_clock_parameters) and reads them the same way, so a trace is timed once.
//
// Two clocks:
//   "rate" (the default): the program allocates `alloc_rate` bytes a second, all
//     threads together, at an even pace: allocation i starts at
//       t_i = floor(R_i * 1e9 / alloc_rate) ns,   R_i = bytes requested before i.
//     The allocation rate is then the one knob a rate-targeted sampler responds to,
//     and a synthetic trace (whose ticks are allocation indices) needs no time column.
//   "trace": the trace's own timestamps, t_i = floor(time[i] * tick_ns) ns (heaptrack's
//     are milliseconds: tick_ns 1e6).
// Both are non-decreasing in i. Time 0 is the start of the trace.
#include <cstdint>
#include <vector>

#include "allocsim/sampler/scheme_parameters.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline constexpr std::uint64_t kNanosecondsPerSecond = 1'000'000'000;
__extension__ typedef unsigned __int128 WallClockProduct;  // R_i * 1e9 (R_i < 2^62)

struct WallClockSettings {
  enum class Source { rate, trace };
  Source source = Source::rate;
  std::uint64_t bytes_per_second = 0;  // "rate": the program's allocation rate
  double ns_per_tick = 1;              // "trace": nanoseconds per trace tick
};

// "clock", "alloc_rate" (default `default_bytes_per_second`) and "tick_ns", for a
// time-driven scheme's descriptor.
std::vector<ParameterInfo> wall_clock_parameters(std::uint64_t default_bytes_per_second);
// The settings those parameters give (InputError naming the parameter at fault).
WallClockSettings read_wall_clock(SchemeParameters& params);

// The clock read in trace order: at(i) for i = 0, 1, 2, ... (each index once, in
// order; a streaming replay visits every event).
class WallClock {
 public:
  WallClock(const WallClockSettings& settings, const Trace& trace) : settings_(settings), trace_(trace) {}

  // Nanoseconds at which allocation i starts.
  std::uint64_t at(std::size_t i) {
    if (settings_.source == WallClockSettings::Source::trace) return trace_ticks_ns(i);
    // R_i * 1e9 needs more than 64 bits (R_i < 2^62, trace.h): exact in 128.
    const auto ns =
        static_cast<WallClockProduct>(requested_before_) * kNanosecondsPerSecond / settings_.bytes_per_second;
    requested_before_ += trace_.requested[i];
    return static_cast<std::uint64_t>(ns);
  }

 private:
  std::uint64_t trace_ticks_ns(std::size_t i) const;

  WallClockSettings settings_;
  const Trace& trace_;
  std::uint64_t requested_before_ = 0;
};

}  // namespace allocsim
