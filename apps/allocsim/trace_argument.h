#pragma once
// The TRACE argument of `evaluate` and `advise`: a trace file of any format allocsim
// reads, or a .json file holding a scenario's "trace" object (synthetic, or a file
// trace whose relative path is resolved against the .json file's folder).
#include <nlohmann/json.hpp>

#include <string>

#include "allocsim/trace/trace_source.h"
#include "allocsim/util/output_path.h"

namespace allocsim::cli {

// The trace object, every file path in it absolute, "description" dropped. A missing
// file is an InputError "<argument>: no such file". `names_from` (--names-from), when
// not empty, is the interpreted heaptrack file that names a raw file's frames.
nlohmann::json trace_argument(const std::string& argument, const std::string& names_from = "");

// What a command reads through a TRACE argument: the argument itself and the files
// its trace object names (trace_source_files: a file trace's path, --names-from),
// none of which an output may be.
InputPaths trace_argument_inputs(const std::string& argument, const TraceSource& source);

}  // namespace allocsim::cli
