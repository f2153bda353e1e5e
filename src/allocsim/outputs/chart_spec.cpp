#include "allocsim/outputs/chart_spec.h"

#include <algorithm>
#include <set>

#include "allocsim/format/csv_reader.h"
#include "allocsim/outputs/estimator_labels.h"
#include "allocsim/outputs/file_stem.h"
#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim {
namespace {

// A placeholder of a series title: "{rate}" or "{rate:bytes}".
struct Placeholder {
  std::size_t begin, end;  // [begin, end) in the template, braces included
  std::string column;
  Unit unit = Unit::none;
};

// Splits a title template; `fail` reports a malformed one.
template <class Fail>
std::vector<Placeholder> placeholders(const std::string& text, Fail fail) {
  std::vector<Placeholder> out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '}') fail("unmatched '}'");
    if (text[i] != '{') continue;
    const std::size_t close = text.find('}', i);
    if (close == std::string::npos) fail("unmatched '{'");
    const std::string inside = text.substr(i + 1, close - i - 1);
    Placeholder p{i, close + 1, inside, Unit::none};
    if (const auto colon = inside.find(':'); colon != std::string::npos) {
      p.column = inside.substr(0, colon);
      const auto unit = parse_unit(inside.substr(colon + 1));
      if (!unit) fail("unknown unit in {" + inside + "} (known: " + unit_names() + ")");
      p.unit = *unit;
    }
    out.push_back(p);
    i = close;
  }
  return out;
}

std::string require_column(const JsonValue& value, const std::vector<std::string>& columns, ResultSource source) {
  const std::string name = value.string();
  if (std::find(columns.begin(), columns.end(), name) == columns.end()) {
    value.fail(printable(name) + " is not a column of " + file_name(source) + " (columns: " + join_names(columns) +
               ")");
  }
  return name;
}

ResultSource parse_source(JsonObject& object) {
  auto v = object.maybe("source");
  if (!v) return ResultSource::metrics;
  const std::string name = v->string();
  if (const auto source = parse_result_source(name)) return *source;
  v->fail("unknown source " + printable(name) + " (known: metrics, intervals, profiles)");
}

Unit read_unit(const JsonValue& value) {
  const auto unit = parse_unit(value.string());
  if (!unit) value.fail("unknown unit " + printable(value.string()) + " (known: " + unit_names() + ")");
  return *unit;
}

LegendPosition read_legend(const JsonValue& value) {
  const std::string name = value.string();
  if (name == "top left") return LegendPosition::top_left;
  if (name == "top right") return LegendPosition::top_right;
  if (name == "bottom left") return LegendPosition::bottom_left;
  if (name == "bottom right") return LegendPosition::bottom_right;
  if (name == "outside") return LegendPosition::outside;
  value.fail("unknown legend position \"" + name +
             "\" (known: top left, top right, bottom left, bottom right, outside)");
}

// Reads the keys of one axis, prefixed "x_" or "y_" ("x", "x_label", "x_unit", "logx", ...).
ChartAxis parse_axis(JsonObject& object, const std::string& axis, const std::vector<std::string>& columns,
                     ResultSource source) {
  ChartAxis out;
  out.column = require_column(object.at(axis), columns, source);
  out.label = out.column;
  if (auto v = object.maybe(axis + "_label")) out.label = v->string();
  if (auto v = object.maybe(axis + "_unit")) out.unit = read_unit(*v);
  if (auto v = object.maybe("log" + axis)) out.log = v->boolean();
  if (auto v = object.maybe(axis + "_scale")) out.scale = v->positive_number();
  if (auto v = object.maybe(axis + "_min")) out.min = v->number();
  if (auto v = object.maybe(axis + "_max")) out.max = v->number();
  if (out.min && out.max && !(*out.min < *out.max)) {
    object.fail("\"" + axis + "_min\" must be less than \"" + axis + "_max\"");
  }
  if (out.log && out.min && *out.min <= 0) object.fail("\"" + axis + "_min\" must be > 0 on a log axis");
  return out;
}

ChartReference parse_reference(const JsonValue& value) {
  JsonObject object = value.object();
  ChartReference ref;
  if (auto v = object.maybe("x")) ref.x = v->number();
  if (auto v = object.maybe("y")) ref.y = v->number();
  if (auto v = object.maybe("label")) ref.label = v->string();
  if (auto v = object.maybe("label_offset")) {
    const auto pair = v->array();
    if (pair.size() != 2) v->fail("expected [dx, dy] in characters");
    ref.label_offset = std::make_pair(pair[0].number(), pair[1].number());
  }
  if (!ref.x && !ref.y) object.fail("needs \"x\", \"y\" or both");
  object.finish();
  return ref;
}

ChartSpec parse_chart(const JsonValue& value, const ResultColumns& files) {
  JsonObject object = value.object();
  ChartSpec spec;
  spec.path = object.path();
  JsonValue name = object.at("name");
  spec.name = name.string();
  if (!is_file_stem(spec.name)) name.fail("a chart name uses letters, digits, '-', '_' and '.' only");
  spec.title = object.at("title").string();
  spec.source = parse_source(object);
  const std::vector<std::string>& columns = files.at(spec.source);

  if (auto v = object.maybe("where")) spec.where = parse_row_filter(*v, columns);
  spec.x = parse_axis(object, "x", columns, spec.source);
  spec.y = parse_axis(object, "y", columns, spec.source);
  if (auto v = object.maybe("y_divide_by")) spec.y_divide_by = require_column(*v, columns, spec.source);
  if (auto v = object.maybe("series")) {
    if (v->is_array()) {
      for (const JsonValue& item : v->non_empty_array())
        spec.series.push_back(require_column(item, columns, spec.source));
    } else {
      spec.series.push_back(require_column(*v, columns, spec.source));
    }
  }
  if (auto v = object.maybe("series_title")) {
    if (spec.series.empty()) v->fail("needs \"series\"");
    spec.series_title = v->string();
    for (const auto& p : placeholders(spec.series_title, [&](const std::string& why) { v->fail(why); })) {
      if (std::find(spec.series.begin(), spec.series.end(), p.column) == spec.series.end()) {
        v->fail("{" + p.column + "} is not a series column (series: " + join_names(spec.series) + ")");
      }
    }
  }
  if (auto v = object.maybe("error")) spec.error = require_column(*v, columns, spec.source);
  if (auto v = object.maybe("theory")) spec.theory = require_column(*v, columns, spec.source);
  if (auto v = object.maybe("theory_form")) {
    if (!spec.theory.empty()) v->fail("give \"theory\" or \"theory_form\", not both");
    spec.theory_form = v->string();
    if (spec.theory_form != "poisson_mape") v->fail("the closed forms known here: \"poisson_mape\"");
    if (spec.x.column != "truth") v->fail("\"poisson_mape\" is a function of the truth: needs \"x\": \"truth\"");
    if (std::find(spec.series.begin(), spec.series.end(), "rate") == spec.series.end()) {
      v->fail("\"poisson_mape\" needs \"rate\" among the series columns (one line per rate)");
    }
  }
  if (auto v = object.maybe("theory_where")) {
    if (spec.theory.empty()) v->fail("needs \"theory\"");
    spec.theory_where = parse_row_filter(*v, columns);
  }
  if (auto v = object.maybe("points_title")) spec.points_title = v->string();
  if (auto v = object.maybe("theory_title")) {
    if (spec.theory.empty() && spec.theory_form.empty()) v->fail("needs \"theory\" or \"theory_form\"");
    spec.theory_title = v->string();
  }
  if (auto v = object.maybe("second_theory")) {
    if (spec.theory.empty()) v->fail("needs \"theory\"");
    spec.second_theory = require_column(*v, columns, spec.source);
  }
  if (auto v = object.maybe("second_theory_times")) {
    if (spec.second_theory.empty()) v->fail("needs \"second_theory\"");
    spec.second_theory_times = require_column(*v, columns, spec.source);
  }
  if (auto v = object.maybe("second_theory_title")) {
    if (spec.second_theory.empty()) v->fail("needs \"second_theory\"");
    spec.second_theory_title = v->string();
  }
  if (auto v = object.maybe("point_every")) spec.point_every = v->positive_uint();
  if (auto v = object.maybe("join_points")) spec.join_points = v->boolean();
  if (auto v = object.maybe("skip_when_empty")) spec.skip_when_empty = v->boolean();
  if (auto v = object.maybe("legend")) spec.legend = read_legend(*v);
  if (auto v = object.maybe("references")) {
    for (const JsonValue& item : v->array()) spec.references.push_back(parse_reference(item));
  }
  object.finish();
  return spec;
}

}  // namespace

std::vector<ChartSpec> parse_charts(const JsonValue& charts, const ResultColumns& files) {
  std::vector<ChartSpec> specs;
  std::set<std::string> names;
  for (const JsonValue& item : charts.array()) {
    specs.push_back(parse_chart(item, files));
    if (!names.insert(specs.back().name).second) {
      throw InputError(specs.back().path + ".name: chart name " + printable(specs.back().name) + " is used twice");
    }
  }
  return specs;
}

std::string series_label(const ChartSpec& spec, const std::vector<std::string>& values,
                         const EstimatorWords& estimator_words) {
  auto value_of = [&](const std::string& column, Unit unit) {
    const auto at = std::find(spec.series.begin(), spec.series.end(), column) - spec.series.begin();
    const std::string& cell = values[static_cast<std::size_t>(at)];
    if (column == "estimator") return estimator_label_or_name(cell, estimator_words);
    const auto number = parse_cell_number(cell);
    return number && unit != Unit::none ? format_value(*number, unit) : cell;
  };
  if (spec.series_title.empty()) {
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) {
      out += (out.empty() ? "" : ", ") +
             (spec.series[i] == "estimator" ? estimator_label_or_name(values[i], estimator_words) : values[i]);
    }
    return out;
  }
  std::string out;
  std::size_t at = 0;
  const auto parts = placeholders(spec.series_title, [](const std::string& why) -> void { throw InputError(why); });
  for (const auto& p : parts) {
    out += spec.series_title.substr(at, p.begin - at) + value_of(p.column, p.unit);
    at = p.end;
  }
  return out + spec.series_title.substr(at);
}

}  // namespace allocsim
