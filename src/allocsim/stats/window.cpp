#include "allocsim/stats/window.h"

#include "allocsim/trace/live_peak.h"

namespace allocsim {

std::string Window::estimator_prefix() const {
  switch (kind) {
    case Kind::allocated: return "";
    case Kind::live_at_end: return "live_";
    case Kind::live_at: return "live_at_" + std::to_string(time).append("_");
    case Kind::live_at_peak: return "peak_";
  }
  return "";
}

std::string Window::name() const {
  switch (kind) {
    case Kind::allocated: return "allocated";
    case Kind::live_at_end: return "live_at_end";
    case Kind::live_at: return std::string("live_at ").append(std::to_string(time));
    case Kind::live_at_peak: return "live_at_peak";
  }
  return "";
}

std::vector<Window> resolve_windows(std::vector<Window> windows, const Trace& trace) {
  for (Window& w : windows) {
    if (w.kind == Window::Kind::live_at_peak) w.time = live_peak(trace).time;
  }
  return windows;
}

}  // namespace allocsim
