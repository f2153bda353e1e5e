#include "allocsim/report/results_writer.h"

#include <filesystem>

#include "allocsim/format/csv.h"
#include "allocsim/outputs/result_columns.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/json_text.h"

namespace allocsim {
namespace {

std::string header(ResultSource source, const Scenario& scenario) {
  std::vector<std::string> sweep_names;
  for (const auto& v : scenario.sweep) sweep_names.push_back(v.name);
  return result_header(source, sweep_names);
}

std::string sweep_values(const Scenario& scenario, std::size_t point) {
  std::string out;
  for (const auto& value : scenario.points[point].values) out += format_sweep_value(value) + ",";
  return out;
}

std::string optional_number(const std::optional<double>& x) {
  return x ? format_number(*x) : std::string();
}

nlohmann::ordered_json number_or_null(double x) {
  return std::isnan(x) ? nlohmann::ordered_json() : nlohmann::ordered_json(x);
}

}  // namespace

std::string metrics_csv(const Scenario& scenario, const ScenarioResult& result) {
  std::string out = header(ResultSource::metrics, scenario);
  for (const MetricRow& row : result.rows) {
    const Metrics& m = row.metrics;
    out += sweep_values(scenario, row.point);
    out += csv_field(row.scheme) + "," + csv_field(row.estimator) + "," + to_string(row.group_kind) +
           "," + csv_field(row.group) + "," + std::to_string(m.replications) + ",";
    for (double x : {m.truth, m.mean, m.bias, m.rel_bias, m.sd, m.se_bias, m.rmse, m.mape, m.cmape,
                     m.p_any_sample, m.var, m.se_var, m.se_mape, m.se_cmape, m.se_p_any_sample}) {
      out += format_number(x) + ",";
    }
    out += std::to_string(m.replications_with_sample) + ",";
    out += optional_number(m.theory.bias) + "," + optional_number(m.theory.var) + "," +
           optional_number(m.theory.mape) + "," + optional_number(m.theory.cmape) + "," +
           optional_number(m.theory.p_any_sample) + "\n";
  }
  return out;
}

std::string intervals_csv(const Scenario& scenario, const ScenarioResult& result) {
  std::string out = header(ResultSource::intervals, scenario);
  for (const IntervalRow& row : result.interval_rows) {
    const IntervalMetrics& m = row.metrics;
    out += sweep_values(scenario, row.point) + csv_field(row.scheme) + "," + csv_field(row.estimator) + "," +
           csv_field(row.interval) + "," + format_number(m.level) + "," + to_string(row.group_kind) + "," +
           csv_field(row.group) + "," + std::to_string(m.replications);
    for (double x : {m.truth, m.coverage, m.se_coverage, m.miss_low, m.miss_high, m.mean_width, m.rel_width}) {
      out += ',';
      out += format_number(x);
    }
    out += "\n";
  }
  return out;
}

std::string profiles_csv(const Scenario& scenario, const ScenarioResult& result) {
  std::string out = header(ResultSource::profiles, scenario);
  for (const ProfileRow& row : result.profile_rows) {
    out += sweep_values(scenario, row.point) + csv_field(row.scheme) + "," + csv_field(row.estimator) + "," +
           to_string(row.group_kind) + "," + std::to_string(row.groups) + "," + std::to_string(row.replications) +
           "," + format_number(row.mean_distance) + "," + format_number(row.se_distance) + "," +
           format_number(row.mean_groups_seen) + "\n";
  }
  return out;
}

std::string estimates_csv(const Scenario& scenario, const ScenarioResult& result) {
  std::string out;
  for (const auto& v : scenario.sweep) out += csv_field(v.name) + ",";
  out += "scheme,estimator,replication,truth,estimate\n";
  for (const auto& series : result.estimates) {
    const std::string prefix = sweep_values(scenario, series.point) + csv_field(series.scheme) + "," +
                               csv_field(series.estimator) + ",";
    const std::string truth = format_number(series.truth);
    for (std::size_t r = 0; r < series.estimates.size(); ++r) {
      out += prefix + std::to_string(r) + "," + truth + "," + format_number(series.estimates[r]) + "\n";
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
    checks.push_back({{"expectation", o.name}, {"row", o.row}, {"value", number_or_null(o.value)},
                      {"bound", o.bound}, {"passed", o.passed}});
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
    if (const auto* file = std::get_if<FileTraceSpec>(&point.trace.spec)) inputs.add(file->path);
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
