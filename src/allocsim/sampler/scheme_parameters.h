#pragma once
// A scheme's parameters as its descriptor declares them and its create() reads them.
// The declaration (name, type, default, description, other names) is what `allocsim
// schemes` shows; SchemeParameters hands create() each value as given in the
// scenario or, when absent, the declared default, so a default is written once.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "allocsim/json/json_reader.h"

namespace allocsim {

struct ParameterInfo {
  std::string name;
  std::string type;              // "number", "integer", "string", "boolean"
  nlohmann::json default_value;  // null: the parameter is required
  std::string description;
  std::vector<std::string> aliases = {};  // a system's own names for it ("interval" for "rate")

  // Its value in a scheme's JSON parameters, under its name or else the first alias
  // present; nullptr when absent.
  const nlohmann::json* find_in(const nlohmann::json& params) const;
};

// The parameter declared as `name`, or nullptr.
const ParameterInfo* find_parameter(const std::vector<ParameterInfo>& declared, std::string_view name);

class SchemeParameters {
 public:
  // `given` is the scenario's object (the caller finishes it: a key nothing read is
  // an error); `declared` must outlive this (the registry's descriptors do).
  SchemeParameters(JsonObject& given, const std::vector<ParameterInfo>& declared);

  // Parameter `name` as given under it or one of its aliases (both: an error), else
  // its declared default; a required one missing is an InputError. Asking for a name
  // the descriptor does not declare is a std::logic_error (an internal error).
  JsonValue operator[](std::string_view name);
  // InputError naming the whole object.
  [[noreturn]] void fail(const std::string& reason) const { given_.fail(reason); }

 private:
  JsonObject& given_;
  const std::vector<ParameterInfo>& declared_;
};

}  // namespace allocsim
