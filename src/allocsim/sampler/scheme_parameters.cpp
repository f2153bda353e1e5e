#include "allocsim/sampler/scheme_parameters.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "allocsim/json/json_reader.h"

namespace allocsim {

SchemeParameters::SchemeParameters(JsonObject& given, const std::vector<ParameterInfo>& declared)
    : given_(given), declared_(declared) {}

const nlohmann::json* ParameterInfo::find_in(const nlohmann::json& params) const {
  if (const auto found = params.find(name); found != params.end()) return &*found;
  for (const std::string& alias : aliases) {
    if (const auto found = params.find(alias); found != params.end()) return &*found;
  }
  return nullptr;
}

const ParameterInfo* find_parameter(const std::vector<ParameterInfo>& declared, std::string_view name) {
  const auto found =
      std::find_if(declared.begin(), declared.end(), [&](const ParameterInfo& p) { return p.name == name; });
  return found == declared.end() ? nullptr : &*found;
}

JsonValue SchemeParameters::operator[](std::string_view name) {
  const ParameterInfo* declared = find_parameter(declared_, name);
  if (declared == nullptr) {
    throw std::logic_error("scheme parameter \"" + std::string(name) + "\" is read but not declared");
  }
  const ParameterInfo& parameter = *declared;
  std::optional<JsonValue> value = given_.maybe(parameter.name);
  for (const std::string& alias : parameter.aliases) {
    std::optional<JsonValue> other = given_.maybe(alias);
    if (!other) continue;
    if (value) other->fail("is another name for \"" + parameter.name + "\"; give one of them");
    value = other;
  }
  if (value) return *value;
  if (parameter.default_value.is_null()) given_.fail("missing required key \"" + parameter.name + "\"");
  return JsonValue(parameter.default_value, key_path(given_.path(), parameter.name));
}

}  // namespace allocsim
