#pragma once
// Renders one chart of a results directory: charts/NAME.dat and charts/NAME.gp
// (kept, for users to tweak and re-run), then charts/NAME.png and charts/NAME.svg,
// each written under a temporary name by gnuplot and renamed into place.
#include <string>

#include "allocsim/format/csv_reader.h"
#include "allocsim/outputs/chart_spec.h"

namespace allocsim {

struct ChartFiles {
  std::string png, svg, script, data;
};

// `table` is the spec's source file of `results_dir`, already read; `source_file`
// names it when it is none of the scenario result files (e.g. "sites.csv").
ChartFiles render_chart(const ChartSpec& spec, const CsvTable& table, const std::string& results_dir,
                        const std::string& source_file = "");

}  // namespace allocsim
