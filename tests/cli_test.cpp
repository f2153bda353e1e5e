// The allocsim command line as a user meets it: run, check, schemes, exit codes,
// and no output at all when the input is bad.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <vector>

#include "test_support.h"
#include "testing/build_paths.h"
#include "testing/scratch_directory.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

class CliTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::string out() const { return (dir_ / "out").string(); }
  // Beside --out, not in it: a report inside the results directory would not exist
  // before the run (allocsim creates no parent of a file) and goes when it is replaced.
  std::string junit() const { return (dir_ / "j.xml").string(); }

  testing::ScratchDirectory scratch_;
  const fs::path dir_ = scratch_.path();
};

const char* kScenario = R"({"name": "cli-demo", "seed": 5, "replications": 64,
  "trace": {"allocations": 100, "sizes": {"distribution": "constant", "size": 1000}},
  "schemes": [{"scheme": "poisson", "rate": 4096}],
  "expectations": [{"name": "unbiased", "where": {"estimator": "bytes"}, "metric": "bias", "equals": 0, "sigmas": 5}]})";

TEST_F(CliTest, RunWritesMetricsAndSummary) {
  const auto r = run_cli("run --quiet --threads 2 --out " + out() + " " + write("s.json", kScenario));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream csv(out() + "/cli-demo/metrics.csv");
  std::string header, first;
  std::getline(csv, header);
  std::getline(csv, first);
  EXPECT_EQ(header.rfind("scheme,estimator,group_kind,group,replications,truth,mean,bias,rel_bias,sd,se_bias,rmse,mape,"
                         "cmape,p_any_sample",
                         0),
            0u);
  EXPECT_EQ(first.rfind("poisson,bytes,total,all,64,100000,", 0), 0u) << first;
  const auto summary = nlohmann::json::parse(std::ifstream(out() + "/cli-demo/summary.json"));
  EXPECT_EQ(summary["seed"], 5);
  EXPECT_EQ(summary["allocsim_version"], ALLOCSIM_VERSION);
  EXPECT_TRUE(summary["wall_seconds"].is_number());
  EXPECT_EQ(summary["resolved_scenario"]["name"], "cli-demo");
  EXPECT_EQ(summary["points"][0]["trace"]["allocations"], 100);
  // No temporary files are left behind.
  for (const auto& entry : fs::directory_iterator(out() + "/cli-demo")) {
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  }
}

TEST_F(CliTest, OverridesSeedAndReplications) {
  const auto r = run_cli("run --quiet --seed 9 --replications 10 --out " + out() + " " + write("s.json", kScenario));
  ASSERT_EQ(r.exit_code, 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out() + "/cli-demo/summary.json"));
  EXPECT_EQ(summary["seed"], 9);
  EXPECT_EQ(summary["replications"], 10);
}

TEST_F(CliTest, BadInputExitsTwoWithOneLineAndWritesNothing) {
  const std::string good = write("good.json", kScenario);
  const std::vector<std::string> bad = {
      write("syntax.json", "{\"name\": \"x\",,}"),
      write("unknown.json", std::string(kScenario).replace(1, 0, "\"colour\": 1, ")),
      write("impossible.json",
            [] {
              std::string s = kScenario;
              return s.replace(s.find("\"rate\": 4096"), 12, "\"rate\": -1");
            }()),
      (dir_ / "missing.json").string(),
  };
  for (const auto& file : bad) {
    // The good scenario comes first: nothing may be written for it either.
    const auto r = run_cli("run --quiet --out " + out() + " " + good + " " + file, true);
    EXPECT_EQ(r.exit_code, 2) << file << ": " << r.output;
    EXPECT_EQ(r.output.rfind("allocsim: error: ", 0), 0u) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_FALSE(fs::exists(out())) << file;
  }
  EXPECT_EQ(run_cli("run --threads 0 " + good).exit_code, 2);
  EXPECT_EQ(run_cli("frobnicate").exit_code, 2);
}

TEST_F(CliTest, CheckPassesFailsAndWritesJunit) {
  const auto pass = run_cli("check --quiet --out " + out() + " --junit " + junit() + " " + write("s.json", kScenario));
  EXPECT_EQ(pass.exit_code, 0) << pass.output;
  EXPECT_EQ(pass.output.find("PASS  unbiased"), std::string::npos) << "--quiet: failures only\n" << pass.output;
  EXPECT_NE(pass.output.find("1 passed, 0 failed"), std::string::npos);
  const auto loud = run_cli("check --out " + out() + " " + write("s.json", kScenario));
  EXPECT_NE(loud.output.find("PASS  unbiased"), std::string::npos) << loud.output;

  std::string failing = kScenario;
  failing.replace(failing.find("\"sigmas\": 5"), 11,
                  "\"sigmas\": 5}, {\"where\": {\"estimator\": \"bytes\"}, \"metric\": \"mape\", \"max\": 0.0001");
  const auto fail = run_cli("check --quiet --out " + out() + " --junit " + junit() + " " + write("f.json", failing));
  EXPECT_EQ(fail.exit_code, 1) << fail.output;
  EXPECT_NE(fail.output.find("FAIL"), std::string::npos);
  std::ifstream report(junit());
  const std::string xml((std::istreambuf_iterator<char>(report)), std::istreambuf_iterator<char>());
  EXPECT_NE(xml.find("<testsuites name=\"allocsim check\" tests=\"2\" failures=\"1\">"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message="), std::string::npos);

  // An expectation that matches no row fails rather than passing vacuously.
  std::string empty = kScenario;
  empty.replace(empty.find("\"estimator\": \"bytes\""), 20, "\"estimator\": \"live_bytes\"");
  EXPECT_EQ(run_cli("check --quiet --out " + out() + " " + write("e.json", empty)).exit_code, 1);
}

// check --quiet (and -q), like run --quiet: nothing of what passed, each failure with
// its scenario's line, and one last line: the counts, the time, where the results are.
TEST_F(CliTest, CheckQuietPrintsTheFailuresAndOneLastLine) {
  const std::string pass = write("s.json", kScenario);
  std::string failing = kScenario;
  failing.replace(failing.find("\"sigmas\": 5"), 11,
                  "\"sigmas\": 5}, {\"name\": \"too tight\", \"where\": {\"estimator\": \"bytes\"}, \"metric\": "
                  "\"mape\", \"max\": 0.0001");
  failing.replace(failing.find("\"cli-demo\""), 10, "\"cli-demo-failing\"");  // a results directory of its own
  const std::string fail = write("f.json", failing);
  const auto lines = [](const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  };
  for (const char* flag : {"--quiet", "-q"}) {
    const auto quiet = run_cli(std::string("check ") + flag + " --out " + out() + " " + pass, true);
    EXPECT_EQ(quiet.exit_code, 0) << quiet.output;
    EXPECT_EQ(lines(quiet.output), 1u) << flag << ": " << quiet.output;
    EXPECT_EQ(quiet.output.rfind("1 passed, 0 failed (1 scenario, ", 0), 0u) << quiet.output;
    EXPECT_NE(quiet.output.find("; results in " + out() + "/)\n"), std::string::npos) << quiet.output;

    // Two scenarios, one failing: its header and its failure, then the last line.
    const auto failed = run_cli(std::string("check ") + flag + " --out " + out() + " " + pass + " " + fail, true);
    EXPECT_EQ(failed.exit_code, 1) << failed.output;
    EXPECT_EQ(lines(failed.output), 3u) << flag << ": " << failed.output;
    EXPECT_EQ(failed.output.find("PASS"), std::string::npos) << failed.output;
    EXPECT_NE(failed.output.find("\nFAIL  too tight"), std::string::npos) << failed.output;
    EXPECT_EQ(failed.output.find("== "), 0u) << failed.output;
    EXPECT_NE(failed.output.find("\n2 passed, 1 failed (2 scenarios, "), std::string::npos) << failed.output;
  }
}

// CLI11's own errors used to print two lines without the prefix; "--seed -1" was
// read as 2^64 - 1.
TEST_F(CliTest, FlagErrorsAreOneLineWithThePrefix) {
  const std::string good = write("good.json", kScenario);
  const std::string spec =
      write("spec.json", R"({"allocations": 10, "sizes": {"distribution": "constant", "size": 8}})");
  for (const std::string& arguments :
       {"run --quiet --colour " + good, "run --threads 0 " + good, std::string("frobnicate"),
        "run --quiet --out " + out(), "run --quiet --seed -1 --out " + out() + " " + good,
        "check --quiet --seed -1 --out " + out() + " " + good,
        "trace generate " + spec + " --seed -1 -o " + out() + "/t.csv"}) {
    const auto r = run_cli(arguments, true);
    EXPECT_EQ(r.exit_code, 2) << arguments << ": " << r.output;
    EXPECT_EQ(r.output.rfind("allocsim: error: ", 0), 0u) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_FALSE(fs::exists(out())) << arguments;
  }
}

// A rate of 1e306 makes theory_var = rate x bytes = inf, so the bias's standard
// error sqrt(theory_var / R) is inf too: the bias check passed whatever the bias.
TEST_F(CliTest, InfiniteStandardErrorFailsTheExpectation) {
  std::string scenario = kScenario;
  scenario.replace(scenario.find("\"rate\": 4096"), 12, "\"rate\": 1e306");
  const auto r = run_cli("check --quiet --out " + out() + " " + write("inf.json", scenario));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("no finite standard error for bias (se = inf)"), std::string::npos) << r.output;
}

// Expectation names reach the JUnit XML: control characters must not make it
// ill-formed (XML 1.0 allows only tab, line feed and carriage return).
TEST_F(CliTest, JunitEscapesControlCharacters) {
  std::string scenario = kScenario;
  scenario.replace(scenario.find("\"name\": \"unbiased\""), 18, "\"name\": \"un\\u0001bia\\nsed\"");
  const auto r = run_cli("check --quiet --out " + out() + " --junit " + junit() + " " + write("c.json", scenario));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::ifstream report(junit());
  const std::string xml((std::istreambuf_iterator<char>(report)), std::istreambuf_iterator<char>());
  EXPECT_NE(xml.find("name=\"un\xef\xbf\xbd"
                     "bia&#10;sed "),
            std::string::npos)
      << xml;
  EXPECT_EQ(
      std::count_if(xml.begin(), xml.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\n'; }),
      0);
}

TEST_F(CliTest, SchemesJsonListsEverySchemeWithParameters) {
  const auto r = run_cli("schemes --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto schemes = nlohmann::json::parse(r.output);
  std::vector<std::string> names;
  for (const auto& s : schemes) {
    names.push_back(s["name"]);
    EXPECT_FALSE(s["source"].get<std::string>().empty()) << s["name"];
    EXPECT_TRUE(s["parameters"].is_array());
    EXPECT_TRUE(s["variants"].is_array());
    for (const auto& p : s["parameters"]) {
      EXPECT_TRUE(p.contains("default")) << s["name"];
    }
  }
  EXPECT_NE(std::find(names.begin(), names.end(), "poisson"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "per-byte"), names.end());
}

// One spelling of each flag everywhere, the other accepted: --no-charts (alias
// --no-chart), -q for --quiet, -j for --threads; each command's --help ends in examples.
TEST_F(CliTest, FlagSpellingsShortFlagsAndHelpExamples) {
  const std::string scenario = write("s.json", kScenario);
  for (const std::string flags : {"-q -j 2 --no-charts", "--quiet --threads 2 --no-chart"}) {
    const auto r = run_cli("run " + flags + " --out " + out() + " " + scenario, true);
    EXPECT_EQ(r.exit_code, 0) << flags << "\n" << r.output;
    EXPECT_TRUE(fs::exists(out() + "/cli-demo/metrics.csv")) << flags;
    EXPECT_FALSE(fs::exists(out() + "/cli-demo/charts")) << flags;
  }
  for (const char* command : {"run", "check", "merge", "evaluate", "schemes", "interval", "plot", "trace", "advise",
                              "conformance", "profile", "margins"}) {
    const auto help = run_cli(std::string(command) + " --help");
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_NE(help.output.find("Examples:\n  allocsim "), std::string::npos) << command << "\n" << help.output;
  }
  for (const char* command : {"run", "check", "merge", "evaluate", "conformance"}) {
    EXPECT_NE(run_cli(std::string(command) + " --help").output.find("--no-charts,--no-chart"), std::string::npos)
        << command;
  }
}

// The README and every page of docs/ link only to files that exist (the pages once
// linked back to ../../README.md, outside the repository), and the terms allocsim
// prints are explained in docs/glossary.md, which the top-level --help points to.
TEST_F(CliTest, DocsLinksResolveAndTheGlossaryIsPointedTo) {
  const fs::path source = allocsim::testing::source_dir();
  std::vector<fs::path> pages = {source / "README.md"};
  for (const auto& entry : fs::directory_iterator(source / "docs")) {
    if (entry.path().extension() == ".md") pages.push_back(entry.path());
  }
  const std::regex link(R"(\]\(([^)\s#]+)(#[^)\s]*)?\))");
  for (const fs::path& page : pages) {
    std::ifstream in(page);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator m(text.begin(), text.end(), link), end; m != end; ++m) {
      const std::string target = (*m)[1].str();
      if (target.find("://") != std::string::npos) continue;
      EXPECT_TRUE(fs::exists(page.parent_path() / target)) << page << " links to " << target;
    }
  }
  const auto help = run_cli("--help");
  EXPECT_NE(help.output.find("docs/glossary.md"), std::string::npos) << help.output;
  std::ifstream in(source / "docs" / "glossary.md");
  const std::string glossary((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* term : {"wald", "Horvitz-Thompson", "Garwood", "Clopper-Pearson", "Šidák", "rRMSE", "misplcd"}) {
    EXPECT_NE(glossary.find(term), std::string::npos) << term;
  }
}

// --quiet silences progress, not where the results went.
TEST_F(CliTest, QuietEvaluateStillSaysWhereTheResultsAre) {
  const std::string trace = allocsim::testing::source_dir() + "/traces/bc.raw.zst";
  const auto r =
      run_cli("evaluate " + trace + " --scheme go -q -j 2 --replications 4 --no-charts --out " + out(), true);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::string last = "results in " + out() + "/evaluate-bc/ (report.html, metrics.csv; no charts)\n";
  ASSERT_GE(r.output.size(), last.size()) << r.output;
  EXPECT_EQ(r.output.substr(r.output.size() - last.size()), last) << r.output;
}

// run --quiet printed nothing at all: one last line says where the results went.
TEST_F(CliTest, QuietRunKeepsOneLastLine) {
  const std::string scenario = allocsim::testing::source_dir() + "/scenarios/examples/quickstart.json";
  const auto r = run_cli("run -q -j 2 --no-charts --replications 8 --out " + out() + " " + scenario, true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "results in " + out() + "/quickstart/ (report.html, metrics.csv)\n");
  EXPECT_TRUE(fs::exists(out() + "/quickstart/report.html"));
}

TEST_F(CliTest, VersionAndHelp) {
  const auto v = run_cli("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.output.find(ALLOCSIM_VERSION), std::string::npos);
  EXPECT_EQ(run_cli("--help").exit_code, 0);
  EXPECT_EQ(run_cli("run --help").exit_code, 0);
}

}  // namespace
}  // namespace allocsim
