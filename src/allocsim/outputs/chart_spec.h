#pragma once
// A chart described in a scenario's "charts" array: which result column is plotted
// against which, split into which series, with which closed-form column drawn over
// the Monte Carlo points. Rendering is gnuplot_chart.h's job.
//
//   {"name": "p-any-sample", "title": "P(at least one sample) vs allocation size",
//    "where": {"scheme": "poisson", "estimator": "bytes"},
//    "x": "size", "x_unit": "bytes", "x_label": "allocation size",
//    "y": "p_any_sample", "y_unit": "percent", "y_label": "P(≥ 1 sample)",
//    "error": "se_p_any_sample", "theory": "theory_p_any_sample",
//    "series": "rate", "series_title": "T = {rate:bytes}",
//    "references": [{"x": 1572864, "y": 0.95, "label": "document: 95% at 1.5 MiB"}]}
//
// Monte Carlo points carry error bars of ±2 standard errors (the "error" column);
// the theory column is drawn as a line per series. "theory_where" draws the lines
// from other rows than the points (e.g. the ideal sampler's closed form under a
// real system's measurements). "second_theory" draws a second closed-form column
// from the same rows as dashed lines, optionally times "second_theory_times" (e.g. a
// document's curve beside the true one). "theory_form" draws a closed form the engine
// computes from each row instead of a column ("poisson_mape": the ideal per-byte
// sampler's typical error at the row's truth and rate). Every column is checked against the result
// file's header when the scenario is read.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/json/json_reader.h"
#include "allocsim/outputs/estimator_labels.h"
#include "allocsim/outputs/result_columns.h"
#include "allocsim/outputs/row_filter.h"
#include "allocsim/outputs/value_format.h"

namespace allocsim {

// Chart units: a column's values times `scale` (and, for y, divided by
// "y_divide_by"). Axis limits and references are given in chart units; a percent
// axis shows them x100 (a fraction 0.95 is drawn as 95%).
struct ChartAxis {
  std::string column;
  std::string label;  // default: the column name
  Unit unit = Unit::none;
  bool log = false;
  double scale = 1;
  std::optional<double> min, max;
};

// A document's claim drawn on the chart: a marked point (x and y), a vertical
// line (x only) or a horizontal line (y only), with an optional label.
struct ChartReference {
  std::optional<double> x, y;
  std::string label;
  // Moves the label from its default place, in character widths and heights.
  std::optional<std::pair<double, double>> label_offset;
};

enum class LegendPosition { top_left, top_right, bottom_left, bottom_right, outside };

struct ChartSpec {
  std::string path;  // "$.charts[2]", for errors found while rendering
  std::string name;  // file stem under charts/
  std::string title;
  ResultSource source = ResultSource::metrics;
  RowFilter where;
  ChartAxis x, y;
  std::string y_divide_by;                // a column dividing y, its error and theory; empty = none
  std::vector<std::string> series;        // columns whose value combinations are the series
  std::string series_title;               // "T = {rate:bytes}"; default: the values, comma separated
  std::string error;                      // standard-error column; empty = no error bars
  std::string theory;                     // closed-form column; empty = no lines
  std::optional<RowFilter> theory_where;  // rows the lines come from, if not the points' rows
  // A closed form the engine knows, computed per row instead of read from a column:
  // "poisson_mape", the ideal per-byte (Poisson) sampler's typical error E|N - l| / l
  // with N ~ Poisson(l), l = x / rate (estimate/count_theory.h), x the truth in bytes
  // and rate the row's "rate" column, which must be a series column. Empty = none.
  std::string theory_form;
  std::string points_title = "Monte Carlo";
  std::string theory_title = "closed form";
  std::string second_theory;        // a second closed-form column; empty = none
  std::string second_theory_times;  // a column multiplying it; empty = none
  std::string second_theory_title = "second closed form";
  std::size_t point_every = 1;      // plot every n-th Monte Carlo point of a series
  std::optional<bool> join_points;  // thin lines between a series' points; default: when no theory;
                                    // false also lets points share an x (a scatter)
  LegendPosition legend = LegendPosition::bottom_right;
  std::vector<ChartReference> references;
  // When "where" selects no rows: false, an error (a filter that matches nothing is
  // a mistake); true, no chart, said in the report (a chart of stacks in a window
  // where no stack holds bytes, as `evaluate` builds for any trace).
  bool skip_when_empty = false;
};

// Reads a scenario's "charts" array; `files` holds the columns of each result file
// (its sweep variables among them). Errors name the JSON path.
std::vector<ChartSpec> parse_charts(const JsonValue& charts, const ResultColumns& files);

// "T = {rate:bytes}" with the series' values; `values` are in spec.series order.
// An estimator is named by its human label (outputs/estimator_labels.h), its words
// from `estimator_words`.
std::string series_label(const ChartSpec& spec, const std::vector<std::string>& values,
                         const EstimatorWords& estimator_words);

}  // namespace allocsim
