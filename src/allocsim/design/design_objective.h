#pragma once
// What an optimal design (optimal_design.h) minimises: the variance of the bytes
// allocated, of the bytes live at the dump, or of each large stack's bytes
// (size_class_demand.h gives each objective's weights). Apart from the demand so
// that the schemes' descriptors name an objective without the linear algebra.
#include <optional>
#include <string_view>

namespace allocsim {

enum class DesignObjective { allocated, live, stack };
const char* to_string(DesignObjective objective);
std::optional<DesignObjective> parse_design_objective(std::string_view name);

struct StackObjective {
  double share = 0;         // f
  double total_weight = 1;  // t
};

}  // namespace allocsim
