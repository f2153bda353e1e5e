#pragma once
// The real allocation samplers allocsim can drive on this machine: the conformance
// drivers every registered scheme declares (SchemeDescriptor::conformance), each
// bound to its scheme.
#include <string>
#include <vector>

#include "allocsim/sampler/conformance_system.h"

namespace allocsim {

// In registry order.
const std::vector<ConformanceSystem>& conformance_systems();
// nullptr if unknown.
const ConformanceSystem* find_conformance_system(const std::string& name);

}  // namespace allocsim
