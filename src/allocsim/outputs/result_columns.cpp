#include "allocsim/outputs/result_columns.h"

namespace allocsim {

const char* file_name(ResultSource source) {
  switch (source) {
    case ResultSource::metrics: return "metrics.csv";
    case ResultSource::intervals: return "intervals.csv";
    case ResultSource::profiles: return "profiles.csv";
  }
  return "";
}

std::optional<ResultSource> parse_result_source(std::string_view name) {
  if (name == "metrics") return ResultSource::metrics;
  if (name == "intervals") return ResultSource::intervals;
  if (name == "profiles") return ResultSource::profiles;
  return std::nullopt;
}

}  // namespace allocsim
