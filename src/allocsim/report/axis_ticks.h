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

// Ticks covering [low, high]: at most 10 multiples of a power of two on a linear
// axis; at most 15 powers of two, every 1, 2, 5, 10 or 20 doublings, on a log axis
// (low > 0).
std::vector<Tick> byte_ticks(double low, double high, bool log);

}  // namespace allocsim
