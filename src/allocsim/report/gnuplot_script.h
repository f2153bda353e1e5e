#pragma once
// The gnuplot files of one chart: the data (one block of Monte Carlo points and one
// of closed-form values per series) and a script that draws it to PNG and SVG.
// The script is meant to be edited and re-run by hand (`gnuplot NAME.gp` inside
// charts/); allocsim passes other output names with -e to write atomically.
#include <string>

#include "allocsim/outputs/chart_spec.h"
#include "allocsim/report/chart_data.h"

namespace allocsim {

// Block 2s holds series s's points (x, y, error half-width), block 2s+1 its closed
// form (x, y); blocks are separated by two blank lines (gnuplot's "index").
std::string gnuplot_data(const ChartData& data);

// `data_file` is the data's file name relative to the script; `source` names the
// results file in the script's comment.
std::string gnuplot_script(const ChartSpec& spec, const ChartData& data, const std::string& data_file,
                           const std::string& source);

// A gnuplot single-quoted string; `literal` also escapes enhanced-text markup
// (^ _ @ & ~ { }) so that the text shows as written.
std::string gnuplot_quote(const std::string& text, bool literal);

}  // namespace allocsim
