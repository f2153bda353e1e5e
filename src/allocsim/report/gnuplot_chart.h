#pragma once
// Renders one chart of a results directory: charts/NAME.dat and charts/NAME.gp
// (kept, for users to tweak and re-run), then charts/NAME.png and charts/NAME.svg,
// each written under a temporary name by gnuplot and renamed into place. The
// charts/ directory is that of `out_dir`: the results directory itself, or a
// staging directory whose files are moved into it later (figures.h, redraw_figures).
#include <string>

#include "allocsim/format/csv_reader.h"
#include "allocsim/outputs/chart_spec.h"

namespace allocsim {

struct ChartFiles {
  std::string png, svg, script, data;
};

// `table` is the file `source_file` of `results_dir` (e.g. "metrics.csv" or
// "sites.csv"), already read.
ChartFiles render_chart(const ChartSpec& spec, const CsvTable& table, const std::string& results_dir,
                        const std::string& source_file, const std::string& out_dir);

}  // namespace allocsim
