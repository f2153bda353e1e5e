#include "allocsim/sampler/scheme_parameters.h"

#include <optional>
#include <stdexcept>

#include "allocsim/json/json_reader.h"

namespace allocsim {

SchemeParameters::SchemeParameters(JsonObject& given, const std::vector<ParameterInfo>& declared)
    : given_(given), declared_(declared) {}

const ParameterInfo& SchemeParameters::declared(std::string_view name) const {
  for (const ParameterInfo& parameter : declared_) {
    if (parameter.name == name) return parameter;
  }
  throw std::logic_error("scheme parameter \"" + std::string(name) + "\" is read but not declared");
}

JsonValue SchemeParameters::operator[](std::string_view name) {
  const ParameterInfo& parameter = declared(name);
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

bool SchemeParameters::given(std::string_view name) const {
  const ParameterInfo& parameter = declared(name);
  if (given_.has(parameter.name)) return true;
  for (const std::string& alias : parameter.aliases) {
    if (given_.has(alias)) return true;
  }
  return false;
}

}  // namespace allocsim
