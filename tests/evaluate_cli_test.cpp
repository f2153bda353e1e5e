// `allocsim evaluate` end to end on a committed recording, the verdict against the
// CSV files it is read from, and the command line's "did you mean" hints.
#include <gtest/gtest.h>
#include <cmath>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "allocsim/estimate/count_theory.h"
#include "allocsim/format/csv_reader.h"
#include "allocsim/util/did_you_mean.h"
#include "test_support.h"
#include "testing/build_paths.h"
#include "testing/scratch_directory.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

class EvaluateCli : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  testing::ScratchDirectory scratch_;
  const fs::path dir_ = scratch_.path();
};

const std::string kTrace = allocsim::testing::source_dir() + "/traces/bc.raw.zst";

std::string read_text(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The row of `table` whose cells equal `key` (column -> cell).
const std::vector<std::string>* find_row(const CsvTable& table, const std::map<std::string, std::string>& key) {
  for (const auto& row : table.rows) {
    bool match = true;
    for (const auto& [column, cell] : key) match = match && row[*table.find(column)] == cell;
    if (match) return &row;
  }
  return nullptr;
}

double cell(const CsvTable& table, const std::vector<std::string>& row, const std::string& column) {
  return parse_cell_number(row[*table.find(column)]).value();
}

void expect_metrics_equal(const CsvTable& metrics, const std::vector<std::string>& row, const nlohmann::json& m) {
  for (const char* column : {"truth", "bias", "se_bias", "rel_bias", "mape", "se_mape", "p_any_sample"}) {
    EXPECT_EQ(cell(metrics, row, column), m[column].get<double>()) << column;
  }
}

TEST_F(EvaluateCli, VerdictNumbersAreTheCsvNumbers) {
  const auto r = run_cli("evaluate " + kTrace + " --scheme heapprofd --scheme jemalloc --rate 4KiB --rate 64k" +
                         " --replications 64 --threads 2 --no-charts --json --out " + path("out") +
                         " --save-scenario " + path("scenario.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json verdict = nlohmann::json::parse(r.output);
  const std::string results = path("out") + "/evaluate-bc";
  const CsvTable metrics = read_csv_file(results + "/metrics.csv");
  const CsvTable profiles = read_csv_file(results + "/profiles.csv");
  ASSERT_EQ(verdict["entries"].size(), 4u);  // 2 schemes x 2 rates, one window
  for (const auto& entry : verdict["entries"]) {
    const std::string rate = std::to_string(entry["sweep"]["rate"].get<std::uint64_t>());
    EXPECT_TRUE(rate == "4096" || rate == "65536") << rate;
    const std::map<std::string, std::string> series = {
        {"rate", rate}, {"scheme", entry["scheme"]}, {"estimator", entry["estimator"]}};
    auto key = series;
    key["group_kind"] = "total";
    const auto* total = find_row(metrics, key);
    ASSERT_NE(total, nullptr);
    expect_metrics_equal(metrics, *total, entry["whole_heap"]);
    // The largest stacks, in order, each equal to its row; the count of probably
    // missed stacks (P(seen) < 1/2) as the rows give it.
    key["group_kind"] = "stack";
    std::vector<double> stack_truths;
    std::size_t missed = 0, stacks = 0;
    for (const auto& row : metrics.rows) {
      bool same = true;
      for (const auto& [column, value] : key) same = same && row[*metrics.find(column)] == value;
      if (!same || !(cell(metrics, row, "truth") > 0)) continue;
      ++stacks;
      stack_truths.push_back(cell(metrics, row, "truth"));
      missed += cell(metrics, row, "p_any_sample") < 0.5 ? 1 : 0;
    }
    std::sort(stack_truths.rbegin(), stack_truths.rend());
    ASSERT_EQ(entry["top_stacks"].size(), 5u);
    EXPECT_EQ(entry["stacks"], stacks);
    EXPECT_EQ(entry["stacks_probably_missed"], missed);
    for (std::size_t i = 0; i < 5; ++i) {
      const auto& stack = entry["top_stacks"][i];
      EXPECT_EQ(stack["truth"].get<double>(), stack_truths[i]);
      key["group"] = stack["group"];
      const auto* row = find_row(metrics, key);
      ASSERT_NE(row, nullptr) << stack["group"];
      expect_metrics_equal(metrics, *row, stack);
    }
    auto profile_key = series;
    profile_key["group_kind"] = "stack";
    const auto* profile = find_row(profiles, profile_key);
    ASSERT_NE(profile, nullptr);
    EXPECT_EQ(cell(profiles, *profile, "mean_distance"), entry["profile"]["mean_distance"].get<double>());
    EXPECT_EQ(cell(profiles, *profile, "se_distance"), entry["profile"]["se_distance"].get<double>());
  }
  // The saved scenario reruns to the same bytes.
  const auto rerun =
      run_cli("run --quiet --threads 1 --no-charts --out " + path("rerun") + " " + path("scenario.json"));
  ASSERT_EQ(rerun.exit_code, 0) << rerun.output;
  EXPECT_EQ(read_text(results + "/metrics.csv"), read_text(path("rerun") + "/evaluate-bc/metrics.csv"));
}

TEST_F(EvaluateCli, TextVerdictAndCharts) {
  const auto r = run_cli("evaluate " + kTrace + " --scheme tcmalloc --rate 64KiB --rate 512KiB --replications 32" +
                         " --threads 2 --out " + path("out"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("tcmalloc, rate 64 KiB, allocated"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("whole heap"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("probably missed"), std::string::npos) << r.output;
  for (const char* chart : {"stack-error", "stack-seen", "profile-distance"}) {
    EXPECT_TRUE(fs::exists(path("out") + "/evaluate-bc/charts/" + chart + ".svg")) << chart;
  }
}

// A program that frees everything before it ends: no stack holds bytes at the end,
// so the stack charts of that window have nothing to show. The run succeeds, draws
// no such chart, and its report says why (they failed the run before).
TEST_F(EvaluateCli, AWindowWhereNoStackHoldsBytesDrawsNoStackChart) {
  std::ofstream(path("freed.csv")) << "thread,op,size,stack,type,time,id\n0,alloc,16,1,0,0,1\n"
                                      "0,alloc,32,2,0,1,2\n0,free,,,,2,1\n0,free,,,,3,2\n";
  const auto r = run_cli("evaluate " + path("freed.csv") +
                             " --scheme poisson --rate 16 --replications 20 --threads 1 --quiet --window live_at_end"
                             " --group stack --name freed --out " +
                             path("out"),
                         true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(fs::exists(path("out") + "/freed/charts/stack-error.svg"));
  const std::string html = read_text(path("out") + "/freed/report.html");
  EXPECT_NE(html.find("not drawn (the run had --no-charts, or no group it shows holds bytes in its window)."),
            std::string::npos);
}

// The charts say what the verdict says: "typical error"; the legend sits outside the
// plot, off the 100% line; one rate is named as such in the profile distance's title.
TEST_F(EvaluateCli, ChartsNameTypicalErrorAndKeepTheLegendOffThe100PercentLine) {
  const auto r = run_cli("evaluate " + kTrace + " --scheme heapprofd --rate 32KiB --replications 16 --threads 2" +
                             " --quiet --out " + path("out"),
                         true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string error = read_text(path("out") + "/evaluate-bc/charts/stack-error.gp");
  EXPECT_NE(error.find("set ylabel 'typical error"), std::string::npos) << error;
  EXPECT_EQ(error.find("expected error"), std::string::npos) << error;
  EXPECT_NE(error.find("set key outside"), std::string::npos) << error;
  const std::string distance = read_text(path("out") + "/evaluate-bc/charts/profile-distance.gp");
  EXPECT_NE(distance.find("at one rate"), std::string::npos) << distance;
}

// With --rate, the stack and size-bucket error charts draw the ideal per-byte sampler's
// closed form at each rate beside the Monte Carlo points (as the committed sqlite3
// chart does), named in the legend: E|N - l| / l for N ~ Poisson(l = bytes / T), which
// for l < 1 is 2 P(N = 0) = 2 exp(-bytes / T) (count_theory.h).
TEST_F(EvaluateCli, ErrorChartsDrawTheIdealSamplersClosedFormAtEachRate) {
  const auto r = run_cli("evaluate " + kTrace + " --scheme heapprofd --rate 32KiB --group stack --group size_bucket" +
                             " --replications 16 --threads 2 --quiet --out " + path("out"),
                         true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* chart : {"stack-error", "size-bucket-error"}) {
    const std::string script = read_text(path("out") + "/evaluate-bc/charts/" + chart + ".gp");
    EXPECT_NE(script.find("title 'closed form, ideal per-byte sampler'"), std::string::npos) << chart << script;
    const std::string data = read_text(path("out") + "/evaluate-bc/charts/" + chart + ".dat");
    const std::string header = "# series 0 \"heapprofd, T = 32 KiB\": closed form x, y\n";
    const std::size_t at = data.find(header);
    ASSERT_NE(at, std::string::npos) << chart << "\n" << data;
    std::istringstream block(data.substr(at + header.size(), data.find("\n\n", at) - at - header.size()));
    std::size_t checked = 0;
    for (double x = 0, y = 0; block >> x >> y;) {
      const double expected = 100 * poisson_scaled_count_theory(x / 32768, 32768).mape.value();
      EXPECT_NEAR(y, expected, 1e-9 * expected) << chart << " x = " << x;
      if (x < 32768) {
        EXPECT_NEAR(y, 200 * std::exp(-x / 32768), 1e-6) << chart << " x = " << x;
      }
      ++checked;
    }
    EXPECT_GE(checked, 5u) << chart;
  }
  // Without --rate the schemes run at their own rates: no guide (its rate is not in the rows).
  const auto own = run_cli(
      "evaluate " + kTrace + " --scheme heapprofd --replications 8 --threads 2 --quiet --out " + path("own"), true);
  ASSERT_EQ(own.exit_code, 0) << own.output;
  EXPECT_EQ(read_text(path("own") + "/evaluate-bc/charts/stack-error.gp").find("closed form"), std::string::npos);
}

// A --rate with two --windows gives each scheme an estimator per window: the profile
// distance against the rate draws a series for each (it stopped with "two rows of
// series "heapprofd" at x = 524288" after simulating).
TEST_F(EvaluateCli, RateWithTwoWindowsDrawsASeriesPerWindow) {
  const auto r = run_cli("evaluate " + kTrace + " --scheme heapprofd --rate 512KiB --window allocated" +
                             " --window live_at_end --replications 8 --threads 2 --quiet --out " + path("out"),
                         true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string data = read_text(path("out") + "/evaluate-bc/charts/profile-distance.dat");
  EXPECT_NE(data.find("\"heapprofd, bytes, per-sample weights summed\""), std::string::npos) << data;
  EXPECT_NE(data.find("\"heapprofd, bytes, per-sample weights summed (live at the end)\""), std::string::npos) << data;
  for (const char* chart : {"stack-error", "stack-seen"}) {
    const std::string stacks = read_text(path("out") + "/evaluate-bc/charts/" + chart + ".dat");
    EXPECT_NE(stacks.find("(live at the end)"), std::string::npos) << chart << "\n" << stacks;
  }
}

// --group size_bucket: the verdict has a line per bucket, with the numbers of its
// metrics.csv row, and the chart it names is drawn (it printed no bucket and drew no
// chart while its last line said "charts/").
// A raw recording (exact lifetimes) named by the interpreted file of the same run: the
// verdict's stacks are the interpreted file's names, and the numbers the raw file's.
TEST_F(EvaluateCli, NamesFromTheInterpretedFileOfTheSameRun) {
  const std::string interpreted = allocsim::testing::source_dir() + "/traces/bc.zst";
  const std::string common = " --scheme heapprofd --replications 16 --threads 2 --no-charts --json --out ";
  const auto named = run_cli("evaluate " + kTrace + " --names-from " + interpreted + common + path("named"));
  const auto plain = run_cli("evaluate " + kTrace + common + path("plain"));
  ASSERT_EQ(named.exit_code, 0) << named.output;
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  const nlohmann::json named_entry = nlohmann::json::parse(named.output)["entries"][0];
  const nlohmann::json plain_entry = nlohmann::json::parse(plain.output)["entries"][0];
  EXPECT_EQ(named_entry["whole_heap"], plain_entry["whole_heap"]);
  for (std::size_t i = 0; i < named_entry["top_stacks"].size(); ++i) {
    const std::string name = named_entry["top_stacks"][i]["group"];
    const std::string raw_name = plain_entry["top_stacks"][i]["group"];
    EXPECT_EQ(named_entry["top_stacks"][i]["truth"], plain_entry["top_stacks"][i]["truth"]);
    EXPECT_EQ(raw_name.find("+0x") != std::string::npos, true) << raw_name;  // module+offset without names
    EXPECT_EQ(name.find("+0x"), std::string::npos) << name;
  }
  // Another run's file is refused in one line, exit 2, with nothing written.
  const auto wrong = run_cli("evaluate " + kTrace + " --names-from " + allocsim::testing::source_dir() +
                                 "/traces/sqlite3.zst" + common + path("wrong"),
                             true);
  EXPECT_EQ(wrong.exit_code, 2) << wrong.output;
  EXPECT_NE(wrong.output.find("not of the same run"), std::string::npos) << wrong.output;
  EXPECT_FALSE(fs::exists(path("wrong")));
}

TEST_F(EvaluateCli, SizeBucketGroupsHaveVerdictLinesAndTheirChart) {
  const auto r = run_cli("evaluate " + kTrace + " --scheme heapprofd --group size_bucket --replications 16" +
                             " --threads 2 --out " + path("out"),
                         true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("by size bucket"), std::string::npos) << r.output;
  const CsvTable metrics = parse_csv(read_text(path("out") + "/evaluate-bc/metrics.csv"), "metrics.csv");
  std::size_t buckets = 0;
  for (const auto& row : metrics.rows) {
    if (row[*metrics.find("group_kind")] != "size_bucket") continue;
    ++buckets;
    // "   71 KiB   0%   100%   100%   [65536,131072)": the bucket's label ends its line.
    const std::string label = row[*metrics.find("group")];
    const std::size_t at = r.output.find("   " + label + "\n");
    EXPECT_NE(at, std::string::npos) << label << "\n" << r.output;
  }
  EXPECT_GE(buckets, 10u);
  EXPECT_TRUE(fs::exists(path("out") + "/evaluate-bc/charts/size-bucket-error.svg"));
  EXPECT_NE(r.output.find("(report.html, metrics.csv, charts/)"), std::string::npos) << r.output;
  const nlohmann::json verdict = nlohmann::json::parse(
      run_cli("evaluate " + kTrace + " --scheme heapprofd --group size_bucket --replications 16 --threads 2 --json" +
              " --no-charts --out " + path("json"))
          .output);
  EXPECT_EQ(verdict["entries"][0]["size_buckets"].size(), buckets);

  // The last line names what is there: no charts/ when none was drawn.
  const auto plain = run_cli("evaluate " + kTrace + " --scheme heapprofd --group total --replications 16" +
                                 " --threads 2 --quiet --out " + path("plain"),
                             true);
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_FALSE(fs::exists(path("plain") + "/evaluate-bc/charts"));
  EXPECT_NE(plain.output.find("(report.html, metrics.csv; no charts)"), std::string::npos) << plain.output;
}

// The same stack reads 71 / 80 / 72 KiB under heapprofd, jemalloc and go: the verdict
// says per scheme which truth it compares with.
TEST_F(EvaluateCli, VerdictSaysWhatTruthMeansPerScheme) {
  const std::string flags = " --scheme heapprofd --scheme jemalloc --replications 8 --threads 2 --no-charts --top 1";
  const auto r = run_cli("evaluate " + kTrace + flags + " --out " + path("out"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::size_t heapprofd = r.output.find("heapprofd, allocated");
  const std::size_t jemalloc = r.output.find("jemalloc, allocated");
  ASSERT_NE(heapprofd, std::string::npos) << r.output;
  ASSERT_NE(jemalloc, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("  truth          requested bytes", heapprofd), r.output.find('\n', heapprofd) + 1);
  EXPECT_EQ(r.output.find("  truth          allocated bytes (each request rounded up to the allocator's size class)",
                          jemalloc),
            r.output.find('\n', jemalloc) + 1);
  const nlohmann::json json =
      nlohmann::json::parse(run_cli("evaluate " + kTrace + flags + " --json --out " + path("j")).output);
  EXPECT_EQ(json["entries"][0]["truth"], "requested_bytes");
  EXPECT_EQ(json["entries"][1]["truth"], "allocated_bytes");
  const std::string html = read_text(path("out") + "/evaluate-bc/report.html");
  EXPECT_NE(html.find("Truth: allocated bytes (each request rounded up"), std::string::npos);
}

// Bad input: one line naming the flag, exit 2, nothing written.
TEST_F(EvaluateCli, BadFlagsAreNamedAndNothingIsWritten) {
  const std::string common = " --out " + path("out") + " --save-scenario " + path("s.json");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {kTrace + " --scheme heapprofd --rate 4KB", "--rate 4KB: ambiguous unit in \"4KB\""},
      {kTrace + " --scheme heapprofd --rate 0.5", "--rate 0.5: must be a whole number of bytes >= 1"},
      {kTrace + " --scheme heapprofx", "unknown scheme \"heapprofx\" (did you mean \"heapprofd\"?)"},
      {kTrace + " --scheme heapprofd:pasthrough=none", "pasthrough: unknown key (did you mean \"passthrough\"?)"},
      {kTrace + " --scheme heapprofd:rate", "--scheme heapprofd:rate: expected key=value"},
      {kTrace + " --scheme v8 --rate 4GiB", "--scheme v8 at --rate 4294967296"},
      {kTrace + " --scheme heapprofd --scheme heapprofd", "--scheme heapprofd: given twice"},
      {path("missing.zst") + " --scheme heapprofd", path("missing.zst") + ": no such file"},
      {kTrace + " --scheme heapprofd --window live", "--window"},
      {kTrace + " --scheme ocaml --rate 4KiB", "--rate: no scheme given takes a byte rate"},
      // Beside a scheme that takes the byte rate, one that does not would keep its own
      // rate under the label of the swept one.
      {kTrace + " --scheme go --scheme per-allocation --rate 512KiB",
       "--rate: --scheme per-allocation counts its rate in allocations, not bytes"},
      {kTrace + " --scheme go --scheme heapprofd:rate=64KiB --rate 512KiB",
       "--rate: --scheme heapprofd:rate=64KiB fixes its rate in --scheme"},
      {kTrace + " --scheme go --scheme ocaml --rate 512KiB", "--rate: --scheme ocaml has no byte rate"},
  };
  for (const auto& [arguments, message] : cases) {
    const auto r = run_cli("evaluate " + arguments + common, true);
    EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << arguments << "\n" << r.output;
    EXPECT_FALSE(fs::exists(path("out"))) << arguments;
    EXPECT_FALSE(fs::exists(path("s.json"))) << arguments;
  }
}

TEST_F(EvaluateCli, MisspeltCommandsOptionsSchemesAndKeysGetASuggestion) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"rnu", "allocsim: error: unknown command \"rnu\" (did you mean \"run\"?)"},
      {"evaluate " + kTrace + " --scheme heapprofd --rat 4k", "unknown option \"--rat\" (did you mean \"--rate\"?)"},
      {"schemes jemaloc", "unknown scheme \"jemaloc\" (did you mean \"jemalloc\"?)"},
      {"advise " + path("nope.zst") + " --total-error 0.1", path("nope.zst") + ": no such file"},
  };
  for (const auto& [arguments, message] : cases) {
    const auto r = run_cli(arguments, true);
    EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << arguments << "\n" << r.output;
  }
  std::ofstream(path("s.json")) << R"({"name": "x", "replciations": 10, "trace": {"allocations": 10,
    "sizes": {"distribution": "constant", "size": 8}}, "schemes": [{"scheme": "poisson"}]})";
  const auto r = run_cli("run --out " + path("out") + " " + path("s.json"), true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("$.replciations: unknown key (did you mean \"replications\"?)"), std::string::npos)
      << r.output;
}

TEST_F(EvaluateCli, OneSchemeInFull) {
  const auto r = run_cli("schemes jemalloc");
  ASSERT_EQ(r.exit_code, 0);
  for (const char* part : {"parameters:", "param rate", "estimators", "interval",
                           "example:", "allocsim evaluate traces/sqlite3.raw.zst --scheme jemalloc --rate 32KiB"}) {
    EXPECT_NE(r.output.find(part), std::string::npos) << part << "\n" << r.output;
  }
}

TEST_F(EvaluateCli, RunPrintsTheVerdictUnlessQuiet) {
  std::ofstream(path("s.json")) << R"({"name": "v", "seed": 3, "replications": 32, "trace": {"allocations": 200,
    "sizes": {"distribution": "constant", "size": 1000}, "stacks": {"rule": "random", "count": 3}},
    "schemes": [{"scheme": "poisson", "rate": "4KiB"}], "groups": ["total", "stack"]})";
  const auto loud = run_cli("run --no-charts --out " + path("a") + " " + path("s.json"));
  EXPECT_EQ(loud.exit_code, 0);
  EXPECT_NE(loud.output.find("whole heap"), std::string::npos) << loud.output;
  const auto quiet = run_cli("run --quiet --no-charts --out " + path("b") + " " + path("s.json"));
  EXPECT_EQ(quiet.output, "");
  const auto json = run_cli("check --json --no-charts --out " + path("c") + " " + path("s.json"));
  EXPECT_EQ(json.exit_code, 0);
  const nlohmann::json verdicts = nlohmann::json::parse(json.output);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0]["entries"][0]["scheme"], "poisson");
  EXPECT_EQ(verdicts[0]["entries"][0]["stacks"], 3);
}

TEST(DidYouMean, NearestCloseNameOnly) {
  const std::vector<std::string> known = {"run", "check", "evaluate", "schemes"};
  EXPECT_EQ(closest_name("rnu", known), "run");
  EXPECT_EQ(closest_name("evalute", known), "evaluate");
  EXPECT_EQ(closest_name("SCHEMES", known), "schemes");
  EXPECT_EQ(closest_name("xyz", known), "");
  EXPECT_EQ(did_you_mean("chekc", known), " (did you mean \"check\"?)");
  EXPECT_EQ(did_you_mean("plot", known), "");
}

// A word cut short gets the one name it begins like, if the shared beginning is long.
TEST(DidYouMean, AbbreviationGetsTheNameItBeginsLike) {
  const std::vector<std::string> keys = {"counter", "passthrough", "rate", "seeding"};
  EXPECT_EQ(closest_name("passthru", keys), "passthrough");
  EXPECT_EQ(closest_name("seed", keys), "seeding");
  EXPECT_EQ(closest_name("pass", keys), "passthrough");
  EXPECT_EQ(closest_name("co", keys), "");
  const std::vector<std::string> twins = {"live_bytes", "live_count"};
  EXPECT_EQ(closest_name("live_", twins), "");  // two names begin alike: no guess
}

TEST_F(EvaluateCli, UnknownKeysAndEstimatorsGetASuggestion) {
  auto r = run_cli("evaluate " + kTrace + " --scheme heapprofd:passthru=none --out " + path("out"), true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("passthru: unknown key (did you mean \"passthrough\"?)"), std::string::npos) << r.output;
  std::ofstream(path("s.json")) << R"({"name": "e", "replications": 4, "trace": {"allocations": 50,
    "sizes": {"distribution": "constant", "size": 100}}, "schemes": [{"scheme": "poisson", "rate": "4KiB"}],
    "estimators": ["byte"]})";
  r = run_cli("run --no-charts --out " + path("out") + " " + path("s.json"), true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("no scheme has an estimator \"byte\" (did you mean \"bytes\"?)"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

}  // namespace
}  // namespace allocsim
