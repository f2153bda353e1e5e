#include "allocsim/sampler/registry.h"

#include "allocsim/sampler/per_byte.h"
#include "allocsim/sampler/poisson.h"

namespace allocsim {

const std::vector<SchemeDescriptor>& scheme_registry() {
  static const std::vector<SchemeDescriptor> registry = {
      per_byte_scheme(),
      poisson_scheme(),
  };
  return registry;
}

const SchemeDescriptor* find_scheme(std::string_view name) {
  for (const auto& d : scheme_registry()) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

nlohmann::json describe_schemes_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : scheme_registry()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& p : d.parameters) {
      params.push_back({{"name", p.name},
                        {"type", p.type},
                        {"default", p.default_value},
                        {"description", p.description}});
    }
    out.push_back({{"name", d.name},
                   {"summary", d.summary},
                   {"source", d.source},
                   {"parameters", params},
                   {"variants", d.variants}});
  }
  return out;
}

}  // namespace allocsim
