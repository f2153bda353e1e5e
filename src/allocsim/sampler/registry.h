#pragma once
// The catalogue of schemes: one line per scheme in registry.cpp, each descriptor
// written in its own folder (systems/<name>/, references/).
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/sampler/scheme_descriptor.h"

namespace allocsim {

// In the order `allocsim schemes` lists them (and `advise` reports them).
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
