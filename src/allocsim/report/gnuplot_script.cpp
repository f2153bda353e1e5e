#include "allocsim/report/gnuplot_script.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "allocsim/format/csv.h"
#include "allocsim/report/axis_ticks.h"

namespace allocsim {
namespace {

// Okabe-Ito: distinguishable with the common forms of colour blindness.
constexpr const char* kColors[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
// Filled and larger hollow marks alternate, so that series drawn on the same spot
// stay visible: circle, hollow square, triangle, hollow diamond, square, hollow triangle.
struct Mark {
  int type;
  double size;
};
constexpr Mark kMarks[] = {{7, 0.75}, {4, 1.3}, {9, 0.9}, {12, 1.5}, {5, 0.75}, {8, 1.3}};
constexpr const char* kReferenceColor = "#444444";
constexpr double kLogPadding = 1.1;

struct Range {
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  void add(double v, bool log) {
    if (!std::isfinite(v) || (log && v <= 0)) return;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  bool empty() const { return !(low <= high); }
};

std::string number(double v) { return std::isnan(v) ? "NaN" : format_number(v); }

std::string bars_note() { return " (bars: ±" + format_number(kErrorBarSigmas) + " SE)"; }

// The plotted range of an axis: the data's, unless the spec fixes an end (in chart
// units, times `display_factor`: 100 on a percent axis). A linear axis whose data
// start near zero starts at zero.
Range axis_range(const ChartAxis& axis, Range data, double display_factor) {
  if (axis.min) data.low = *axis.min * display_factor;
  if (axis.max) data.high = *axis.max * display_factor;
  if (!axis.min && !axis.log && data.low > 0 && data.low < 0.25 * data.high) data.low = 0;
  // A little room on a log axis, so that marks and ticks at the ends stay inside.
  if (axis.log && !data.empty()) {
    if (!axis.min) data.low /= kLogPadding;
    if (!axis.max) data.high *= kLogPadding;
  }
  return data;
}

std::string axis_commands(const std::string& name, const ChartAxis& axis, const Range& range, bool data_range_set,
                          int max_log_ticks) {
  // A label left at its default is the column's name, shown as written.
  std::string out = "set " + name + "label " + gnuplot_quote(axis.label, axis.label == axis.column) + "\n";
  if (axis.log) out += "set logscale " + name + (axis.unit == Unit::bytes ? " 2" : " 10") + "\n";
  if (data_range_set) {
    out += "set " + name + "range [" + number(range.low) + ":" + number(range.high) + "]\n";
  } else if (axis.min || axis.max) {
    out += "set " + name + "range [" + (axis.min ? number(range.low) : "*") + ":" +
           (axis.max ? number(range.high) : "*") + "]\n";
  }
  switch (axis.unit) {
    case Unit::bytes: {
      if (range.empty()) break;
      std::string tics;
      for (const Tick& t : byte_ticks(range.low, range.high, axis.log, max_log_ticks)) {
        tics += (tics.empty() ? "" : ", ") + gnuplot_quote(t.label, true) + " " + number(t.value);
      }
      out += "set " + name + "tics (" + tics + ")\n";
      break;
    }
    case Unit::percent: out += "set format " + name + " '%g%%'\n"; break;
    case Unit::fraction: out += "set format " + name + " '%g'\n"; break;
    case Unit::none:
      if (axis.log) {
        const bool wide = !range.empty() && range.high / range.low >= 100;
        out += "set format " + name + (wide ? " '10^{%L}'" : " '%g'") + "\n";
      }
      break;
  }
  return out;
}

const char* legend_position(LegendPosition p) {
  switch (p) {
    case LegendPosition::top_left: return "inside top left";
    case LegendPosition::top_right: return "inside top right";
    case LegendPosition::bottom_left: return "inside bottom left";
    case LegendPosition::bottom_right: return "inside bottom right";
    case LegendPosition::outside: return "outside right top";
  }
  return "inside bottom right";
}

// A label sits right of its mark, or left of it in the right part of the chart,
// unless the reference says where.
std::string label_side(const ChartReference& ref, const ChartAxis& axis, const Range& range, double x) {
  const double at = range.empty() ? 0
                    : axis.log    ? (std::log(x) - std::log(range.low)) / (std::log(range.high) - std::log(range.low))
                                  : (x - range.low) / (range.high - range.low);
  const bool right = at > 0.6;
  const auto [dx, dy] = ref.label_offset.value_or(std::make_pair(right ? -1.6 : 1.6, -0.6));
  return std::string(dx < 0 ? "right" : "left") + " offset " + number(dx) + ", " + number(dy);
}

std::string reference_commands(const ChartSpec& spec, const Range& x_range) {
  std::string out;
  const std::string color = std::string("lc rgb '") + kReferenceColor + "'";
  for (const ChartReference& ref : spec.references) {
    const std::string label = ref.label.empty() ? "" : gnuplot_quote(ref.label, false);
    if (ref.x && ref.y) {
      const std::string at = number(*ref.x) + ", " + number(displayed_y(spec, *ref.y));
      out += "set label " + (label.empty() ? "''" : label) + " at " + at + " " +
             label_side(ref, spec.x, x_range, *ref.x) + " point pt 6 ps 2.2 lw 2 " + color + " front\n";
    } else if (ref.x) {
      const std::string x = number(*ref.x);
      out += "set arrow from " + x + ", graph 0 to " + x + ", graph 1 nohead dt 2 lw 1.5 " + color + " back\n";
      // Along the line, reading upwards from the bottom, on its left.
      const auto [dx, dy] = ref.label_offset.value_or(std::make_pair(-1.0, 0.0));
      if (!label.empty()) {
        out += "set label " + label + " at " + x + ", graph 0.03 left rotate by 90 offset " + number(dx) + ", " +
               number(dy) + " front\n";
      }
    } else {
      const std::string y = number(displayed_y(spec, *ref.y));
      out +=
          "set arrow from graph 0, first " + y + " to graph 1, first " + y + " nohead dt 2 lw 1.5 " + color + " back\n";
      const auto [dx, dy] = ref.label_offset.value_or(std::make_pair(0.0, 0.7));
      if (!label.empty()) {
        out += "set label " + label + " at graph 0.02, first " + y + " offset " + number(dx) + ", " + number(dy) +
               " front\n";
      }
    }
  }
  return out;
}

// One legend entry per series (its points, or its line when it has no points);
// two black entries say which mark is which when there are several series.
// `zero_floor`: on a log y axis, where a Monte Carlo point of 0 is drawn (an open
// triangle at the axis floor, with its own legend entry); NaN when no point is 0.
std::string plot_command(const ChartSpec& spec, const ChartData& data, const std::string& data_file, bool has_errors,
                         bool has_theory, double zero_floor) {
  const bool single = data.series.size() == 1 && data.series[0].label.empty();
  // Without a closed form, thin lines join a series' points so that it can be followed.
  const bool join = spec.join_points.value_or(!has_theory);
  const std::string points_with = has_errors
                                      ? (join ? " using 1:2:3 with yerrorlines " : " using 1:2:3 with yerrorbars ")
                                      : (join ? " using 1:2 with linespoints " : " using 1:2 with points ");
  const std::string points_title = spec.points_title + (has_errors ? bars_note() : "");
  const std::string file = gnuplot_quote(data_file, false);
  std::vector<std::string> clauses;
  for (std::size_t i = 0; i < data.series.size(); ++i) {
    const ChartSeries& series = data.series[i];
    const std::string style = "ls " + std::to_string(i + 1);
    const std::string label = " title " + gnuplot_quote(series.label, true);
    if (!series.points.empty()) {
      clauses.push_back(file + " index " + std::to_string(2 * i) + points_with + style + (join ? " lw 1" : "") +
                        (single ? " title " + gnuplot_quote(points_title, false) : label));
    }
    if (!series.points.empty() && !std::isnan(zero_floor)) {
      clauses.push_back(file + " index " + std::to_string(2 * i) + " using 1:($2 <= 0 ? " + number(zero_floor) +
                        " : 1/0) with points " + style + " pt 10 ps 1.6 notitle");
    }
    if (!series.theory.empty()) {
      const std::string title = single                  ? " title " + gnuplot_quote(spec.theory_title, false)
                                : series.points.empty() ? label
                                                        : std::string(" notitle");
      clauses.push_back(file + " index " + std::to_string(2 * i + 1) + " using 1:2 with lines " + style + title);
    }
    // Second closed forms follow all series' blocks, dashed, named by the black entry below.
    if (!series.second_theory.empty()) {
      clauses.push_back(file + " index " + std::to_string(2 * data.series.size() + i) + " using 1:2 with lines " +
                        style + " dt 2 notitle");
    }
  }
  if (!single) {
    clauses.push_back("NaN with points pt 7 ps 0.75 lc rgb 'black' title " + gnuplot_quote(points_title, false));
    if (has_theory)
      clauses.push_back("NaN with lines lw 2 lc rgb 'black' title " + gnuplot_quote(spec.theory_title, false));
  }
  if (!std::isnan(zero_floor)) {
    clauses.push_back("NaN with points pt 10 ps 1.6 lc rgb 'black' title " + gnuplot_quote("0, at the floor", false));
  }
  if (!spec.second_theory.empty()) {
    clauses.push_back("NaN with lines lw 2 dt 2 lc rgb 'black' title " +
                      gnuplot_quote(spec.second_theory_title, false));
  }
  std::string plot = "plot ";
  for (std::size_t i = 0; i < clauses.size(); ++i) plot += (i ? ", \\\n     " : "") + clauses[i];
  return plot;
}

}  // namespace

std::string gnuplot_quote(const std::string& text, bool literal) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "''";
      continue;
    }
    if (literal && (c == '^' || c == '_' || c == '@' || c == '&' || c == '~' || c == '{' || c == '}')) out += '\\';
    out += c;
  }
  return out + "'";
}

namespace {

// The title as a gnuplot string expression: a long "subject: what" title on two lines
// ("subject:" then "what"), since one line centred over the plot runs off the canvas
// beside a legend placed outside it.
std::string title_expression(const std::string& title) {
  constexpr std::size_t kOneLine = 70;
  const std::size_t colon = title.find(": ");
  if (title.size() <= kOneLine || colon == std::string::npos) return gnuplot_quote(title, false);
  return gnuplot_quote(title.substr(0, colon + 1), false) + ".\"\\n\"." + gnuplot_quote(title.substr(colon + 2), false);
}

// The most byte ticks the x axis has room for. The canvas is 1100 px wide; a legend
// outside takes about 7.5 px per character of its widest entry (DejaVu Sans 12) plus
// 70 px of box and sample, the margins about 110 px, and a label such as "256 KiB"
// needs about 80 px with the gap to the next.
int x_tick_room(const ChartSpec& spec, const std::string& plot) {
  if (spec.legend != LegendPosition::outside) return kMaxLogTicks;
  std::size_t widest = 0;  // characters of the longest " title '...'" of the plot command
  for (std::size_t at = plot.find(" title '"); at != std::string::npos; at = plot.find(" title '", at + 1)) {
    const std::size_t begin = at + 8, end = plot.find('\'', begin);
    if (end != std::string::npos) widest = std::max(widest, end - begin);
  }
  const double plot_width = 1100 - 110 - (7.5 * static_cast<double>(widest) + 70);
  return std::clamp(static_cast<int>(plot_width / 80), 4, kMaxLogTicks);
}

}  // namespace

std::string gnuplot_data(const ChartData& data) {
  std::string out;
  for (std::size_t s = 0; s < data.series.size(); ++s) {
    const ChartSeries& series = data.series[s];
    if (s > 0) out += "\n\n";
    out += "# series " + std::to_string(s) + " \"" + series.label + "\": Monte Carlo x, y, error bar half-width\n";
    for (const ChartPoint& p : series.points) out += number(p.x) + "\t" + number(p.y) + "\t" + number(p.error) + "\n";
    if (series.points.empty()) out += "NaN\tNaN\tNaN\n";
    out += "\n\n# series " + std::to_string(s) + " \"" + series.label + "\": closed form x, y\n";
    for (const ChartCurvePoint& p : series.theory) out += number(p.x) + "\t" + number(p.y) + "\n";
    if (series.theory.empty()) out += "NaN\tNaN\n";
  }
  for (std::size_t s = 0; s < data.series.size(); ++s) {
    const ChartSeries& series = data.series[s];
    if (series.second_theory.empty()) continue;
    out += "\n\n# series " + std::to_string(s) + " \"" + series.label + "\": second closed form x, y\n";
    for (const ChartCurvePoint& p : series.second_theory) out += number(p.x) + "\t" + number(p.y) + "\n";
  }
  return out;
}

std::string gnuplot_script(const ChartSpec& spec, const ChartData& data, const std::string& data_file,
                           const std::string& source) {
  Range x_data, y_data;
  bool has_errors = false, has_theory = false, has_zero = false;
  for (const ChartSeries& series : data.series) {
    for (const ChartPoint& p : series.points) {
      x_data.add(p.x, spec.x.log);
      y_data.add(p.y, spec.y.log);
      has_errors = has_errors || !std::isnan(p.error);
      has_zero = has_zero || p.y == 0;
    }
    for (const ChartCurvePoint& p : series.theory) {
      x_data.add(p.x, spec.x.log);
      y_data.add(p.y, spec.y.log);
      has_theory = true;
    }
    for (const ChartCurvePoint& p : series.second_theory) y_data.add(p.y, spec.y.log);
  }
  for (const ChartReference& ref : spec.references) {
    if (ref.x) x_data.add(*ref.x, spec.x.log);
    if (ref.y) y_data.add(displayed_y(spec, *ref.y), spec.y.log);
  }
  // A log axis has no 0: such points go on a floor a factor of 2 below the least
  // positive value (or just above a fixed minimum), marked apart, rather than vanish.
  double zero_floor = NAN;
  if (spec.y.log && has_zero && !y_data.empty()) {
    zero_floor = spec.y.min ? *spec.y.min * displayed_y(spec, 1) * 1.15 : y_data.low / 2;
    y_data.add(zero_floor, true);
  }
  const Range x_range = axis_range(spec.x, x_data, 1);
  const Range y_range = axis_range(spec.y, y_data, displayed_y(spec, 1));

  std::string s;
  s += "# " + spec.title + "\n";
  s += "# allocsim chart \"" + spec.name + "\" from " + source + "; data: " + data_file + ".\n";
  s += "# Re-render inside this directory with: gnuplot " + spec.name + ".gp\n";
  s += "if (!exists('png_file')) png_file = " + gnuplot_quote(spec.name + ".png", false) + "\n";
  s += "if (!exists('svg_file')) svg_file = " + gnuplot_quote(spec.name + ".svg", false) + "\n";
  s += "set encoding utf8\n";
  s += "set datafile separator '\\t'\n";
  s += "set title " + title_expression(spec.title) + " font ',15'\n";
  const std::string plot = plot_command(spec, data, data_file, has_errors, has_theory, zero_floor);
  s += axis_commands("x", spec.x, x_range, spec.x.unit == Unit::bytes && !x_range.empty(), x_tick_room(spec, plot));
  s += axis_commands("y", spec.y, y_range, spec.y.unit == Unit::bytes && !y_range.empty(), kMaxLogTicks);
  s += "set grid back lc rgb '#d4d4d4' lw 1\n";
  s += "set border lw 1.2\n";
  s += std::string("set key ") + legend_position(spec.legend) + " opaque box lw 1 samplen 2.5 spacing 1.15\n";
  s += "set bars 0.6\n";
  for (std::size_t i = 0; i < data.series.size(); ++i) {
    const Mark& mark = kMarks[i % std::size(kMarks)];
    s += "set style line " + std::to_string(i + 1) + " lc rgb '" + kColors[i % std::size(kColors)] + "' lw 2 pt " +
         std::to_string(mark.type) + " ps " + number(mark.size) + "\n";
  }
  s += reference_commands(spec, x_range);
  s += "set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'\n";
  s += "set output png_file\n";
  s += plot + "\n";
  s += "set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'\n";
  s += "set output svg_file\n";
  s += "replot\n";
  s += "set output\n";
  return s;
}

}  // namespace allocsim
