#pragma once
// Closed-form metrics of one estimator for one group: what the engine's Monte Carlo
// metrics are compared with.
#include <optional>

namespace allocsim {

// Empty where no closed form is known.
struct TheoryValues {
  std::optional<double> bias;
  std::optional<double> var;
  std::optional<double> mape;
  std::optional<double> cmape;
  std::optional<double> p_any_sample;
};

}  // namespace allocsim
