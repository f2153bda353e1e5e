#include "allocsim/report/results_writer.h"

#include <filesystem>
#include <variant>

#include "allocsim/format/csv.h"
#include "allocsim/stats/result_tables.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/json_text.h"

namespace allocsim {
namespace {

// A value as result files write it: text as a CSV field, a number as format_number
// gives it, an absent number as nothing.
std::string csv_cell(const Cell& cell) {
  if (const auto* text = std::get_if<std::string_view>(&cell)) return csv_field(*text);
  if (const auto* count = std::get_if<std::uint64_t>(&cell)) return std::to_string(*count);
  if (const auto* number = std::get_if<double>(&cell)) return format_number(*number);
  const std::optional<double>& maybe = std::get<std::optional<double>>(cell);
  return maybe ? format_number(*maybe) : std::string();
}

std::vector<std::string> sweep_names(const Scenario& scenario) {
  std::vector<std::string> names;
  for (const auto& v : scenario.sweep) names.push_back(v.name);
  return names;
}

template <class Row>
std::string header_line(const Scenario& scenario, ResultTable<Row> table) {
  std::string line;
  for (const std::string& name : file_columns(sweep_names(scenario), table)) {
    if (!line.empty()) line += ',';
    line += csv_field(name);
  }
  return line + "\n";
}

// One line: the row's sweep values, then its cells.
template <class Row>
void append_line(std::string& out, const Scenario& scenario, ResultTable<Row> table, const Row& row) {
  for (const auto& value : scenario.points[row.point].values) out += format_sweep_value(value) + ",";
  for (std::size_t c = 0; c < table.size(); ++c) {
    if (c > 0) out += ',';
    out += csv_cell(table[c].get(row));
  }
  out += '\n';
}

template <class Row>
std::string table_csv(const Scenario& scenario, ResultTable<Row> table, const std::vector<Row>& rows) {
  std::string out = header_line(scenario, table);
  for (const Row& row : rows) append_line(out, scenario, table, row);
  return out;
}

nlohmann::ordered_json number_or_null(double x) {
  return std::isnan(x) ? nlohmann::ordered_json() : nlohmann::ordered_json(x);
}

}  // namespace

std::string metrics_csv(const Scenario& scenario, const ScenarioResult& result) {
  return table_csv(scenario, metric_table(), result.rows);
}

std::string intervals_csv(const Scenario& scenario, const ScenarioResult& result) {
  return table_csv(scenario, interval_table(), result.interval_rows);
}

std::string profiles_csv(const Scenario& scenario, const ScenarioResult& result) {
  return table_csv(scenario, profile_table(), result.profile_rows);
}

std::string estimates_csv(const Scenario& scenario, const ScenarioResult& result) {
  std::string out = header_line(scenario, estimate_table());
  for (const ReplicationEstimates& series : result.estimates) {
    for (std::size_t r = 0; r < series.estimates.size(); ++r) {
      append_line(out, scenario, estimate_table(),
                  EstimateRow{series.point, series.scheme, series.estimator, r, series.truth, series.estimates[r]});
    }
  }
  return out;
}

std::string summary_json(const Scenario& scenario, const ScenarioResult& result,
                         const std::vector<ExpectationOutcome>& outcomes) {
  nlohmann::ordered_json resolved = scenario.document;
  resolved["seed"] = scenario.seed;
  resolved["replications"] = scenario.replications;
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (std::size_t p = 0; p < scenario.points.size(); ++p) {
    nlohmann::ordered_json values = nlohmann::ordered_json::object();
    for (std::size_t v = 0; v < scenario.sweep.size(); ++v) {
      values[scenario.sweep[v].name] = nlohmann::ordered_json::parse(json_text(scenario.points[p].values[v]));
    }
    const TraceTotals& t = result.traces[p];
    points.push_back({{"sweep", values},
                      {"trace",
                       {{"allocations", t.allocations},
                        {"requested_bytes", t.requested_bytes},
                        {"live_allocations", t.live_allocations},
                        {"live_requested_bytes", t.live_requested_bytes},
                        {"threads", t.threads},
                        {"stacks", t.stacks},
                        {"types", t.types}}}});
  }
  nlohmann::ordered_json checks = nlohmann::ordered_json::array();
  for (const auto& o : outcomes) {
    checks.push_back({{"expectation", o.name},
                      {"row", o.row},
                      {"value", number_or_null(o.value)},
                      {"bound", o.bound},
                      {"passed", o.passed}});
  }
  nlohmann::ordered_json summary = {
      {"allocsim_version", ALLOCSIM_VERSION},
      {"scenario", scenario.name},
      {"source", scenario.source},
      {"seed", scenario.seed},
      {"replications", scenario.replications},
      {"threads", result.threads},
      {"wall_seconds", result.wall_seconds},
      {"metric_rows", result.rows.size()},
      {"interval_rows", result.interval_rows.size()},
      {"profile_rows", result.profile_rows.size()},
      {"points", points},
      {"expectations", checks},
      {"resolved_scenario", resolved},
  };
  return json_text(summary, 2) + "\n";
}

std::string results_directory(const std::string& out_root, const Scenario& scenario) {
  return (std::filesystem::path(out_root) / scenario.outputs.directory).string();
}

InputPaths scenario_inputs(const Scenario& scenario) {
  InputPaths inputs;
  inputs.add(scenario.source);
  for (const SweepPoint& point : scenario.points) {
    for (const std::string& file : trace_source_files(point.trace)) inputs.add(file);
  }
  return inputs;
}

void write_result_files(const std::string& directory, const Scenario& scenario, const ScenarioResult& result,
                        const std::vector<ExpectationOutcome>& outcomes) {
  // summary.json is built first: it is the one file that can still fail (a name
  // that is not UTF-8), and then nothing has been written.
  const std::string summary = summary_json(scenario, result, outcomes);
  const std::string dir = directory + "/";
  write_file_atomically(dir + "metrics.csv", metrics_csv(scenario, result));
  if (!result.profile_rows.empty()) write_file_atomically(dir + "profiles.csv", profiles_csv(scenario, result));
  if (scenario.outputs.intervals && !result.interval_rows.empty()) {
    write_file_atomically(dir + "intervals.csv", intervals_csv(scenario, result));
  }
  if (scenario.outputs.estimates) write_file_atomically(dir + "estimates.csv", estimates_csv(scenario, result));
  write_file_atomically(dir + "summary.json", summary);
}

}  // namespace allocsim
