// A scenario's results directory is replaced whole: a rerun leaves no file of the
// run before (estimates.csv no longer asked for), an interrupt leaves the old
// directory as it was and no temporary behind, and what a killed run left is
// removed by the next.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "allocsim/util/output_path.h"
#include "test_support.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

class ResultsDirectory : public ::testing::Test {
 protected:
  std::string scenario(std::uint64_t seed, std::uint64_t replications, bool estimates) {
    const std::string path = scratch_.file(std::to_string(seed) + ".json");
    std::ofstream(path) << R"({"name": "demo", "seed": )" << seed << R"(, "replications": )" << replications
                        << R"(, "trace": {"allocations": 100, "sizes": {"distribution": "constant", "size": 1000}},
      "schemes": [{"scheme": "poisson", "rate": "$rate"}], "sweep": {"rate": [1024, 2048, 4096, 8192]},
      "outputs": {"estimates": )"
                        << (estimates ? "true" : "false") << "}}";
    return path;
  }
  fs::path out() const { return scratch_.file("out"); }
  fs::path results() const { return out() / "demo"; }

  // Entries of out/ other than the results directory: temporaries.
  std::vector<std::string> leftovers() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(out())) {
      if (entry.path() != results()) names.push_back(entry.path().filename().string());
    }
    return names;
  }

  testing::ScratchDirectory scratch_;
};

std::uint64_t summary_seed(const fs::path& results) {
  return nlohmann::json::parse(std::ifstream(results / "summary.json"))["seed"].get<std::uint64_t>();
}

TEST_F(ResultsDirectory, RerunLeavesNoFileOfTheRunBefore) {
  ASSERT_EQ(run_cli("run --quiet --out " + out().string() + " " + scenario(1, 16, true)).exit_code, 0);
  ASSERT_TRUE(fs::exists(results() / "estimates.csv"));
  ASSERT_EQ(run_cli("run --quiet --out " + out().string() + " " + scenario(2, 16, false)).exit_code, 0);
  EXPECT_FALSE(fs::exists(results() / "estimates.csv"));
  EXPECT_EQ(summary_seed(results()), 2u);
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(ResultsDirectory, WhatAKilledRunLeftIsRemovedByTheNext) {
  // A staged directory of a process that no longer exists (pids stay below 2^22).
  const fs::path abandoned = out() / ".demo.tmp.999999999";
  fs::create_directories(abandoned);
  std::ofstream(abandoned / kResultsMarker) << "written first";
  std::ofstream(abandoned / "estimates.csv") << "half written";
  ASSERT_EQ(run_cli("run --quiet --out " + out().string() + " " + scenario(1, 16, false)).exit_code, 0);
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(ResultsDirectory, InterruptKeepsTheOldDirectoryWholeAndRemovesTheTemporary) {
  ASSERT_EQ(run_cli("run --quiet --out " + out().string() + " " + scenario(1, 16, false)).exit_code, 0);
  const std::string old_metrics = testing::read_bytes(results() / "metrics.csv");

  // A run whose writing takes a while (estimates.csv of 4 x 2 x 30000 rows); SIGINT
  // as soon as its staged directory appears.
  const std::string slow = scenario(2, 30000, true);
  const std::string out_dir = out().string();
  const pid_t pid = testing::spawn_cli({"run", "--quiet", "--threads", "2", "--out", out_dir, slow}, SIGINT);
  ASSERT_GT(pid, 0);
  bool staged_seen = false;
  int status = 0;
  while (!staged_seen && waitpid(pid, &status, WNOHANG) == 0) {
    staged_seen = !leftovers().empty();
  }
  ASSERT_TRUE(staged_seen) << "the run ended before its staged directory was seen";
  ::kill(pid, SIGINT);
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;

  EXPECT_TRUE(leftovers().empty()) << leftovers().front();
  // Either the old directory, untouched, or (had the signal come after the swap) the
  // whole new one: never a mix.
  if (summary_seed(results()) == 1) {
    EXPECT_EQ(testing::read_bytes(results() / "metrics.csv"), old_metrics);
    EXPECT_FALSE(fs::exists(results() / "estimates.csv"));
  } else {
    EXPECT_EQ(summary_seed(results()), 2u);
    EXPECT_TRUE(fs::exists(results() / "estimates.csv"));
  }
}

// SIGINT and SIGTERM at moments spread from the start of a run to its end: whenever
// the signal lands, the results directory is the old one or the whole new one, the
// scenario is untouched and nothing staged is left.
TEST_F(ResultsDirectory, SignalsAtAnyMomentLeaveTheOldOrTheNewDirectoryWhole) {
  ASSERT_EQ(run_cli("run --quiet --no-charts --out " + out().string() + " " + scenario(1, 16, false)).exit_code, 0);
  const std::string old_metrics = testing::read_bytes(results() / "metrics.csv");
  const std::string slow = scenario(2, 4000, true);
  const std::string slow_bytes = testing::read_bytes(slow);
  int old_seen = 0, new_seen = 0;
  for (const int signal : {SIGINT, SIGTERM}) {
    for (const int delay_us : {0, 2000, 10000, 30000, 60000, 120000, 250000, 500000}) {
      const pid_t pid = testing::spawn_cli({"run", "--quiet", "--threads", "2", "--out", out().string(), slow}, signal);
      ASSERT_GT(pid, 0);
      ::usleep(static_cast<useconds_t>(delay_us));
      ::kill(pid, signal);
      int status = 0;
      ASSERT_EQ(waitpid(pid, &status, 0), pid);
      EXPECT_TRUE(leftovers().empty()) << signal << " at " << delay_us << " us: " << leftovers().front();
      EXPECT_EQ(testing::read_bytes(slow), slow_bytes);
      ASSERT_TRUE(written_by_allocsim(results()));
      if (summary_seed(results()) == 1) {
        ++old_seen;
        EXPECT_EQ(testing::read_bytes(results() / "metrics.csv"), old_metrics);
        EXPECT_FALSE(fs::exists(results() / "estimates.csv"));
      } else {
        ++new_seen;  // the signal came after the swap (or after the run): the new one whole
        EXPECT_EQ(summary_seed(results()), 2u);
        EXPECT_TRUE(fs::exists(results() / "estimates.csv"));
        ASSERT_EQ(run_cli("run --quiet --no-charts --out " + out().string() + " " + scenario(1, 16, false)).exit_code,
                  0);
      }
    }
  }
  EXPECT_GT(old_seen, 0);  // at least one signal landed before the swap
}

// The same for merge, which writes the results of part files.
TEST_F(ResultsDirectory, SignalsDuringAMergeLeaveTheOldOrTheNewDirectoryWhole) {
  const std::string file = scenario(2, 4000, true);
  std::vector<std::string> parts;
  for (int k = 0; k < 2; ++k) {
    parts.push_back(scratch_.file("part" + std::to_string(k)));
    ASSERT_EQ(run_cli("run --quiet --shard " + std::to_string(k) + "/2 --out " + parts.back() + " " + file).exit_code,
              0);
  }
  ASSERT_EQ(run_cli("run --quiet --no-charts --out " + out().string() + " " + scenario(1, 16, false)).exit_code, 0);
  const std::string old_metrics = testing::read_bytes(results() / "metrics.csv");
  for (const int delay_us : {0, 5000, 20000, 60000, 150000}) {
    const pid_t pid = testing::spawn_cli({"merge", "--quiet", "--out", out().string(), parts[0], parts[1]}, SIGTERM);
    ASSERT_GT(pid, 0);
    ::usleep(static_cast<useconds_t>(delay_us));
    ::kill(pid, SIGTERM);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(leftovers().empty()) << delay_us << " us: " << leftovers().front();
    ASSERT_TRUE(written_by_allocsim(results()));
    if (summary_seed(results()) == 1) {
      EXPECT_EQ(testing::read_bytes(results() / "metrics.csv"), old_metrics);
    } else {
      EXPECT_TRUE(fs::exists(results() / "estimates.csv"));
      ASSERT_EQ(run_cli("run --quiet --no-charts --out " + out().string() + " " + scenario(1, 16, false)).exit_code, 0);
    }
  }
}

}  // namespace
}  // namespace allocsim
