#pragma once
// A confidence interval [lower, upper] for one group's true quantity.

namespace allocsim {

struct Interval {
  double lower = 0;
  double upper = 0;
};

}  // namespace allocsim
