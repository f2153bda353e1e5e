// Charts and tables from result files: the numbers a chart plots, its byte ticks
// and gnuplot text, real PNG and SVG files from `allocsim run`, `allocsim plot`
// redrawing them from a results directory, and clear failures.
#include <gtest/gtest.h>

#include <cmath>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "allocsim/report/axis_ticks.h"
#include "allocsim/report/chart_data.h"
#include "allocsim/report/figures.h"
#include "allocsim/report/gnuplot_chart.h"
#include "allocsim/report/gnuplot_script.h"
#include "allocsim/report/table_writer.h"
#include "allocsim/scenario/scenario.h"
#include "allocsim/util/error.h"
#include "test_support.h"

#include "testing/scratch_directory.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

const char* kResults = "rate,size,scheme,y,se_y,theory_y,truth\n"
                       "2,30,a,0.5,0.01,0.4,10\n"
                       "1,10,a,0.1,0.02,0.2,10\n"
                       "1,20,a,0.3,0.01,0.3,10\n"
                       "1,20,b,0.9,0.01,,10\n"
                       "2,10,a,0.2,,0.25,10\n";

ChartSpec basic_spec() {
  ChartSpec spec;
  spec.name = "c";
  spec.path = "$.charts[0]";
  spec.x.column = "size";
  spec.y.column = "y";
  spec.error = "se_y";
  spec.theory = "theory_y";
  spec.series = {"rate"};
  spec.series_title = "T = {rate}";
  spec.where.conditions = {{"scheme", {"a"}}};
  return spec;
}

TEST(ChartData, SeriesInSweepOrderSortedByX) {
  const CsvTable table = parse_csv(kResults, "m.csv");
  const ChartData data = chart_data(basic_spec(), table, "m.csv");
  ASSERT_EQ(data.series.size(), 2u);
  EXPECT_EQ(data.series[0].label, "T = 2");  // first seen first
  ASSERT_EQ(data.series[0].points.size(), 2u);
  EXPECT_EQ(data.series[0].points[0].x, 10);
  EXPECT_EQ(data.series[0].points[1].x, 30);
  EXPECT_TRUE(std::isnan(data.series[0].points[0].error));  // no standard error in the row
  EXPECT_EQ(data.series[0].points[1].error, 2 * 0.01);      // bars: 2 standard errors
  ASSERT_EQ(data.series[1].points.size(), 2u);
  EXPECT_EQ(data.series[1].points[1].y, 0.3);
  EXPECT_EQ(data.series[1].theory[0].y, 0.2);
}

TEST(ChartData, ScalingPercentDivisionThinningAndTheoryRows) {
  const CsvTable table = parse_csv(kResults, "m.csv");
  ChartSpec spec = basic_spec();
  spec.where.conditions = {{"rate", {1}}};
  spec.series = {"scheme"};
  spec.series_title = "";
  spec.x.scale = 0.5;
  spec.y.unit = Unit::percent;
  spec.y_divide_by = "truth";
  spec.theory_where = RowFilter{{{"scheme", {"a"}}, {"rate", {2}}}};
  const ChartData data = chart_data(spec, table, "m.csv");
  ASSERT_EQ(data.series.size(), 2u);
  EXPECT_EQ(data.series[0].label, "a");
  EXPECT_EQ(data.series[0].points[0].x, 5);
  EXPECT_DOUBLE_EQ(data.series[0].points[0].y, 100 * 0.1 / 10);
  EXPECT_DOUBLE_EQ(data.series[0].points[0].error, 100 * 0.04 / 10);
  ASSERT_EQ(data.series[0].theory.size(), 2u);  // the lines come from the rate-2 rows
  EXPECT_DOUBLE_EQ(data.series[0].theory[0].y, 100 * 0.25 / 10);
  EXPECT_TRUE(data.series[1].theory.empty());

  spec.where.conditions = {{"scheme", {"a"}}};
  spec.series = {"rate"};
  spec.theory_where.reset();
  spec.point_every = 2;
  const ChartData thinned = chart_data(spec, table, "m.csv");
  EXPECT_EQ(thinned.series[1].points.size(), 1u);  // rate 1: x = 10 kept, 20 dropped
  EXPECT_EQ(thinned.series[1].theory.size(), 2u);  // the line keeps every point
}

TEST(ChartData, AmbiguousOrEmptySelectionsAreErrors) {
  const CsvTable table = parse_csv(kResults, "m.csv");
  ChartSpec spec = basic_spec();
  spec.where.conditions.clear();
  try {
    chart_data(spec, table, "m.csv");
    FAIL() << "two rows of one series at one x were accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "m.csv: chart \"c\" ($.charts[0]): two rows of series \"T = 1\" at x = 20 (they differ in scheme, y); "
                 "narrow \"where\" or add a \"series\" column");
  }
  spec.where.conditions = {{"scheme", {"z"}}};
  EXPECT_THROW(chart_data(spec, table, "m.csv"), InputError);
}

// A scatter of groups (x = a group's truth) with a closed form of x alone: groups of
// equal x give one point of the line; equal x with different values is ambiguous.
TEST(ChartData, TheoryRowsOfEqualXAndValueAreOnePointOfTheLine) {
  const CsvTable table = parse_csv("group,truth,y,theory_y\n"
                                   "s1,8,1.0,2.0\n"
                                   "s2,8,0.5,2.0\n"
                                   "s3,64,0.7,0.9\n",
                                   "m.csv");
  ChartSpec spec = basic_spec();
  spec.x.column = "truth";
  spec.error.clear();
  spec.series.clear();
  spec.series_title.clear();
  spec.where.conditions.clear();
  spec.join_points = false;
  const ChartData data = chart_data(spec, table, "m.csv");
  ASSERT_EQ(data.series.size(), 1u);
  EXPECT_EQ(data.series[0].points.size(), 3u);  // every group is a point
  ASSERT_EQ(data.series[0].theory.size(), 2u);  // x = 8 once, x = 64
  EXPECT_EQ(data.series[0].theory[0].x, 8);
  EXPECT_EQ(data.series[0].theory[1].x, 64);

  const CsvTable differing = parse_csv("group,truth,y,theory_y\ns1,8,1.0,2.0\ns2,8,0.5,1.5\n", "m.csv");
  EXPECT_THROW(chart_data(spec, differing, "m.csv"), InputError);
}

TEST(AxisTicks, BytesAsKibAndMib) {
  const auto linear = byte_ticks(0, 5 * 1048576.0, false);
  ASSERT_EQ(linear.size(), 6u);
  EXPECT_EQ(linear[1].label, "1 MiB");
  EXPECT_EQ(linear[5].value, 5 * 1048576.0);
  const auto small = byte_ticks(0, 5000, false);
  EXPECT_EQ(small[1].label, "1 KiB");
  const auto log = byte_ticks(16, 65536, true);
  EXPECT_EQ(log.front().label, "16 B");
  EXPECT_EQ(log.back().label, "64 KiB");
  EXPECT_LE(log.size(), 15u);
  const auto wide = byte_ticks(1, 1099511627776.0, true);
  ASSERT_EQ(wide.size(), 11u);  // every 4 doublings: 1 B, 16 B, 256 B, 4 KiB, ... 1 TiB
  EXPECT_EQ(wide[3].label, "4 KiB");
  EXPECT_EQ(wide[5].label, "1 MiB");
  EXPECT_EQ(wide[10].label, "1 TiB");
}

// Where a legend beside the plot leaves room for 7, 1 B .. 64 KiB (17 powers of two)
// gets every fourth.
TEST(AxisTicks, FewerTicksWhereThePlotIsNarrow) {
  std::vector<std::string> labels;
  for (const Tick& t : byte_ticks(1, 65536, true, 7)) labels.push_back(t.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"1 B", "16 B", "256 B", "4 KiB", "64 KiB"}));
  EXPECT_EQ(byte_ticks(1, 65536, true).size(), 9u);  // every second where the plot is wide
}

TEST(GnuplotScript, QuotingAndAxes) {
  EXPECT_EQ(gnuplot_quote("it's", false), "'it''s'");
  EXPECT_EQ(gnuplot_quote("p_any^2", true), "'p\\_any\\^2'");
  const CsvTable table = parse_csv(kResults, "m.csv");
  ChartSpec spec = basic_spec();
  spec.title = "A title";
  spec.x.unit = Unit::bytes;
  spec.y.unit = Unit::percent;
  spec.references = {{std::nullopt, 0.5, "half", std::nullopt}};
  const ChartData data = chart_data(spec, table, "m.csv");
  const std::string script = gnuplot_script(spec, data, "c.dat", "../metrics.csv");
  EXPECT_NE(script.find("set xtics ('12 B' 12, '16 B' 16, "), std::string::npos) << script;
  EXPECT_NE(script.find("set format y '%g%%'"), std::string::npos);
  EXPECT_NE(script.find("first 50 nohead"), std::string::npos);  // the reference, drawn as a percent
  EXPECT_NE(script.find("with yerrorbars ls 1 title 'T = 2'"), std::string::npos);
  EXPECT_NE(script.find("index 3 using 1:2 with lines ls 2 notitle"), std::string::npos);
  EXPECT_NE(script.find("set output png_file"), std::string::npos);
  const std::string dat = gnuplot_data(data);
  EXPECT_NE(dat.find("10\t20\tNaN\n"), std::string::npos) << dat;
}

// A legend outside the plot narrows it: the x axis gets as many byte ticks as the width
// its widest entry leaves (gnuplot_script.cpp, x_tick_room). The axis of 1 B .. 64 KiB
// is padded to 2^-1 .. 2^17: every 2nd power of two (10 ticks) fits inside and beside
// the 11 characters of "Monte Carlo"; beside a 35-character entry only every 4th does.
TEST(GnuplotScript, ByteTicksMakeRoomForALegendBesideThePlot) {
  ChartSpec spec;
  spec.name = "t";
  spec.x.column = "truth";
  spec.x.unit = Unit::bytes;
  spec.x.log = true;
  spec.y.column = "mape";
  ChartData data;
  data.series.push_back({"short", {{1, 0.5, NAN}, {65536, 0.02, NAN}}, {}, {}});
  const auto xtics = [&] {
    const std::string script = gnuplot_script(spec, data, "t.dat", "../metrics.csv");
    const std::size_t at = script.find("set xtics (");
    return script.substr(at, script.find('\n', at) - at);
  };
  const std::string every_second = "set xtics ('1 B' 1, '4 B' 4, '16 B' 16, '64 B' 64, '256 B' 256, '1 KiB' 1024, "
                                   "'4 KiB' 4096, '16 KiB' 16384, '64 KiB' 65536)";
  EXPECT_EQ(xtics(), every_second);
  spec.legend = LegendPosition::outside;
  EXPECT_EQ(xtics(), every_second);
  data.series[0].label = "closed form, ideal per-byte sampler";
  EXPECT_EQ(xtics(), "set xtics ('1 B' 1, '16 B' 16, '256 B' 256, '4 KiB' 4096, '64 KiB' 65536)");
}

// A log axis has no 0: a point of 0 is drawn at a floor below the least positive
// value, as an open triangle with a legend entry of its own, rather than vanish.
TEST(GnuplotScript, ZeroOnALogAxisIsDrawnAtTheFloor) {
  ChartSpec spec;
  spec.name = "z";
  spec.x.column = "truth";
  spec.x.log = true;
  spec.y.column = "mape";
  spec.y.log = true;
  ChartData data;
  data.series.push_back({"a", {{10, 0.5, NAN}, {100, 0.02, NAN}, {1000, 0, NAN}}, {}, {}});
  const std::string script = gnuplot_script(spec, data, "z.dat", "../metrics.csv");
  EXPECT_NE(script.find("using 1:($2 <= 0 ? 0.01 : 1/0) with points ls 1 pt 10"), std::string::npos) << script;
  EXPECT_NE(script.find("title '0, at the floor'"), std::string::npos) << script;
  data.series[0].points.pop_back();
  const std::string positive = gnuplot_script(spec, data, "z.dat", "../metrics.csv");
  EXPECT_EQ(positive.find("at the floor"), std::string::npos) << "no 0, no floor";
  spec.y.log = false;
  data.series[0].points.push_back({1000, 0, NAN});
  EXPECT_EQ(gnuplot_script(spec, data, "z.dat", "../metrics.csv").find("at the floor"), std::string::npos)
      << "a linear axis draws 0 where it is";
}

class FiguresTest : public ::testing::Test {
 protected:
  std::string write_scenario() {
    const fs::path path = dir_ / "s.json";
    std::ofstream(path) << R"json({"name": "fig", "seed": 3, "replications": 200,
      "trace": {"allocations": 1, "sizes": {"distribution": "constant", "size": "$size"}},
      "schemes": [{"scheme": "poisson", "rate": "$rate"}],
      "sweep": {"rate": [1024, 4096], "size": [512, 1024, 2048, 4096, 8192]},
      "charts": [{"name": "p", "title": "P(≥ 1 sample)", "where": {"estimator": "bytes"},
        "x": "size", "x_unit": "bytes", "y": "p_any_sample", "y_unit": "percent",
        "error": "se_p_any_sample", "theory": "theory_p_any_sample",
        "series": "rate", "series_title": "T = {rate:bytes}",
        "references": [{"x": 1536, "y": 0.95, "label": "claim"}]}],
      "tables": [{"name": "t", "title": "Coverage", "where": {"estimator": "bytes", "size": 4096},
        "columns": ["rate", {"column": "p_any_sample", "label": "P", "unit": "percent"}]}]})json";
    return path.string();
  }
  std::string results() const { return (dir_ / "out" / "fig").string(); }
  // The figures of results(), its one chart p drawn twice more as q and r.
  FigureSpecs three_charts_of_one() const {
    FigureSpecs specs = figure_specs_from_summary(results());
    if (specs.charts.size() != 1) return specs;
    for (const char* name : {"q", "r"}) {
      specs.charts.push_back(specs.charts[0]);
      specs.charts.back().name = name;
    }
    return specs;
  }

  testing::ScratchDirectory scratch_;
  const fs::path dir_ = scratch_.path();
};

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST_F(FiguresTest, RunRendersPngSvgScriptDataAndTables) {
  const auto r = run_cli("run --quiet --out " + (dir_ / "out").string() + " " + write_scenario(), true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string png = file_text(results() + "/charts/p.png");
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  const std::string svg = file_text(results() + "/charts/p.svg");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("2 KiB"), std::string::npos);      // a byte tick
  EXPECT_NE(svg.find("T = 4 KiB"), std::string::npos);  // a series title
  EXPECT_TRUE(fs::exists(results() + "/charts/p.gp"));
  EXPECT_TRUE(fs::exists(results() + "/charts/p.dat"));
  for (const auto& entry : fs::recursive_directory_iterator(results())) {
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  }
  const std::string md = file_text(results() + "/tables/t.md");
  EXPECT_NE(md.find("**Coverage**"), std::string::npos);
  EXPECT_NE(md.find("| rate | P |"), std::string::npos) << md;
  EXPECT_NE(file_text(results() + "/tables/t.csv").find("rate,p_any_sample\n1024,"), std::string::npos);

  // The script can be re-run by hand inside charts/.
  fs::remove(results() + "/charts/p.png");
  const std::string by_hand = "cd " + results() + "/charts && gnuplot p.gp 2>&1";
  EXPECT_EQ(std::system(by_hand.c_str()), 0);
  EXPECT_TRUE(fs::exists(results() + "/charts/p.png"));
}

TEST_F(FiguresTest, PlotRedrawsFromTheResultsDirectory) {
  ASSERT_EQ(run_cli("run --quiet --no-charts --out " + (dir_ / "out").string() + " " + write_scenario()).exit_code, 0);
  EXPECT_FALSE(fs::exists(results() + "/charts"));
  const auto r = run_cli("plot " + results(), true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_GT(fs::file_size(results() + "/charts/p.png"), 1000u);
  EXPECT_GT(fs::file_size(results() + "/charts/p.svg"), 1000u);
  EXPECT_TRUE(fs::exists(results() + "/tables/t.md"));

  const FigureSpecs specs = figure_specs_from_summary(results());
  EXPECT_EQ(specs.charts.size(), 1u);
  EXPECT_EQ(specs.tables.size(), 1u);

  const auto missing = run_cli("plot " + (dir_ / "nowhere").string(), true);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("not a results directory (no summary.json)"), std::string::npos) << missing.output;
}

// Charts are drawn side by side, a gnuplot each: three charts on three threads give
// the files of one thread, named in the specs' order.
TEST_F(FiguresTest, ChartsDrawnSideBySideMatchOneAtATime) {
  ASSERT_EQ(run_cli("run --quiet --no-charts --out " + (dir_ / "out").string() + " " + write_scenario()).exit_code, 0);
  const FigureSpecs specs = three_charts_of_one();
  ASSERT_EQ(specs.charts.size(), 3u);
  auto draw = [&](unsigned threads) {
    const std::vector<std::string> written = render_figures(specs, results(), threads);
    std::vector<std::string> texts;
    for (const std::string& file : written) {
      if (file.ends_with(".svg")) texts.push_back(file_text(file));
    }
    return std::pair(written, texts);
  };
  const auto [one_files, one_svgs] = draw(1);
  const auto [three_files, three_svgs] = draw(3);
  EXPECT_EQ(one_files, three_files);
  ASSERT_EQ(one_svgs.size(), 3u);
  EXPECT_EQ(one_svgs, three_svgs);
  EXPECT_NE(one_files[0].find("/charts/p.png"), std::string::npos) << one_files[0];
  EXPECT_NE(one_files[4].find("/charts/r.png"), std::string::npos) << one_files[4];
}

// `plot` redraws all or nothing: a gnuplot that fails on the third chart, after two
// have been drawn, leaves every old chart and table as it was, and no trace of the
// attempt; the same redraw with a working gnuplot then replaces them all.
TEST_F(FiguresTest, PlotThatFailsLeavesTheOldFiguresAsTheyWere) {
  ASSERT_EQ(run_cli("run --quiet --out " + (dir_ / "out").string() + " " + write_scenario()).exit_code, 0);
  const FigureSpecs specs = three_charts_of_one();
  ASSERT_EQ(specs.charts.size(), 3u);
  const std::vector<std::string> old_files = {"charts/p.png", "charts/p.svg", "charts/p.gp",
                                              "charts/p.dat", "tables/t.md",  "tables/t.csv"};
  for (const std::string& file : old_files) std::ofstream(results() + "/" + file) << "old " << file;
  const fs::path failing = dir_ / "gnuplot-failing-on-r";
  std::ofstream(failing) << "#!/bin/sh\ncase \"$*\" in *r.gp*) exit 1;; esac\nexec gnuplot \"$@\"\n";
  fs::permissions(failing, fs::perms::owner_all);
  auto listing = [&] {
    std::vector<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(results())) names.push_back(entry.path().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  const std::vector<std::string> before = listing();

  ::setenv("ALLOCSIM_GNUPLOT", failing.c_str(), 1);
  EXPECT_THROW(redraw_figures(specs, results(), 1), InputError);
  ::unsetenv("ALLOCSIM_GNUPLOT");
  for (const std::string& file : old_files) EXPECT_EQ(file_text(results() + "/" + file), "old " + file);
  EXPECT_EQ(listing(), before);  // no q or r chart, no staging directory

  const std::vector<std::string> written = redraw_figures(specs, results(), 2);
  ASSERT_EQ(written.size(), 7u);  // PNG and SVG of three charts, one table
  EXPECT_EQ(written[4], results() + "/charts/r.png");
  for (const std::string& file : written) EXPECT_TRUE(fs::exists(file)) << file;
  for (const std::string& file : old_files) EXPECT_NE(file_text(results() + "/" + file), "old " + file) << file;
  EXPECT_EQ(file_text(results() + "/charts/p.png").substr(1, 3), "PNG");
  for (const std::string& name : listing()) EXPECT_EQ(name.find(".redraw."), std::string::npos) << name;
}

TEST_F(FiguresTest, MissingGnuplotIsAClearError) {
  ASSERT_EQ(run_cli("run --quiet --no-charts --out " + (dir_ / "out").string() + " " + write_scenario()).exit_code, 0);
  const FigureSpecs specs = figure_specs_from_summary(results());
  ::setenv("ALLOCSIM_GNUPLOT", "/nonexistent/gnuplot", 1);
  try {
    render_figures(specs, results(), 2);
    ADD_FAILURE() << "rendered without gnuplot";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gnuplot-nox"), std::string::npos) << e.what();
  }
  ::unsetenv("ALLOCSIM_GNUPLOT");
  EXPECT_FALSE(fs::exists(results() + "/charts/p.png"));
}

TEST(QuantileTable, ReproducesTheDocumentsFirstRow) {
  TableSpec spec;
  spec.name = "q";
  spec.title = "quantiles";
  spec.kind = TableKind::nb_quantiles;
  spec.document = {{1, 2591, 377738}};
  const TableText text = table_text(spec, CsvTable{}, "unused");
  EXPECT_NE(text.csv.find("\n1,2591,377738,"), std::string::npos) << text.csv;
  EXPECT_NE(text.csv.find(",2591,377738,0,0\n"), std::string::npos) << text.csv;  // document - exact
  EXPECT_NE(text.markdown.find("| samples s |"), std::string::npos);
}

}  // namespace
}  // namespace allocsim
