// Chart and table specs in a scenario: a valid one is read in full, and every
// mistake is rejected before anything runs, with the JSON path of the culprit.
#include <gtest/gtest.h>

#include "allocsim/outputs/chart_spec.h"
#include "allocsim/outputs/table_spec.h"
#include "allocsim/scenario/scenario.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

// These series name no estimator: no words are asked for.
std::optional<std::string> no_words(std::string_view) { return std::nullopt; }

const std::string kChart = R"json({"name": "p", "title": "P(≥ 1 sample)",
  "where": {"scheme": "poisson", "rate": [1024, 4096]},
  "x": "size", "x_unit": "bytes", "logx": true, "x_label": "allocation size",
  "y": "p_any_sample", "y_unit": "percent", "y_min": 0, "y_max": 1,
  "error": "se_p_any_sample", "theory": "theory_p_any_sample",
  "series": "rate", "series_title": "T = {rate:bytes}", "point_every": 2, "legend": "top left",
  "references": [{"x": 1536, "y": 0.95, "label": "claim"}, {"x": 1024}, {"y": 0.5, "label_offset": [1, -2]}]})json";

// A scenario with the given "charts" (and optionally "tables") JSON arrays.
std::string scenario_with(const std::string& charts, const std::string& tables = "[]") {
  return R"({"name": "c", "replications": 10,
    "trace": {"allocations": 1, "sizes": {"distribution": "constant", "size": "$size"}},
    "schemes": [{"scheme": "poisson", "rate": "$rate"}],
    "sweep": {"rate": [1024, 4096], "size": [512, 2048]},
    "charts": )" +
         charts + R"(, "tables": )" + tables + "}";
}

std::string error_of(const std::string& charts, const std::string& tables = "[]") {
  try {
    parse_scenario(scenario_with(charts, tables), "s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

// The valid chart with `from` replaced by `to`.
std::string chart_variant(const std::string& from, const std::string& to) {
  std::string text = kChart;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return "[" + text.replace(at, from.size(), to) + "]";
}

TEST(ChartSpec, ValidChartIsReadInFull) {
  const Scenario s = parse_scenario(scenario_with("[" + kChart + "]"), "s.json");
  ASSERT_EQ(s.charts.size(), 1u);
  const ChartSpec& c = s.charts[0];
  EXPECT_EQ(c.path, "$.charts[0]");
  EXPECT_EQ(c.name, "p");
  EXPECT_EQ(c.source, ResultSource::metrics);
  EXPECT_EQ(c.x.column, "size");
  EXPECT_EQ(c.x.unit, Unit::bytes);
  EXPECT_TRUE(c.x.log);
  EXPECT_EQ(c.y.label, "p_any_sample");  // defaults to the column
  EXPECT_EQ(c.y.unit, Unit::percent);
  EXPECT_EQ(c.y.max, 1.0);
  EXPECT_EQ(c.error, "se_p_any_sample");
  EXPECT_EQ(c.theory, "theory_p_any_sample");
  EXPECT_EQ(c.series, std::vector<std::string>{"rate"});
  EXPECT_EQ(c.point_every, 2u);
  EXPECT_EQ(c.legend, LegendPosition::top_left);
  ASSERT_EQ(c.where.conditions.size(), 2u);
  ASSERT_EQ(c.references.size(), 3u);
  EXPECT_EQ(c.references[0].label, "claim");
  EXPECT_FALSE(c.references[1].y);
  EXPECT_EQ(c.references[2].label_offset, std::make_pair(1.0, -2.0));
  EXPECT_EQ(series_label(c, {"524288"}, no_words), "T = 512 KiB");
}

TEST(ChartSpec, SeriesLabels) {
  ChartSpec spec;
  spec.series = {"scheme", "rate"};
  EXPECT_EQ(series_label(spec, {"poisson", "1024"}, no_words), "poisson, 1024");
  spec.series_title = "{scheme} at {rate:bytes} ({rate})";
  EXPECT_EQ(series_label(spec, {"poisson", "1572864"}, no_words), "poisson at 1.5 MiB (1572864)");
}

TEST(ChartSpec, EachMistakeNamesItsPath) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {chart_variant("\"legend\"", "\"colour\": 1, \"legend\""), "s.json: $.charts[0].colour: unknown key"},
      {chart_variant("\"y\": \"p_any_sample\"", "\"y\": \"p_any\""),
       "s.json: $.charts[0].y: \"p_any\" is not a column of metrics.csv (columns: rate, size, scheme,"},
      {chart_variant("\"x\": \"size\"", "\"x\": \"coverage\""),
       "s.json: $.charts[0].x: \"coverage\" is not a column of metrics.csv"},
      {chart_variant("\"where\": {\"scheme\"", "\"where\": {\"schema\""),
       "s.json: $.charts[0].where.schema: \"schema\" is not a column"},
      {chart_variant("\"rate\": [1024, 4096]", "\"rate\": [[1]]"),
       "s.json: $.charts[0].where.rate: expected a string, a number or a list of them"},
      {chart_variant("{rate:bytes}", "{size}"), "s.json: $.charts[0].series_title: {size} is not a series column"},
      {chart_variant("{rate:bytes}", "{rate:kib}"), "s.json: $.charts[0].series_title: unknown unit in {rate:kib}"},
      {chart_variant("T = {rate", "T = rate"), "s.json: $.charts[0].series_title: unmatched '}'"},
      {chart_variant("\"x_unit\": \"bytes\"", "\"x_unit\": \"MiB\""),
       "s.json: $.charts[0].x_unit: unknown unit \"MiB\""},
      {chart_variant("\"y_min\": 0", "\"y_min\": 2"), "s.json: $.charts[0]: \"y_min\" must be less than \"y_max\""},
      {chart_variant("\"legend\": \"top left\"", "\"legend\": \"middle\""),
       "s.json: $.charts[0].legend: unknown legend position \"middle\""},
      {chart_variant("\"point_every\": 2", "\"point_every\": 0"), "s.json: $.charts[0].point_every: must be >= 1"},
      {chart_variant("{\"x\": 1024}", "{\"label\": \"floating\"}"),
       "s.json: $.charts[0].references[1]: needs \"x\", \"y\" or both"},
      {chart_variant("\"label_offset\": [1, -2]", "\"label_offset\": [1]"),
       "s.json: $.charts[0].references[2].label_offset: expected [dx, dy] in characters"},
      {chart_variant("\"name\": \"p\"", "\"name\": \"../p\""),
       "s.json: $.charts[0].name: a chart name uses letters, digits"},
      {chart_variant("\"title\": \"P(≥ 1 sample)\",", ""), "s.json: $.charts[0]: missing required key \"title\""},
      {chart_variant("\"theory\": \"theory_p_any_sample\",", "\"theory_where\": {\"scheme\": \"poisson\"},"),
       "s.json: $.charts[0].theory_where: needs \"theory\""},
      {chart_variant("\"theory\": \"theory_p_any_sample\"",
                     "\"theory\": \"theory_p_any_sample\", \"theory_form\": \"poisson_mape\""),
       "s.json: $.charts[0].theory_form: give \"theory\" or \"theory_form\", not both"},
      {chart_variant("\"theory\": \"theory_p_any_sample\"", "\"theory_form\": \"gauss\""),
       "s.json: $.charts[0].theory_form: the closed forms known here: \"poisson_mape\""},
      {chart_variant("\"theory\": \"theory_p_any_sample\"", "\"theory_form\": \"poisson_mape\""),
       "s.json: $.charts[0].theory_form: \"poisson_mape\" is a function of the truth: needs \"x\": \"truth\""},
      {"[" + kChart + ", " + kChart + "]", "s.json: $.charts[1].name: chart name \"p\" is used twice"},
      {"{}", "s.json: $.charts: expected an array"},
  };
  for (const auto& [charts, expected] : cases) {
    const std::string error = error_of(charts);
    EXPECT_EQ(error.rfind(expected, 0), 0u) << "expected: " << expected << "\n     got: " << error;
  }
}

TEST(ChartSpec, IntervalChartsReadIntervalColumns) {
  const std::string coverage = R"([{"name": "cov", "title": "coverage", "source": "intervals",
    "where": {"interval": "wald"}, "x": "rate", "y": "coverage", "error": "se_coverage", "series": ["estimator", "size"]}])";
  const Scenario s = parse_scenario(scenario_with(coverage), "s.json");
  EXPECT_EQ(s.charts[0].source, ResultSource::intervals);
  EXPECT_EQ(s.charts[0].series.size(), 2u);
  std::string on_metrics = coverage;
  on_metrics.erase(on_metrics.find("\"source\": \"intervals\","), 23);
  EXPECT_EQ(error_of(on_metrics).rfind("s.json: $.charts[0].where.interval: \"interval\" is not a column", 0), 0u)
      << error_of(on_metrics);
  std::string bad_source = coverage;
  bad_source.replace(bad_source.find("\"intervals\""), 11, "\"estimates\"");
  EXPECT_EQ(error_of(bad_source).rfind("s.json: $.charts[0].source: unknown source \"estimates\"", 0), 0u);
}

TEST(TableSpec, ResultTablesAndQuantileTables) {
  const std::string tables = R"([
    {"name": "t", "title": "T", "where": {"rate": 1024},
     "columns": ["scheme", {"column": "truth", "label": "bytes", "unit": "bytes"}]},
    {"name": "q", "title": "Q", "source": "nb_quantiles", "p": 0.001, "level": 0.9, "document": [[1, 2, 3]]}])";
  const Scenario s = parse_scenario(scenario_with("[]", tables), "s.json");
  ASSERT_EQ(s.tables.size(), 2u);
  EXPECT_EQ(s.tables[0].kind, TableKind::results);
  EXPECT_EQ(s.tables[0].columns[1].label, "bytes");
  EXPECT_EQ(s.tables[0].columns[1].unit, Unit::bytes);
  EXPECT_EQ(s.tables[1].kind, TableKind::nb_quantiles);
  EXPECT_EQ(s.tables[1].level, 0.9);
  ASSERT_EQ(s.tables[1].document.size(), 1u);
  EXPECT_EQ(s.tables[1].document[0].upper, 3.0);

  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"([{"name": "t", "title": "T", "columns": ["sheme"]}])",
       "s.json: $.tables[0].columns[0]: \"sheme\" is not a column of metrics.csv"},
      {R"([{"name": "t", "title": "T", "columns": [{"column": "truth", "units": "bytes"}]}])",
       "s.json: $.tables[0].columns[0].units: unknown key"},
      {R"([{"name": "t", "title": "T", "columns": []}])", "s.json: $.tables[0].columns: must not be empty"},
      {R"([{"name": "q", "title": "Q", "source": "nb_quantiles", "document": [[1, 2]]}])",
       "s.json: $.tables[0].document[0]: expected [samples, lower, upper]"},
      {R"([{"name": "q", "title": "Q", "source": "nb_quantiles", "p": 1}])",
       "s.json: $.tables[0].p: must be in (0, 1)"},
      {R"([{"name": "q", "title": "Q", "source": "nb_quantiles", "columns": ["scheme"]}])",
       "s.json: $.tables[0].columns: unknown key"},
      {R"([{"name": "q", "title": "Q", "source": "nowhere"}])",
       "s.json: $.tables[0].source: unknown source \"nowhere\""},
  };
  for (const auto& [t, expected] : cases) {
    const std::string error = error_of("[]", t);
    EXPECT_EQ(error.rfind(expected, 0), 0u) << "expected: " << expected << "\n     got: " << error;
  }
}

}  // namespace
}  // namespace allocsim
