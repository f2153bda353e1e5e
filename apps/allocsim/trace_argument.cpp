#include "trace_argument.h"

#include <filesystem>

#include "allocsim/json/json_reader.h"
#include "allocsim/trace/format/trace_format.h"
#include "allocsim/util/error.h"

namespace allocsim::cli {

namespace fs = std::filesystem;

namespace {

void require_file(const std::string& path) {
  std::error_code error;
  if (!fs::exists(path, error)) throw InputError(path + ": no such file");
  if (!fs::is_regular_file(path, error)) throw InputError(path + ": not a file");
}

std::string absolute_text(const fs::path& path) { return fs::absolute(path).lexically_normal().string(); }

// The file paths of a trace object read from `argument`, absolute.
void resolve_paths(nlohmann::json& trace, const std::string& argument) {
  for (const char* key : {"path", "names_from"}) {
    const auto path = trace.find(key);
    if (path == trace.end() || !path->is_string()) continue;
    const fs::path given = path->get<std::string>();
    if (given.is_relative()) *path = absolute_text(fs::absolute(argument).parent_path() / given);
  }
}

}  // namespace

nlohmann::json trace_argument(const std::string& argument, const std::string& names_from) {
  require_file(argument);
  nlohmann::json trace;
  if (fs::path(argument).extension() != ".json") {
    detect_trace_format(argument);  // a file in no trace format is refused by its own name here
    trace = {{"kind", "file"}, {"path", absolute_text(argument)}};
  } else {
    trace = parse_json_file(argument);
    if (!trace.is_object()) throw InputError(argument + ": $: expected a trace object");
    trace.erase("description");
    resolve_paths(trace, argument);
  }
  if (!names_from.empty()) {
    require_file(names_from);
    if (trace.contains("names_from")) {
      throw InputError(argument + ": $.names_from: already set, and --names-from names another file");
    }
    trace["names_from"] = absolute_text(names_from);
  }
  return trace;
}

InputPaths trace_argument_inputs(const std::string& argument, const TraceSource& source) {
  InputPaths inputs{argument};
  for (const std::string& file : trace_source_files(source)) inputs.add(file);
  return inputs;
}

}  // namespace allocsim::cli
