#pragma once
// Which allocations a truth or an estimate covers: everything allocated over the
// trace, or the heap live at one moment — the end of the trace, a chosen time, or
// the time the live requested bytes peak (the high-water mark a profiler such as
// Memray reports), resolved per trace.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/trace/trace.h"

namespace allocsim {

struct Window {
  enum class Kind { allocated, live_at_end, live_at, live_at_peak };
  Kind kind = Kind::allocated;
  // live_at: the moment, in trace time; live_at_peak: set by resolve_windows.
  std::uint64_t time = 0;

  // A snapshot at time t sees every event stamped <= t: allocation i is live at t
  // when time[i] <= t < free_time[i].
  bool contains(const Trace& trace, std::size_t i) const {
    switch (kind) {
      case Kind::allocated: return true;
      case Kind::live_at_end: return trace.live_at_end(i);
      case Kind::live_at:
      case Kind::live_at_peak: return trace.time[i] <= time && trace.free_time[i] > time;
    }
    return false;
  }
  // How the window prefixes an estimator's name in the results: "" (allocated),
  // "live_" (end), "live_at_<t>_", "peak_".
  std::string estimator_prefix() const;
  // As written in a scenario: "allocated", "live_at_end", "live_at_peak", or
  // {"live_at": t} shown as "live_at <t>".
  std::string name() const;

  bool operator==(const Window&) const = default;
};

// The scenario's windows for one trace: live_at_peak gets the time of that
// trace's live_peak.
std::vector<Window> resolve_windows(std::vector<Window> windows, const Trace& trace);

}  // namespace allocsim
