#pragma once
// The numbers a chart shows, taken from a result table: one entry per series, with
// its Monte Carlo points (x, y, half-width of the error bar) and its closed-form
// curve, in plotting units (scales, divisions and percent applied), sorted by x.
#include <string>
#include <vector>

#include "allocsim/format/csv_reader.h"
#include "allocsim/outputs/chart_spec.h"

namespace allocsim {

// Error bars span this many standard errors each side.
inline constexpr double kErrorBarSigmas = 2;

struct ChartPoint {
  double x = 0;
  double y = 0;
  double error = 0;  // half-width of the bar; NaN when the chart has none
};

struct ChartCurvePoint {
  double x = 0;
  double y = 0;
};

struct ChartSeries {
  std::string label;
  std::vector<ChartPoint> points;
  std::vector<ChartCurvePoint> theory;
  std::vector<ChartCurvePoint> second_theory;  // from the same rows as theory
};

struct ChartData {
  std::vector<ChartSeries> series;
};

// `where` names the table in errors. Throws InputError when the selection is empty,
// a plotted cell is not a number, or two rows of a series share an x value.
ChartData chart_data(const ChartSpec& spec, const CsvTable& table, const std::string& where);

// True when the chart's "where" selects at least one row of `table`.
bool selects_rows(const ChartSpec& spec, const CsvTable& table);

// A y value in chart units (scaled and divided, like references and axis limits)
// as drawn: x100 on a percent axis.
double displayed_y(const ChartSpec& spec, double value);

}  // namespace allocsim
