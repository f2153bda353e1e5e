#include "allocsim/report/result_columns.h"

#include "allocsim/report/csv_reader.h"
#include "allocsim/report/results_writer.h"

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

std::vector<std::string> result_columns(ResultSource source, const std::vector<std::string>& sweep_names) {
  Scenario shape;
  for (const auto& name : sweep_names) shape.sweep.push_back({name, {}});
  const ScenarioResult no_rows;
  std::string header;
  switch (source) {
    case ResultSource::metrics: header = metrics_csv(shape, no_rows); break;
    case ResultSource::intervals: header = intervals_csv(shape, no_rows); break;
    case ResultSource::profiles: header = profiles_csv(shape, no_rows); break;
  }
  return parse_csv(header, file_name(source)).columns;
}

}  // namespace allocsim
