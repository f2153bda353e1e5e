// `allocsim margins` end to end: the table, the JSON a CI test reads (and --out writes),
// the engine's check on any thread count, a trace workload, and bad input refused with
// one line, exit 2 and nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_support.h"
#include "testing/build_paths.h"
#include "testing/scratch_directory.h"

namespace allocsim::profile {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

const std::string kSites = allocsim::testing::source_dir() + "/traces/profiles/sites.json";

class MarginsCli : public ::testing::Test {
 protected:
  std::string file(const std::string& name, const std::string& contents = "") const {
    const std::string path = (dir_ / name).string();
    if (!contents.empty()) std::ofstream(path) << contents;
    return path;
  }
  testing::ScratchDirectory scratch_;
  const fs::path dir_ = scratch_.path();
};

TEST_F(MarginsCli, TableNamesEverySiteAndTheSplit) {
  const auto r = run_cli("margins " + kSites + " --scheme go --rate 65536");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* text : {"small", "medium", "large", "mixed", "split by sidak", "power"}) {
    EXPECT_NE(r.output.find(text), std::string::npos) << text << "\n" << r.output;
  }
  // Units: the rate as typed back, the expected bytes at a glance, the bounds as whole
  // bytes rounded outward (large: 20 objects of 1 MiB, p = 1 - exp(-16) each; at 1e-6
  // its band runs from 19 sampled objects to all 20, each scaled by 1/p).
  for (const char* text : {"at rate 64 KiB", "  20 MiB", " 19922945 B ", " 20971523 B "}) {
    EXPECT_NE(r.output.find(text), std::string::npos) << text << "\n" << r.output;
  }
  EXPECT_EQ(r.output.find("e+0"), std::string::npos) << r.output;
}

TEST_F(MarginsCli, JsonHoldsABandAroundEachSiteAndOutWritesTheSame) {
  const std::string out = file("margins.json");
  const auto r =
      run_cli("margins " + kSites + " --scheme jemalloc --rate 65536 --false-failure 1e-6 --json --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream written(out);
  const std::string text((std::istreambuf_iterator<char>(written)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, r.output);
  const auto margins = nlohmann::json::parse(r.output);
  EXPECT_EQ(margins["schema"], "allocsim-margins/1");
  EXPECT_EQ(margins["split"], "sidak");
  EXPECT_LE(margins["whole_false_failure"].get<double>(), 1e-6);
  ASSERT_EQ(margins["sites"].size(), 4u);
  for (const auto& site : margins["sites"]) {
    EXPECT_LE(site["lower"].get<double>(), site["true_bytes"].get<double>()) << site["name"];
    EXPECT_GE(site["upper"].get<double>(), site["true_bytes"].get<double>()) << site["name"];
    EXPECT_LE(site["false_failure"].get<double>(), margins["site_false_failure"].get<double>()) << site["name"];
    EXPECT_EQ(site["power_method"], "exact");
  }
  EXPECT_FALSE(margins.contains("check"));
}

TEST_F(MarginsCli, EngineCheckIsTheSameOnAnyThreadCount) {
  const std::string common =
      "margins " + kSites + " --scheme go --rate 65536 --false-failure 0.2 --json --check 200 --seed 9";
  const auto one = run_cli(common + " --threads 1");
  const auto three = run_cli(common + " --threads 3");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_EQ(one.output, three.output);
  const auto margins = nlohmann::json::parse(one.output);
  EXPECT_EQ(margins["check"]["replications"], 200);
  EXPECT_EQ(margins["check"]["sites"].size(), 4u);
}

// gperftools' main thread samples nothing in its first 16 MiB: margins' own check
// of the bands for gperftools' sampling_test.cc workload passes (its bound: at most
// the failures a rate of 0.01 gives with a binomial tail above 1e-6, false alarm
// 1e-6; before the window was modelled 53% of the runs failed, exit 1).
TEST_F(MarginsCli, GperftoolsCheckPassesWithTheUnseenStart) {
  const std::string sites =
      file("sampling.json", R"({"sites": [{"name": "big", "allocations": [{"size": 10000, "count": 8000}]}]})");
  const auto r = run_cli("margins " + sites +
                         " --scheme gperftools --rate 512KiB --false-failure 0.01 --check 2000 --seed 3 -j 2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto margins = nlohmann::json::parse(r.output);
  const auto& site = margins["sites"][0];
  EXPECT_LT(site["upper"].get<double>(), site["true_bytes"].get<double>()) << r.output;
  // 1677 allocations of 10000 B unseen (16 MiB / 10000), the next one certain, 6322 sampled.
  EXPECT_EQ(site["sizes"][0]["allocations"], 6322) << r.output;
  EXPECT_EQ(site["certain"][0]["allocations"], 1) << r.output;
  EXPECT_EQ(margins["unsampled_start_bytes"], 16777216.0) << r.output;
  // At most the stated 0.01 plus 5 SE of 2000 replications (one-sided false alarm 2.9e-7).
  EXPECT_LE(margins["check"]["whole_false_failure"].get<double>(), 0.01 + 5 * std::sqrt(0.01 * 0.99 / 2000))
      << r.output;
}

TEST_F(MarginsCli, SharesAreSplitByBonferroniAndTheirPowerComesFromTheEngine) {
  const auto r =
      run_cli("margins " + kSites + " --scheme go --rate 65536 --value share --json --check 500 --threads 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto margins = nlohmann::json::parse(r.output);
  EXPECT_EQ(margins["split"], "bonferroni");
  EXPECT_EQ(margins["value"], "share");
  for (const auto& site : margins["sites"]) {
    EXPECT_LE(site["lower"].get<double>(), site["expected"].get<double>()) << site["name"];
    EXPECT_GE(site["upper"].get<double>(), site["expected"].get<double>()) << site["name"];
    EXPECT_EQ(site["power_method"], "by the engine, 500 replications") << site["name"];
  }
}

TEST_F(MarginsCli, TraceStacksAreTheSites) {
  // A synthetic trace object (as evaluate and advise take): one stack, constant sizes.
  const std::string trace =
      file("trace.json", R"({"allocations": 5000, "sizes": {"distribution": "constant", "size": 4096}})");
  const auto r = run_cli("margins " + trace + " --scheme tcmalloc --rate 65536 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto margins = nlohmann::json::parse(r.output);
  ASSERT_EQ(margins["sites"].size(), 1u);
  EXPECT_EQ(margins["sites"][0]["true_bytes"].get<double>(), 5000.0 * 4096);
}

TEST_F(MarginsCli, BadInputExitsTwoWithOneLineAndWritesNothing) {
  const std::string out = file("never.json");
  const std::string good = " --scheme go --rate 65536 --out " + out;
  const struct {
    std::string arguments;
    std::string names;  // what the line must name
  } cases[] = {
      {file("unknown.json", R"({"sites": [{"name": "a", "allocations": [{"size": 8, "count": 1}], "colour": 1}]})") +
           good,
       "$.sites[0]"},
      {file("zero.json", R"({"sites": [{"name": "a", "allocations": [{"size": 8, "count": 0}]}]})") + good,
       "$.sites[0].allocations[0].count"},
      {file("twice.json", R"({"sites": [{"name": "a", "allocations": [{"size": 8, "count": 1}]},
                                         {"name": "a", "allocations": [{"size": 8, "count": 1}]}]})") +
           good,
       "$.sites[1].name"},
      {file("huge.json", R"({"sites": [{"name": "a", "allocations": [{"size": 8, "count": 1e12}]}]})") + good,
       "$.sites[0].allocations[0].count"},
      {file("cut.json", R"({"sites": [{"name": "a", )") + good, "cut.json"},
      // No sampling model: the line says why and points to flaky.
      {kSites + " --scheme chromium --rate 65536 --out " + out,
       "--scheme chromium: no sampling model (allocsim schemes: family none), and a band needs the value's "
       "distribution; `allocsim flaky` measures"},
      {kSites + " --scheme go --rate 0 --out " + out, "--rate"},
      {kSites + good + " --false-failure 0", "--false-failure"},
      {kSites + good + " --false-failure 1", "--false-failure"},
      {kSites + good + " --bias -1", "--bias"},
      {kSites + good + " --split holm", "--split"},
      {kSites + good + " --value shares", "--value"},
      {kSites + good + " --value share --split sidak", "--split"},
      {kSites + good + " --min-share 0.1", "--min-share"},
      {kSites + " --scheme go --rate 65536 --out " + kSites + "/x.json", "--out"},
      {file("missing-trace.zst") + good, "missing-trace.zst"},
  };
  for (const auto& c : cases) {
    const auto r = run_cli("margins " + c.arguments, true);
    EXPECT_EQ(r.exit_code, 2) << c.arguments << "\n" << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_NE(r.output.find(c.names), std::string::npos) << c.names << "\n" << r.output;
    EXPECT_FALSE(fs::exists(out)) << c.arguments;
  }
}

}  // namespace
}  // namespace allocsim::profile
