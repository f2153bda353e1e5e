#pragma once
// A scenario's figures: its charts (gnuplot_chart.h) and tables (table_writer.h),
// rendered from the result files of its results directory, so that they can be
// redrawn at any time without re-running (`allocsim plot`).
#include <string>
#include <vector>

#include "allocsim/outputs/chart_spec.h"
#include "allocsim/outputs/table_spec.h"

namespace allocsim {

struct FigureSpecs {
  std::vector<ChartSpec> charts;
  std::vector<TableSpec> tables;
};

// Reads "charts" and "tables" from the resolved scenario in RESULTS_DIR/summary.json,
// for redraw_figures: refused (InputError) unless allocsim wrote RESULTS_DIR (its
// marker file), its charts/ and tables/ are folders of its own, not links, and every
// result file a figure reads is there.
FigureSpecs figure_specs_from_summary(const std::string& results_dir);

// Renders every chart and table into `results_dir`, the charts on up to `threads`
// threads (a gnuplot each); returns the files written (PNG, SVG, Markdown), in the
// specs' order. For a directory being written (a staged results directory).
std::vector<std::string> render_figures(const FigureSpecs& specs, const std::string& results_dir, unsigned threads);

// The same for a finished results directory (`allocsim plot`), all or nothing: the
// figures are rendered into a directory of this process inside `results_dir`, and
// only when every one has succeeded are their files renamed into charts/ and
// tables/; on a failure the old figures stay as they were. Files of charts/ and
// tables/ that no spec names are left alone.
std::vector<std::string> redraw_figures(const FigureSpecs& specs, const std::string& results_dir, unsigned threads);

}  // namespace allocsim
