// `allocsim profile` and `allocsim interval --scheme` end to end: the table, JSON,
// CSV and the annotated pprof (read back by the reader and by `go tool pprof`), and
// bad input refused with one line, exit 2 and nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "allocsim/profile/read_profile.h"
#include "test_support.h"
#include "testing/build_paths.h"

namespace allocsim::profile {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

const std::string kProfiles = allocsim::testing::source_dir() + "/traces/profiles/";

class ProfileCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("allocsim-profile-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(ProfileCli, TableNamesTheTopSitesOfARealGoProfile) {
  const auto r = run_cli("profile --top 3 " + kProfiles + "go-heap.pb.gz");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("main.siteLarge"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("P(top-3 set unchanged"), std::string::npos) << r.output;
}

TEST_F(ProfileCli, JsonIntervalsHoldTheEstimatesOfEveryFormat) {
  for (const std::string name : {"go-heap.pb.gz", "jemalloc-unbiased.heap", "gperftools.heap"}) {
    const auto r = run_cli("profile --json --top 5 --replications 200 " + kProfiles + name);
    ASSERT_EQ(r.exit_code, 0) << name << r.output;
    const auto report = nlohmann::json::parse(r.output);
    ASSERT_FALSE(report["entries"].empty()) << name;
    double previous = INFINITY;
    for (const auto& entry : report["entries"]) {
      const double estimate = entry["estimate"]["bytes"];
      EXPECT_LE(estimate, previous) << name;  // ranked by bytes
      previous = estimate;
      // The interval in whole objects holds the estimate k / p rounded down (the
      // maximum-likelihood n); k / p itself can pass the upper end when p is near 1.
      const double objects = entry["estimate"]["objects"];
      EXPECT_LE(entry["interval"]["objects"][0].get<double>(), objects * (1 + 1e-9)) << name;
      EXPECT_GE(entry["interval"]["objects"][1].get<double>(), std::floor(objects * (1 + 1e-9))) << name;
      EXPECT_GE(entry["p_rank_kept"].get<double>(), 0.0);
      EXPECT_LE(entry["p_rank_kept"].get<double>(), entry["p_in_top"].get<double>());
    }
    // Detection limits of the exponential countdown: T ln 2 and T ln 20 bytes.
    EXPECT_NEAR(report["detection_limit_bytes"]["p50"].get<double>(), 65536 * std::log(2.0), 1e-6);
    EXPECT_NEAR(report["detection_limit_bytes"]["p95"].get<double>(), 65536 * std::log(20.0), 1e-6);
  }
}

TEST_F(ProfileCli, SameSeedSameReport) {
  const std::string command = "profile --json --seed 5 --replications 300 " + kProfiles + "gperftools.heap";
  EXPECT_EQ(run_cli(command).output, run_cli(command).output);
}

TEST_F(ProfileCli, AnnotatedPprofKeepsValuesAndOpensInGoToolPprof) {
  const auto r = run_cli("profile --csv " + file("top.csv") + " --pprof " + file("annotated.pb.gz") + " " + kProfiles +
                         "go-heap.pb.gz");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream csv(file("top.csv"));
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("rank,estimate_bytes,", 0), 0u) << header;
  // The annotated profile reads back with the same samples and sizes.
  const HeapProfile original = read_profile(kProfiles + "go-heap.pb.gz", {});
  const HeapProfile annotated = read_profile(file("annotated.pb.gz"), {});
  ASSERT_EQ(annotated.entries.size(), original.entries.size());
  for (std::size_t i = 0; i < original.entries.size(); ++i) {
    EXPECT_EQ(annotated.entries[i].samples, original.entries[i].samples);
    EXPECT_EQ(annotated.entries[i].values.size(), original.entries[i].values.size() + 5);
  }
  const std::string go_pprof = "cd " + dir_.string() + " && HOME=" + dir_.string() +
                               " go tool pprof -top -sample_index=inuse_space_upper annotated.pb.gz 2>&1";
  FILE* pipe = popen(go_pprof.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << output;
  EXPECT_NE(output.find("main.siteLarge"), std::string::npos) << output;
  EXPECT_NE(output.find("inuse_space_upper"), std::string::npos) << output;
}

TEST_F(ProfileCli, BadInputExitsTwoWithOneLineAndWritesNothing) {
  std::ofstream(file("notes.txt")) << "no header here\n";
  std::ofstream(file("rate0.heap")) << "heap_v2/0\n";
  const std::string outputs = " --csv " + file("out.csv") + " --pprof " + file("out.pb.gz");
  for (const std::string& input :
       {file("notes.txt"), file("rate0.heap"), kProfiles + "go-cpu.pb.gz", file("missing.pb.gz")}) {
    const auto r = run_cli("profile" + outputs + " " + input, true);
    EXPECT_EQ(r.exit_code, 2) << input << ": " << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_NE(r.output.find(input), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(file("out.csv")));
    EXPECT_FALSE(fs::exists(file("out.pb.gz")));
  }
  EXPECT_EQ(run_cli("profile --level 2 " + kProfiles + "gperftools.heap").exit_code, 2);
  EXPECT_EQ(run_cli("profile --jemalloc-unbias maybe " + kProfiles + "jemalloc-raw.heap").exit_code, 2);
}

TEST_F(ProfileCli, ADirectoryIsNamedAsOne) {
  fs::create_directories(file("profiles.d"));
  const auto r = run_cli("profile " + file("profiles.d"), true);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "allocsim: error: " + file("profiles.d") + ": is a directory, not a profile\n");
}

TEST_F(ProfileCli, AFramelessStackShowsAsSuch) {
  std::ofstream(file("frameless.heap")) << "heap_v2/524288\n@\n  t*: 30: 79763360 [0: 0]\n\nMAPPED_LIBRARIES:\n";
  const auto r = run_cli("profile --replications 20 " + file("frameless.heap"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("(no frames)"), std::string::npos) << r.output;
}

TEST_F(ProfileCli, AnnotatedPprofOfExtremeValuesReadsBack) {
  // Rate 2^63 (jemalloc's lg_prof_sample 63) and one object of 2^62 bytes: the
  // period and the interval's upper bytes pass 2^63 - 1 and were cast to INT64_MIN,
  // which the reader refused.
  std::ofstream(file("extreme.heap")) << "heap_v2/9223372036854775808\n@ 0x1\n"
                                         "  t*: 1: 4611686018427387904 [0: 0]\n\nMAPPED_LIBRARIES:\n";
  const auto r = run_cli("profile --replications 20 --pprof " + file("annotated.pb.gz") + " " + file("extreme.heap"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const HeapProfile original = read_profile(file("extreme.heap"), {});
  const HeapProfile annotated = read_profile(file("annotated.pb.gz"), {});
  EXPECT_EQ(annotated.model.rate, original.model.rate);
  ASSERT_EQ(annotated.entries.size(), 1u);
  EXPECT_EQ(annotated.entries[0].samples, original.entries[0].samples);
  for (const std::int64_t value : annotated.entries[0].values) EXPECT_GE(value, 0);
  // inuse_space_upper (after the 2 values and samples, lower): held at 2^63 - 1.
  EXPECT_EQ(annotated.entries[0].values[4], std::numeric_limits<std::int64_t>::max());
}

TEST_F(ProfileCli, IntervalForAScheme) {
  const auto r = run_cli("interval --json --scheme go --samples 3 --size 4096 --rate 524288 --level 0.9");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto result = nlohmann::json::parse(r.output);
  const double p = -std::expm1(-4096.0 / 524288.0);
  const double lower = result["objects"][0], upper = result["objects"][1];
  // The Clopper-Pearson ends in n (profile_interval_test has the full argument).
  using boost::math::binomial_distribution;
  EXPECT_GT(boost::math::cdf(boost::math::complement(binomial_distribution<>(lower, p), 2.0)), 0.05);
  EXPECT_LE(boost::math::cdf(boost::math::complement(binomial_distribution<>(lower - 1, p), 2.0)), 0.05);
  EXPECT_GT(boost::math::cdf(binomial_distribution<>(upper, p), 3.0), 0.05);
  EXPECT_LE(boost::math::cdf(binomial_distribution<>(upper + 1, p), 3.0), 0.05);
  const double estimate = result["estimate"]["bytes"];
  EXPECT_NEAR(result["p_no_sample"]["at_estimate"].get<double>(), std::exp(-estimate / 524288), 1e-12);
  const auto text = run_cli("interval --scheme heapprofd --samples 0 --size 64 --rate 4096");
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.output.find("Garwood"), std::string::npos) << text.output;
  for (const std::string bad :
       {"interval --scheme dotnet-tick --samples 1 --size 8 --rate 100", "interval --scheme go --samples 1 --size 8",
        "interval --scheme go --samples 1 --size 8 --rate 0",
        "interval --scheme go --samples 1 --size 8 --rate 64 --p 0.1",
        "interval --samples 1 --tail-bytes 8 --p 0.1 --size 8"}) {
    const auto refused = run_cli(bad, true);
    EXPECT_EQ(refused.exit_code, 2) << bad << ": " << refused.output;
    EXPECT_EQ(std::count(refused.output.begin(), refused.output.end(), '\n'), 1) << refused.output;
  }
}

TEST_F(ProfileCli, DiffOfAProfileWithItselfFlagsNothing) {
  const auto r = run_cli("diff --json " + kProfiles + "go-heap.pb.gz " + kProfiles + "go-heap.pb.gz");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto report = nlohmann::json::parse(r.output);
  EXPECT_EQ(report["changed"], 0);
  EXPECT_EQ(report["correction"], "holm");
  ASSERT_FALSE(report["entries"].empty());
  for (const auto& entry : report["entries"]) {
    EXPECT_EQ(entry["verdict"], "no evidence");
    EXPECT_EQ(entry["p_value"], 1.0);
  }
}

TEST_F(ProfileCli, DiffRefusesProfilesOfTwoSchemesInOneLine) {
  const auto r = run_cli("diff " + kProfiles + "go-heap.pb.gz " + kProfiles + "jemalloc-unbiased.heap", true);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("jemalloc-unbiased.heap\": written by jemalloc"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

}  // namespace
}  // namespace allocsim::profile
