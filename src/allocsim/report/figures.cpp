#include "allocsim/report/figures.h"

#include <filesystem>
#include <map>

#include "allocsim/format/csv_reader.h"
#include "allocsim/report/gnuplot_chart.h"
#include "allocsim/report/table_writer.h"
#include "allocsim/scenario/result_files.h"
#include "allocsim/util/error.h"
#include "allocsim/util/parallel.h"

namespace allocsim {

FigureSpecs figure_specs_from_summary(const std::string& results_dir) {
  const std::string path = (std::filesystem::path(results_dir) / "summary.json").string();
  if (!std::filesystem::exists(path)) {
    throw InputError(results_dir + ": not a results directory (no summary.json)");
  }
  const nlohmann::json summary = parse_json_file(path);
  try {
    if (!summary.is_object() || !summary.contains("resolved_scenario")) {
      throw InputError("no \"resolved_scenario\"");
    }
    const nlohmann::json& scenario = summary.at("resolved_scenario");
    JsonObject root(scenario, "$.resolved_scenario");
    std::vector<std::string> sweep_names;
    if (auto sweep = root.maybe("sweep")) {
      for (const auto& [name, unused] : sweep->raw().items()) sweep_names.push_back(name);
    }
    FigureSpecs specs;
    const ResultColumns files = result_columns(sweep_names);
    if (auto v = root.maybe("charts")) specs.charts = parse_charts(*v, files);
    if (auto v = root.maybe("tables")) specs.tables = parse_tables(*v, files);
    return specs;
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

std::vector<std::string> render_figures(const FigureSpecs& specs, const std::string& results_dir, unsigned threads) {
  std::map<ResultSource, CsvTable> tables;
  auto source_table = [&](ResultSource source) -> const CsvTable& {
    auto it = tables.find(source);
    if (it == tables.end()) {
      const std::string path = (std::filesystem::path(results_dir) / file_name(source)).string();
      if (!std::filesystem::exists(path)) {
        throw InputError(
            path + ": missing (a chart or table reads it; intervals.csv exists only when a scheme "
                   "offers confidence intervals, profiles.csv when a stack, type or size_bucket group is evaluated)");
      }
      it = tables.emplace(source, read_csv_file(path)).first;
    }
    return it->second;
  };
  // The tables read first, then each chart's gnuplot runs beside the others'.
  std::vector<const CsvTable*> chart_tables;
  for (const ChartSpec& chart : specs.charts) chart_tables.push_back(&source_table(chart.source));
  std::vector<ChartFiles> charts(specs.charts.size());
  parallel_for(charts.size(), threads,
               [&](std::size_t i, unsigned /*worker*/) {
                 charts[i] = render_chart(specs.charts[i], *chart_tables[i], results_dir);
               },
               {});
  std::vector<std::string> written;
  for (const ChartFiles& files : charts) {
    written.push_back(files.png);
    written.push_back(files.svg);
  }
  for (const TableSpec& table : specs.tables) {
    const CsvTable none;
    written.push_back(
        write_table(table, table.kind == TableKind::results ? source_table(table.source) : none, results_dir));
  }
  return written;
}

}  // namespace allocsim
