#include "allocsim/conformance/system.h"

#include "allocsim/sampler/registry.h"

namespace allocsim {

const std::vector<ConformanceSystem>& conformance_systems() {
  static const std::vector<ConformanceSystem> systems = [] {
    std::vector<ConformanceSystem> all;
    for (const SchemeDescriptor& scheme : scheme_registry()) {
      for (ConformanceSystem system : scheme.conformance) {
        system.scheme = scheme.name;
        if (system.rate_parameter.empty()) system.rate_parameter = scheme.rate_parameter()->name;
        all.push_back(std::move(system));
      }
    }
    return all;
  }();
  return systems;
}

const ConformanceSystem* find_conformance_system(const std::string& name) {
  for (const auto& s : conformance_systems()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace allocsim
