#pragma once
// Tick marks for byte axes, labelled in B/KiB/MiB/GiB at powers of two (gnuplot
// would print 1.04858x10^6).
#include <string>
#include <utility>
#include <vector>

namespace allocsim {

struct Tick {
  double value;
  std::string label;
};

// At most this many ticks on a log byte axis where the plot takes the canvas' width:
// labels of powers of two are short.
inline constexpr int kMaxLogTicks = 15;

// Ticks covering [low, high]: at most 10 multiples of a power of two on a linear
// axis; at most `max_log_ticks` powers of two, every 1, 2, 4, 5, 10 or 20 doublings,
// on a log axis (low > 0).
std::vector<Tick> byte_ticks(double low, double high, bool log, int max_log_ticks = kMaxLogTicks);

}  // namespace allocsim
