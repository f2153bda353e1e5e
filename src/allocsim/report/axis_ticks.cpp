#include "allocsim/report/axis_ticks.h"

#include <cmath>

#include "allocsim/outputs/value_format.h"

namespace allocsim {
namespace {

constexpr int kMaxTicks = 10;

std::vector<Tick> linear_ticks(double low, double high) {
  double step = 1;
  while ((high - low) / step > kMaxTicks - 1) step *= 2;
  std::vector<Tick> ticks;
  for (double v = std::ceil(low / step) * step; v <= high; v += step) ticks.push_back({v, format_bytes(v)});
  return ticks;
}

std::vector<Tick> log_ticks(double low, double high, int max_ticks) {
  const int first = static_cast<int>(std::floor(std::log2(low)));
  const int last = static_cast<int>(std::ceil(std::log2(high)));
  int stride = 1;
  for (int candidate : {1, 2, 4, 5, 10, 20}) {
    stride = candidate;
    if ((last - first) / candidate + 1 <= max_ticks) break;
  }
  std::vector<Tick> ticks;
  for (int e = first; e <= last; ++e) {
    if (e % stride != 0) continue;
    const double v = std::ldexp(1.0, e);
    if (v >= low * (1 - 1e-9) && v <= high * (1 + 1e-9)) ticks.push_back({v, format_bytes(v)});
  }
  return ticks;
}

}  // namespace

std::vector<Tick> byte_ticks(double low, double high, bool log, int max_log_ticks) {
  if (!(high > low)) high = low + 1;
  return log ? log_ticks(low, high, max_log_ticks) : linear_ticks(low, high);
}

}  // namespace allocsim
