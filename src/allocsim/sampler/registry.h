#pragma once
// The catalogue of schemes: names as used in scenarios and on the command line,
// their parameters with defaults, and the document or code each one models.
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/sampler/scheme.h"
#include "allocsim/json/json_reader.h"

namespace allocsim {

struct ParameterInfo {
  std::string name;
  std::string type;  // "number", "integer", "string", "boolean"
  nlohmann::json default_value;
  std::string description;
};

struct SchemeDescriptor {
  std::string name;
  std::string summary;
  std::string source;  // the design document / code it models
  std::vector<ParameterInfo> parameters;
  std::vector<std::string> variants;  // where the real code and the document differ
  // Reads the scheme's parameters from `params` (the caller finishes the object).
  std::function<std::unique_ptr<Scheme>(JsonObject& params)> create;
  // "rate" is a byte interval (false: per-allocation's N counts allocations).
  bool byte_rate = true;
};

const std::vector<SchemeDescriptor>& scheme_registry();
// nullptr if unknown.
const SchemeDescriptor* find_scheme(std::string_view name);
// "a, b, c": the registered names, for error messages.
std::string known_scheme_names();
// " (did you mean \"heapprofd\"?)" for a misspelt scheme name, or "".
std::string scheme_suggestion(std::string_view name);
// Creates scheme `name` from the JSON object `params`. `path` names `params` in
// errors: an unknown scheme, a bad value or a key the scheme does not read
// throws InputError "<path>: ...".
std::unique_ptr<Scheme> create_scheme(std::string_view name, const nlohmann::json& params, const std::string& path);
nlohmann::json describe_schemes_json();

}  // namespace allocsim
