#include "allocsim/report/figures.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <system_error>

#include "allocsim/format/csv_reader.h"
#include "allocsim/report/chart_data.h"
#include "allocsim/report/gnuplot_chart.h"
#include "allocsim/report/table_writer.h"
#include "allocsim/scenario/result_files.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/output_path.h"
#include "allocsim/util/parallel.h"

namespace allocsim {

namespace {

namespace fs = std::filesystem;

// RESULTS_DIR's result file of `source`, refused when it is missing.
std::string existing_result_file(const std::string& results_dir, ResultSource source) {
  const std::string path = (fs::path(results_dir) / file_name(source)).string();
  if (!fs::exists(path)) {
    throw InputError(path +
                     ": missing (a chart or table reads it; intervals.csv exists only when a scheme "
                     "offers confidence intervals, profiles.csv when a stack, type or size_bucket group is evaluated)");
  }
  return path;
}

// A finished results directory may be redrawn only if allocsim wrote it, its charts/
// and tables/ are folders of its own (a link would lead the redrawn files elsewhere),
// and every result file a figure reads is there: checked before anything is drawn.
void check_redrawable(const std::string& results_dir, const FigureSpecs& specs) {
  if (!written_by_allocsim(results_dir)) {
    throw InputError(results_dir + ": not written by allocsim (no " + kResultsMarker +
                     " file in it, or it is a link); plot redraws only the results directories allocsim wrote");
  }
  for (const char* folder : {"charts", "tables"}) {
    std::error_code ec;
    const fs::file_type type = fs::symlink_status(fs::path(results_dir) / folder, ec).type();
    if (type != fs::file_type::not_found && type != fs::file_type::directory) {
      throw InputError((fs::path(results_dir) / folder).string() +
                       ": not a folder of the results directory (a link or a file); plot writes only inside it");
    }
  }
  for (const ChartSpec& chart : specs.charts) existing_result_file(results_dir, chart.source);
  for (const TableSpec& table : specs.tables) {
    if (table.kind == TableKind::results) existing_result_file(results_dir, table.source);
  }
}

}  // namespace

FigureSpecs figure_specs_from_summary(const std::string& results_dir) {
  const std::string path = (std::filesystem::path(results_dir) / "summary.json").string();
  if (!std::filesystem::exists(path)) {
    throw InputError(results_dir + ": not a results directory (no summary.json)");
  }
  const nlohmann::json summary = parse_json_file(path);
  FigureSpecs specs;
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
    const ResultColumns files = result_columns(sweep_names);
    if (auto v = root.maybe("charts")) specs.charts = parse_charts(*v, files);
    if (auto v = root.maybe("tables")) specs.tables = parse_tables(*v, files);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
  check_redrawable(results_dir, specs);
  return specs;
}

namespace {

// The figures of the result files in `results_dir`, written into charts/ and
// tables/ of `out_dir`.
std::vector<std::string> render_into(const FigureSpecs& specs, const std::string& results_dir,
                                     const std::string& out_dir, unsigned threads) {
  std::map<ResultSource, CsvTable> tables;
  auto source_table = [&](ResultSource source) -> const CsvTable& {
    auto it = tables.find(source);
    if (it == tables.end()) it = tables.emplace(source, read_csv_file(existing_result_file(results_dir, source))).first;
    return it->second;
  };
  // The tables read first, then each chart's gnuplot runs beside the others'. A chart
  // that may be empty (skip_when_empty) and is draws nothing.
  std::vector<const ChartSpec*> drawn;
  std::vector<const CsvTable*> chart_tables;
  for (const ChartSpec& chart : specs.charts) {
    const CsvTable& table = source_table(chart.source);
    if (chart.skip_when_empty && !selects_rows(chart, table)) continue;
    drawn.push_back(&chart);
    chart_tables.push_back(&table);
  }
  std::vector<ChartFiles> charts(drawn.size());
  parallel_for(charts.size(), threads,
               [&](std::size_t i, unsigned /*worker*/) {
                 const ChartSpec& chart = *drawn[i];
                 charts[i] = render_chart(chart, *chart_tables[i], results_dir, file_name(chart.source), out_dir);
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
        write_table(table, table.kind == TableKind::results ? source_table(table.source) : none, results_dir, out_dir));
  }
  return written;
}

// A directory of this process inside `results_dir`, for redraw_figures.
std::string staging_directory(const std::string& results_dir) {
  static std::atomic<unsigned> redraws{0};
  return (fs::path(results_dir) / (".redraw." + std::to_string(::getpid()) + "." + std::to_string(redraws++))).string();
}

}  // namespace

std::vector<std::string> render_figures(const FigureSpecs& specs, const std::string& results_dir, unsigned threads) {
  return render_into(specs, results_dir, results_dir, threads);
}

std::vector<std::string> redraw_figures(const FigureSpecs& specs, const std::string& results_dir, unsigned threads) {
  const std::string staging = staging_directory(results_dir);
  // Created while an interrupt is held back, so that an interrupt removes it whole.
  RemovedOnInterrupt removed_on_interrupt(staging, [&] {
    std::error_code ec;
    if (!fs::create_directory(staging, ec) || ec) {
      throw InputError(staging + ": cannot create directory: " + (ec ? ec.message() : "exists; remove it"));
    }
  });
  std::vector<std::string> written;
  try {
    for (const std::string& file : render_into(specs, results_dir, staging, threads)) {
      written.push_back(results_dir + file.substr(staging.size()));
    }
    // Every figure rendered: their files into place, a rename each.
    std::vector<fs::path> staged;
    for (const auto& entry : fs::recursive_directory_iterator(staging)) {
      if (entry.is_regular_file()) staged.push_back(fs::relative(entry.path(), staging));
    }
    for (const fs::path& file : staged) {
      const fs::path target = fs::path(results_dir) / file;
      create_output_directory(target.parent_path().string());
      std::error_code ec;
      fs::rename(fs::path(staging) / file, target, ec);
      if (ec) throw InputError(target.string() + ": cannot rename the redrawn file into place: " + ec.message());
    }
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(staging, ignored);  // this process's own directory
    throw;
  }
  std::error_code ignored;
  fs::remove_all(staging, ignored);  // its emptied charts/ and tables/
  return written;
}

}  // namespace allocsim
