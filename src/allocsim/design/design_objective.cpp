#include "allocsim/design/design_objective.h"

namespace allocsim {

const char* to_string(DesignObjective objective) {
  switch (objective) {
    case DesignObjective::allocated: return "allocated";
    case DesignObjective::live: return "live";
    case DesignObjective::stack: return "stack";
  }
  return "?";
}

std::optional<DesignObjective> parse_design_objective(std::string_view name) {
  for (const auto o : {DesignObjective::allocated, DesignObjective::live, DesignObjective::stack}) {
    if (name == to_string(o)) return o;
  }
  return std::nullopt;
}

}  // namespace allocsim
