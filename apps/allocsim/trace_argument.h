#pragma once
// The TRACE argument of `evaluate` and `advise`: a trace file of any format allocsim
// reads, or a .json file holding a scenario's "trace" object (synthetic, or a file
// trace whose relative path is resolved against the .json file's folder).
#include <nlohmann/json.hpp>

#include <string>

namespace allocsim::cli {

// The trace object, every file path in it absolute, "description" dropped. A missing
// file is an InputError "<argument>: no such file". `names_from` (--names-from), when
// not empty, is the interpreted heaptrack file that names a raw file's frames.
nlohmann::json trace_argument(const std::string& argument, const std::string& names_from = "");

}  // namespace allocsim::cli
