#include "trace_argument.h"

#include <filesystem>

#include "allocsim/json/json_reader.h"
#include "allocsim/util/error.h"

namespace allocsim::cli {

namespace fs = std::filesystem;

nlohmann::json trace_argument(const std::string& argument) {
  std::error_code error;
  if (!fs::exists(argument, error)) throw InputError(argument + ": no such file");
  if (!fs::is_regular_file(argument, error)) throw InputError(argument + ": not a file");
  if (fs::path(argument).extension() != ".json") {
    return {{"kind", "file"}, {"path", fs::absolute(argument).lexically_normal().string()}};
  }
  nlohmann::json trace = parse_json_file(argument);
  if (!trace.is_object()) throw InputError(argument + ": $: expected a trace object");
  trace.erase("description");
  const auto path = trace.find("path");
  if (path != trace.end() && path->is_string()) {
    const fs::path given = path->get<std::string>();
    if (given.is_relative()) *path = (fs::absolute(argument).parent_path() / given).lexically_normal().string();
  }
  return trace;
}

}  // namespace allocsim::cli
