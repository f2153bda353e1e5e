#include "allocsim/report/advice_files.h"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <vector>

#include "allocsim/format/csv_reader.h"
#include "allocsim/outputs/chart_spec.h"
#include "allocsim/report/advice_html.h"
#include "allocsim/report/chart_data.h"
#include "allocsim/report/gnuplot_runner.h"
#include "allocsim/report/gnuplot_script.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/output_path.h"
#include "allocsim/util/parallel.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;

struct ChartColumns {
  std::string x, x_label;
  Unit x_unit = Unit::none;
  std::string y, y_label;
  bool log_y = true;
  std::string series;
};

// One chart of a CSV `file` in `dir`: y against x (log), a line per series value.
void render_chart_of(const CsvTable& table, const std::string& dir, const std::string& file, const std::string& name,
                     const std::string& title, const ChartColumns& columns) {
  ChartSpec spec;
  spec.path = "advise";
  spec.name = name;
  spec.title = title;
  spec.x.column = columns.x;
  spec.x.label = columns.x_label;
  spec.x.unit = columns.x_unit;
  spec.x.log = true;
  spec.y.column = columns.y;
  spec.y.label = columns.y_label;
  spec.y.log = columns.log_y;
  spec.series = {columns.series};
  spec.points_title = "closed form";
  spec.join_points = true;
  spec.legend = LegendPosition::outside;
  const fs::path charts = fs::path(dir) / "charts";
  create_output_directory(charts.string());
  const ChartData data = chart_data(spec, table, (fs::path(dir) / file).string());
  write_file_atomically((charts / (name + ".dat")).string(), gnuplot_data(data));
  write_file_atomically((charts / (name + ".gp")).string(), gnuplot_script(spec, data, name + ".dat", "../" + file));
  run_gnuplot(charts.string(), "png_file = '" + name + ".png'; svg_file = '" + name + ".svg'", name + ".gp");
}

// frontier.csv's charts: the error of the total, the variance against the optimum's
// and the samples spent off the optimal curve, each against samples per MB; a task
// each, which `table` outlives.
std::vector<std::function<void()>> frontier_charts(const std::string& dir, const std::string& subject,
                                                   const CsvTable& table) {
  const std::string per_mb = "expected samples per MB";
  auto chart = [&](std::string name, std::string title, ChartColumns columns) -> std::function<void()> {
    return [&table, dir, name, title = subject + title, columns] {
      render_chart_of(table, dir, "frontier.csv", name, title, columns);
    };
  };
  return {chart("frontier", ": accuracy-cost frontier, error of the total vs samples",
                {"samples_per_mb", per_mb, Unit::none, "total_relative_rmse", "relative RMSE of the total", true,
                 "scheme"}),
          chart("versus-optimum", ": variance of the total / the optimal size-class design's",
                {"samples_per_mb", per_mb, Unit::none, "variance_ratio_allocated",
                 "variance / optimum at the same expected samples", true, "scheme"}),
          chart("misplaced-samples", ": share of samples spent off the optimal p_Z curve",
                {"samples_per_mb", per_mb, Unit::none, "misplaced_samples_allocated", "(1/2) sum a_Z |p_Z - p*_Z| / P",
                 false, "scheme"})};
}

// probability-curves.csv's chart: P(sampled) by size for each scheme and the optimum.
std::function<void()> probability_curves_chart(const std::string& dir, const std::string& subject,
                                               const CsvTable& table, double curve_samples) {
  char title[120];
  std::snprintf(title, sizeof title, ": P(sampled) by size at %.0f expected samples, and the optimum's", curve_samples);
  return [&table, dir, title = subject + title] {
    render_chart_of(table, dir, "probability-curves.csv", "probability-curves", title,
                    {"size", "requested size", Unit::bytes, "probability", "P(sampled)", true, "curve"});
  };
}

}  // namespace

void write_advice_files(const std::string& dir, const std::string& subject, const AdviceFiles& files,
                        double curve_samples, unsigned threads) {
  write_file_atomically((fs::path(dir) / "frontier.csv").string(), files.frontier_csv);
  write_file_atomically((fs::path(dir) / "probability-curves.csv").string(), files.probability_curves_csv);
  write_file_atomically((fs::path(dir) / "advice.json").string(), files.json);
  write_file_atomically((fs::path(dir) / "advice.txt").string(), files.text);
  const CsvTable frontier = parse_csv(files.frontier_csv, dir + "/frontier.csv");
  const CsvTable curves = parse_csv(files.probability_curves_csv, dir + "/probability-curves.csv");
  std::vector<std::function<void()>> charts = frontier_charts(dir, subject, frontier);
  charts.push_back(probability_curves_chart(dir, subject, curves, curve_samples));
  run_tasks(charts, threads);  // a gnuplot each, side by side
  // Last: the page embeds the charts just drawn.
  write_file_atomically((fs::path(dir) / "report.html").string(),
                        advice_report_html(dir, subject, files.json, files.text));
}

}  // namespace allocsim
