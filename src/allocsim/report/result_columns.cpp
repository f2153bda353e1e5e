#include "allocsim/report/result_columns.h"

#include "allocsim/report/csv_reader.h"
#include "allocsim/report/results_writer.h"

namespace allocsim {

const char* file_name(ResultSource source) {
  return source == ResultSource::metrics ? "metrics.csv" : "intervals.csv";
}

std::vector<std::string> result_columns(ResultSource source, const std::vector<std::string>& sweep_names) {
  Scenario shape;
  for (const auto& name : sweep_names) shape.sweep.push_back({name, {}});
  const ScenarioResult no_rows;
  const std::string header =
      source == ResultSource::metrics ? metrics_csv(shape, no_rows) : intervals_csv(shape, no_rows);
  return parse_csv(header, file_name(source)).columns;
}

}  // namespace allocsim
