// `allocsim profile` and `allocsim interval --scheme` end to end: the table, JSON,
// CSV and the annotated pprof (read back by the reader and by `go tool pprof`), and
// bad input refused with one line, exit 2 and nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/profile.pb.h"
#include "allocsim/profile/read_profile.h"
#include "test_support.h"
#include "testing/build_paths.h"
#include "testing/scratch_directory.h"

namespace allocsim::profile {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

class ProfileCli : public ::testing::Test {
 protected:
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  testing::ScratchDirectory scratch_;
  const fs::path dir_ = scratch_.path();
};

// The profile.proto message of a pprof file, gzip'd or not.
pprof::Profile message_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string contents((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  pprof::Profile message;
  EXPECT_TRUE(message.ParseFromString(is_gzip(contents) ? gunzip(contents, path, 1 << 30) : contents)) << path;
  return message;
}

TEST_F(ProfileCli, TableNamesTheTopSitesOfARealGoProfile) {
  const auto r = run_cli("profile --top 3 " + allocsim::testing::profiles_dir() + "go-heap.pb.gz");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("main.siteLarge"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("P(top-3 set unchanged"), std::string::npos) << r.output;
}

// Rank stability's resamples run on the pool: the table is byte-identical on one and
// on two threads.
TEST_F(ProfileCli, OutputDoesNotDependOnTheThreadCount) {
  const std::string common =
      "profile --top 3 --replications 200 " + allocsim::testing::profiles_dir() + "go-heap.pb.gz";
  const auto one = run_cli(common + " --threads 1");
  const auto two = run_cli(common + " --threads 2");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_EQ(one.output, two.output);
}

TEST_F(ProfileCli, TableCarriesUnitsAndSaysWhatTheSystemCannotSee) {
  const auto go = run_cli("profile --top 3 " + allocsim::testing::profiles_dir() + "go-heap.pb.gz");
  ASSERT_EQ(go.exit_code, 0) << go.output;
  // siteLarge holds 20 objects of 1 MiB, each sampled almost surely at 64 KiB.
  EXPECT_NE(go.output.find("[20 MiB, 20 MiB]"), std::string::npos) << go.output;
  EXPECT_NE(go.output.find("rate 64 KiB"), std::string::npos) << go.output;
  EXPECT_EQ(go.output.find("e+0"), std::string::npos) << go.output;
  EXPECT_EQ(go.output.find("first 16 MiB"), std::string::npos) << go.output;
  // gperftools' main thread samples nothing in its first 16 MiB (gperftools.h).
  const auto gperftools = run_cli("profile --top 3 " + allocsim::testing::profiles_dir() + "gperftools.heap");
  ASSERT_EQ(gperftools.exit_code, 0) << gperftools.output;
  EXPECT_NE(gperftools.output.find("samples nothing in its main thread's first 16 MiB"), std::string::npos)
      << gperftools.output;
  const auto json = run_cli("profile --json --top 3 " + allocsim::testing::profiles_dir() + "gperftools.heap");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  EXPECT_EQ(nlohmann::json::parse(json.output).at("unsampled_start_bytes"), 16777216.0) << json.output;
}

TEST_F(ProfileCli, JsonIntervalsHoldTheEstimatesOfEveryFormat) {
  for (const std::string name : {"go-heap.pb.gz", "jemalloc-unbiased.heap", "gperftools.heap"}) {
    const auto r = run_cli("profile --json --top 5 --replications 200 " + allocsim::testing::profiles_dir() + name);
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
  const std::string command =
      "profile --json --seed 5 --replications 300 " + allocsim::testing::profiles_dir() + "gperftools.heap";
  EXPECT_EQ(run_cli(command).output, run_cli(command).output);
}

TEST_F(ProfileCli, AnnotatedPprofKeepsValuesAndOpensInGoToolPprof) {
  const auto r = run_cli("profile --csv " + file("top.csv") + " --pprof " + file("annotated.pb.gz") + " " +
                         allocsim::testing::profiles_dir() + "go-heap.pb.gz");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream csv(file("top.csv"));
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("rank,estimate_bytes,", 0), 0u) << header;
  // The annotated profile reads back with the same samples and sizes.
  const HeapProfile original = read_profile(allocsim::testing::profiles_dir() + "go-heap.pb.gz", {});
  const HeapProfile annotated = read_profile(file("annotated.pb.gz"), {});
  ASSERT_EQ(annotated.entries.size(), original.entries.size());
  for (std::size_t i = 0; i < original.entries.size(); ++i) {
    EXPECT_EQ(annotated.entries[i].samples, original.entries[i].samples);
  }
  // And it holds everything the original held, unchanged, plus five sample types.
  const pprof::Profile before = message_of(allocsim::testing::profiles_dir() + "go-heap.pb.gz");
  const pprof::Profile after = message_of(file("annotated.pb.gz"));
  EXPECT_EQ(after.sample_type_size(), before.sample_type_size() + 5);
  ASSERT_EQ(after.sample_size(), before.sample_size());
  for (int s = 0; s < before.sample_size(); ++s) {
    ASSERT_EQ(after.sample(s).value_size(), before.sample(s).value_size() + 5);
    for (int v = 0; v < before.sample(s).value_size(); ++v)
      EXPECT_EQ(after.sample(s).value(v), before.sample(s).value(v));
    EXPECT_EQ(after.sample(s).label_size(), before.sample(s).label_size());
    EXPECT_EQ(after.sample(s).location_id_size(), before.sample(s).location_id_size());
  }
  EXPECT_EQ(after.location_size(), before.location_size());
  EXPECT_EQ(after.function_size(), before.function_size());
  EXPECT_EQ(after.mapping_size(), before.mapping_size());
  EXPECT_EQ(after.time_nanos(), before.time_nanos());
  EXPECT_EQ(after.duration_nanos(), before.duration_nanos());
  EXPECT_EQ(after.period(), before.period());
  if (testing::run_shell("command -v go >/dev/null").exit_code != 0) GTEST_SKIP() << "go is not installed";
  const auto go = testing::run_shell("cd " + dir_.string() + " && HOME=" + dir_.string() +
                                     " go tool pprof -top -sample_index=inuse_space_upper annotated.pb.gz 2>&1");
  EXPECT_EQ(go.exit_code, 0) << go.output;
  EXPECT_NE(go.output.find("main.siteLarge"), std::string::npos) << go.output;
  EXPECT_NE(go.output.find("inuse_space_upper"), std::string::npos) << go.output;
}

TEST_F(ProfileCli, BadInputExitsTwoWithOneLineAndWritesNothing) {
  std::ofstream(file("notes.txt")) << "no header here\n";
  std::ofstream(file("rate0.heap")) << "heap_v2/0\n";
  const std::string outputs = " --csv " + file("out.csv") + " --pprof " + file("out.pb.gz");
  for (const std::string& input : {file("notes.txt"), file("rate0.heap"),
                                   allocsim::testing::profiles_dir() + "go-cpu.pb.gz", file("missing.pb.gz")}) {
    const auto r = run_cli("profile" + outputs + " " + input, true);
    EXPECT_EQ(r.exit_code, 2) << input << ": " << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_NE(r.output.find(input), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(file("out.csv")));
    EXPECT_FALSE(fs::exists(file("out.pb.gz")));
  }
  EXPECT_EQ(run_cli("profile --level 2 " + allocsim::testing::profiles_dir() + "gperftools.heap").exit_code, 2);
  EXPECT_EQ(
      run_cli("profile --jemalloc-unbias maybe " + allocsim::testing::profiles_dir() + "jemalloc-raw.heap").exit_code,
      2);
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
  const pprof::Profile message = message_of(file("annotated.pb.gz"));
  ASSERT_EQ(message.sample_size(), 1);
  ASSERT_EQ(message.sample(0).value_size(), 9);
  for (const std::int64_t value : message.sample(0).value()) EXPECT_GE(value, 0);
  // inuse_space_upper (after the 4 values of both windows, samples and lower): held
  // at 2^63 - 1.
  EXPECT_EQ(message.sample(0).value(6), std::numeric_limits<std::int64_t>::max());
}

TEST_F(ProfileCli, AnnotatedJemallocProfileShowsWhatJeprofShowsWithItsMappings) {
  ReadOptions raw;
  raw.jemalloc_unbias = false;
  const auto r = run_cli("profile --jemalloc-unbias off --replications 20 --pprof " + file("annotated.pb.gz") + " " +
                         allocsim::testing::profiles_dir() + "jemalloc-raw.heap");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const HeapProfile original = read_profile(allocsim::testing::profiles_dir() + "jemalloc-raw.heap", raw);
  const pprof::Profile message = message_of(file("annotated.pb.gz"));
  // alloc_objects, alloc_space, inuse_objects, inuse_space, then the five annotations.
  ASSERT_EQ(message.sample_type_size(), 9);
  EXPECT_EQ(message.string_table(static_cast<int>(message.sample_type(3).type())), "inuse_space");
  EXPECT_EQ(message.string_table(static_cast<int>(message.default_sample_type())), "inuse_space");
  // inuse_space is jeprof's scaled estimate (truncated to whole bytes), not the raw
  // sampled bytes: the totals agree within a byte per record.
  double written = 0, estimated = 0;
  for (const auto& sample : message.sample()) written += static_cast<double>(sample.value(3));
  for (const ProfileEntry& entry : original.entries) estimated += entry.estimate_bytes;
  EXPECT_NEAR(written, estimated, static_cast<double>(message.sample_size()));
  EXPECT_GT(written, 1.5 * 23657344);  // the raw bytes of the largest record alone
  // The memory map's executable line, and each location within its mapping.
  bool program = false;
  for (const auto& mapping : message.mapping()) {
    program = program ||
              message.string_table(static_cast<int>(mapping.filename())).find("heap_jemalloc") != std::string::npos;
  }
  EXPECT_TRUE(program);
  int mapped = 0;
  for (const auto& location : message.location()) {
    if (location.mapping_id() == 0) continue;
    const auto& mapping = message.mapping(static_cast<int>(location.mapping_id()) - 1);
    EXPECT_GE(location.address(), mapping.memory_start());
    EXPECT_LT(location.address(), mapping.memory_limit());
    ++mapped;
  }
  EXPECT_GT(mapped, 0);
  // Read back, every entry keeps its samples.
  const HeapProfile annotated = read_profile(file("annotated.pb.gz"), {});
  ASSERT_EQ(annotated.entries.size(), original.entries.size());
  for (std::size_t i = 0; i < original.entries.size(); ++i) {
    EXPECT_EQ(annotated.entries[i].samples, original.entries[i].samples) << i;
  }
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

TEST_F(ProfileCli, DiffRefusesProfilesOfTwoSchemesInOneLine) {
  const auto r = run_cli("diff " + allocsim::testing::profiles_dir() + "go-heap.pb.gz " +
                             allocsim::testing::profiles_dir() + "jemalloc-unbiased.heap",
                         true);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("jemalloc-unbiased.heap\": written by jemalloc"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

}  // namespace
}  // namespace allocsim::profile
