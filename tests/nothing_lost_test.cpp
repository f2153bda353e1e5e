// No command deletes or overwrites what allocsim did not write (util/output_path.h):
// a results directory is replaced only while it carries allocsim's marker, never
// when it holds an input of the command or the working directory, and no output file
// overwrites an input or is written where its parent does not exist.
//
// Every path these tests give a command lies inside the test's own temporary
// directory: `sandboxed` stops a test before it runs a command with any other path,
// so a defect in allocsim cannot reach beyond that directory. The places outside it
// (the filesystem root, system directories) are tested through the pure check of a
// path, which reads nothing and writes nothing.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "allocsim/report/evaluate_scenario.h"
#include "allocsim/util/error.h"
#include "allocsim/util/output_path.h"
#include "test_support.h"
#include "testing/build_paths.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

class NothingLost : public ::testing::Test {
 protected:
  fs::path root() const { return fs::path(scratch_.file("")).parent_path(); }

  // `path`, after checking that it lies inside this test's temporary directory.
  std::string sandboxed(const fs::path& path) const {
    const fs::path normal = fs::absolute(path).lexically_normal();
    const fs::path sandbox = root();
    if (std::mismatch(sandbox.begin(), sandbox.end(), normal.begin(), normal.end()).first != sandbox.end())
      throw std::logic_error(normal.string() + " is outside the test's directory");
    return normal.string();
  }

  // A user's directory with a file of theirs in it.
  fs::path user_directory(const fs::path& path) const {
    fs::create_directories(sandboxed(path));
    std::ofstream(path / "notes.txt") << "mine";
    return path;
  }

  std::string scenario(const fs::path& path, const std::string& name, const std::string& trace = "") const {
    fs::create_directories(path.parent_path());
    const std::string trace_object =
        trace.empty() ? R"({"allocations": 100, "sizes": {"distribution": "constant", "size": 1000}})"
                      : R"({"kind": "file", "path": ")" + trace + "\"}";
    std::ofstream(sandboxed(path)) << R"({"name": ")" << name << R"(", "seed": 1, "replications": 16, "trace": )"
                                   << trace_object << R"(, "schemes": [{"scheme": "poisson", "rate": 4096}]})";
    return path.string();
  }

  std::string csv_trace(const fs::path& path) const {
    fs::create_directories(path.parent_path());
    testing::write_bytes(sandboxed(path),
                         "thread,op,size,stack,type,time,id\n0,alloc,5000,0,0,0,0\n0,alloc,300,1,0,1,1\n");
    return path.string();
  }

  // Runs `allocsim run --quiet --no-charts --out OUT SCENARIO` and returns the result.
  testing::CliResult run(const fs::path& out, const std::string& scenario_file) const {
    return run_cli("run --quiet --no-charts --out " + sandboxed(out) + " " + sandboxed(scenario_file), true);
  }

  testing::ScratchDirectory scratch_;
};

bool holds_users_file(const fs::path& directory) {
  return testing::read_bytes((directory / "notes.txt").string()) == "mine";
}

TEST_F(NothingLost, ADirectoryAllocsimDidNotWriteIsNeverReplaced) {
  // The shape of `run --out / s.json` with a scenario named etc, inside the sandbox.
  const fs::path out = root() / "fake-root";
  user_directory(out / "etc");
  const auto result = run(out, scenario(root() / "s.json", "etc"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("exists and was not written by allocsim"), std::string::npos) << result.output;
  EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1) << result.output;
  EXPECT_TRUE(holds_users_file(out / "etc"));
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 1);  // nothing staged
}

TEST_F(NothingLost, AnEmptyDirectoryWithoutTheMarkerIsNotReplacedEither) {
  const fs::path out = root() / "home";
  fs::create_directories(out / "Documents");
  EXPECT_EQ(run(out, scenario(root() / "s.json", "Documents")).exit_code, 2);
  EXPECT_TRUE(fs::is_empty(out / "Documents"));
}

TEST_F(NothingLost, ADirectoryAllocsimWroteIsReplacedAndCarriesTheMarker) {
  const fs::path out = root() / "out";
  const std::string file = scenario(root() / "s.json", "demo");
  ASSERT_EQ(run(out, file).exit_code, 0);
  EXPECT_TRUE(written_by_allocsim(out / "demo"));
  EXPECT_NE(testing::read_bytes((out / "demo" / kResultsMarker).string()).find("scenario demo"), std::string::npos);
  ASSERT_EQ(run(out, file).exit_code, 0);  // the second run replaces the first
  EXPECT_TRUE(written_by_allocsim(out / "demo"));
}

TEST_F(NothingLost, ADeletedMarkerProtectsTheDirectory) {
  const fs::path out = root() / "out";
  const std::string file = scenario(root() / "s.json", "demo");
  ASSERT_EQ(run(out, file).exit_code, 0);
  fs::remove(out / "demo" / kResultsMarker);
  EXPECT_EQ(run(out, file).exit_code, 2);
  EXPECT_TRUE(fs::exists(out / "demo" / "metrics.csv"));
}

TEST_F(NothingLost, AResultsDirectoryHoldingTheScenarioIsRefused) {
  // `--out .` with s.json in ./s/.
  const std::string file = scenario(root() / "s" / "s.json", "s");
  const auto result = run(root(), file);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("an input of this command"), std::string::npos) << result.output;
  EXPECT_TRUE(fs::exists(file));
}

TEST_F(NothingLost, AResultsDirectoryHoldingTheTraceIsRefusedEvenWithTheMarker) {
  // --out at the directory above the trace's, with a name equal to that directory.
  const std::string trace = csv_trace(root() / "data" / "t.csv");
  std::ofstream(root() / "data" / kResultsMarker) << "planted";
  const auto result = run(root(), scenario(root() / "s.json", "data", trace));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("t.csv"), std::string::npos) << result.output;
  EXPECT_TRUE(fs::exists(trace));
}

TEST_F(NothingLost, AResultsDirectoryHoldingTheWorkingDirectoryIsRefused) {
  // `--out ..` from inside a directory named as the scenario: replacing it would take
  // the working directory away.
  const fs::path work = root() / "work";
  std::ofstream(sandboxed(user_directory(work) / kResultsMarker)) << "planted";
  const std::string file = scenario(root() / "s.json", "work");
  const auto result = run_cli("run --quiet --no-charts --out .. " + sandboxed(file), true, sandboxed(work));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("holds the current directory"), std::string::npos) << result.output;
  EXPECT_TRUE(holds_users_file(work));
}

TEST_F(NothingLost, ALinkInPlaceOfTheResultsDirectoryIsNotFollowed) {
  const fs::path out = root() / "out";
  const fs::path elsewhere = user_directory(root() / "elsewhere");
  std::ofstream(elsewhere / kResultsMarker) << "planted";
  fs::create_directories(out);
  fs::create_directory_symlink(elsewhere, out / "demo");
  const auto result = run(out, scenario(root() / "s.json", "demo"));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find((out / "demo").string() + " is a symbolic link"), std::string::npos) << result.output;
  EXPECT_TRUE(holds_users_file(elsewhere));
  EXPECT_TRUE(fs::is_symlink(out / "demo"));
}

TEST_F(NothingLost, AnOutRootIsCreatedOneLevelDeepOnly) {
  const std::string file = scenario(root() / "s.json", "demo");
  EXPECT_EQ(run(root() / "new", file).exit_code, 0);
  const auto result = run(root() / "missing" / "deeper", file);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("does not exist"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(root() / "missing"));
}

TEST_F(NothingLost, EvaluateRefusesADirectoryItDidNotWrite) {
  const std::string trace = csv_trace(root() / "t.csv");
  user_directory(root() / "out" / "etc");
  const auto result = run_cli("evaluate " + sandboxed(trace) +
                                  " --scheme poisson --rate 1024 --replications 8 --no-charts"
                                  " --quiet --name etc --out " +
                                  sandboxed(root() / "out"),
                              true);
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_TRUE(holds_users_file(root() / "out" / "etc"));
}

// Without --name, each recording gets a results directory of its own: heaptrack's
// files are named after the program (they all shared results/evaluate-heaptrack/), and an
// earlier result, or a directory allocsim did not write, is kept beside the new one
// (evaluate-<stem>-2), said on the last line; --name NAME replaces NAME as before.
TEST_F(NothingLost, EvaluateKeepsEarlierResultsUnderItsDefaultName) {
  EXPECT_EQ(evaluate_default_name("heaptrack.bc.4242.zst"), "evaluate-bc");
  EXPECT_EQ(evaluate_default_name("/tmp/heaptrack.my-prog.17.raw.gz"), "evaluate-my-prog");
  EXPECT_EQ(evaluate_default_name("sqlite3.raw.zst"), "evaluate-sqlite3");
  const std::string bc = csv_trace(root() / "heaptrack.bc.1.csv");
  const std::string cc = csv_trace(root() / "heaptrack.cc1.2.csv");
  const auto evaluate = [&](const std::string& trace, const std::string& extra = "") {
    return run_cli("evaluate " + sandboxed(trace) + " --scheme poisson --replications 8 --no-charts --quiet --out " +
                       sandboxed(root() / "out") + extra,
                   true);
  };
  ASSERT_EQ(evaluate(bc).exit_code, 0);
  ASSERT_EQ(evaluate(cc).exit_code, 0);
  EXPECT_TRUE(written_by_allocsim(root() / "out" / "evaluate-bc"));
  EXPECT_TRUE(written_by_allocsim(root() / "out" / "evaluate-cc1"));
  testing::write_bytes((root() / "out" / "evaluate-bc" / "notes.txt").string(), "mine");
  const auto again = evaluate(bc);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_TRUE(holds_users_file(root() / "out" / "evaluate-bc")) << "the earlier result is kept";
  EXPECT_TRUE(written_by_allocsim(root() / "out" / "evaluate-bc-2"));
  EXPECT_NE(again.output.find("evaluate-bc-2/"), std::string::npos) << again.output;
  EXPECT_NE(again.output.find("evaluate-bc/ kept"), std::string::npos) << again.output;
  user_directory(root() / "out" / "evaluate-bc-3");
  ASSERT_EQ(evaluate(bc).exit_code, 0);
  EXPECT_TRUE(holds_users_file(root() / "out" / "evaluate-bc-3"));
  EXPECT_TRUE(written_by_allocsim(root() / "out" / "evaluate-bc-4"));
  // Named, it is replaced: the user asked for that directory.
  ASSERT_EQ(evaluate(bc, " --name evaluate-bc-2").exit_code, 0);
  EXPECT_FALSE(fs::exists(root() / "out" / "evaluate-bc-5"));
}

TEST_F(NothingLost, AdviseOutIsStagedAndRefusesADirectoryItDidNotWrite) {
  const std::string trace = csv_trace(root() / "t.csv");
  const std::string advise = "advise " + sandboxed(trace) + " --total-error 0.5 --replications 0 --out ";
  const fs::path mine = user_directory(root() / "mine");
  EXPECT_EQ(run_cli(advise + sandboxed(mine)).exit_code, 2);
  EXPECT_TRUE(holds_users_file(mine));
  EXPECT_EQ(std::distance(fs::directory_iterator(mine), fs::directory_iterator()), 1);

  const fs::path advice = root() / "advice";
  ASSERT_EQ(run_cli(advise + sandboxed(advice)).exit_code, 0);
  EXPECT_TRUE(written_by_allocsim(advice));
  EXPECT_TRUE(fs::exists(advice / "advice.json"));
  EXPECT_EQ(run_cli(advise + sandboxed(advice)).exit_code, 0);  // replaced whole
}

TEST_F(NothingLost, AnAbandonedStagingAllocsimDidNotWriteIsKept) {
  const fs::path out = root() / "out";
  const fs::path lookalike = user_directory(out / ".demo.tmp.999999999");
  ASSERT_EQ(run(out, scenario(root() / "s.json", "demo")).exit_code, 0);
  EXPECT_TRUE(holds_users_file(lookalike));
}

TEST_F(NothingLost, NoOutputFileOverwritesAnInput) {
  const std::string trace = csv_trace(root() / "t.csv");
  const std::string trace_bytes = testing::read_bytes(trace);
  const std::string file = scenario(root() / "s.json", "demo", trace);
  const std::string scenario_bytes = testing::read_bytes(file);
  const std::vector<std::string> commands = {
      "run --quiet --shard 0/2 --out " + sandboxed(file) + " " + sandboxed(file),
      "evaluate " + sandboxed(trace) + " --scheme poisson --replications 8 --no-charts --quiet --out " +
          sandboxed(root() / "out") + " --save-scenario " + sandboxed(trace),
      "check --quiet --no-charts --out " + sandboxed(root() / "out") + " --junit " + sandboxed(trace) + " " +
          sandboxed(file),
      "margins " + sandboxed(trace) + " --scheme poisson --rate 1024 --check 0 --out " + sandboxed(trace),
  };
  for (const std::string& command : commands) {
    const auto result = run_cli(command, true);
    EXPECT_EQ(result.exit_code, 2) << command << "\n" << result.output;
    EXPECT_NE(result.output.find("does not overwrite its inputs"), std::string::npos) << command << "\n"
                                                                                      << result.output;
  }
  EXPECT_EQ(testing::read_bytes(trace), trace_bytes);
  EXPECT_EQ(testing::read_bytes(file), scenario_bytes);
  EXPECT_FALSE(fs::exists(root() / "out"));
}

TEST_F(NothingLost, ProfileOutputsNeitherOverwriteTheProfileNorEachOther) {
  const fs::path profile = root() / "go-heap.pb.gz";
  fs::copy_file(fs::path(allocsim::testing::source_dir()) / "traces/profiles/go-heap.pb.gz", sandboxed(profile));
  const std::string bytes = testing::read_bytes(profile.string());
  const std::string profile_command = "profile " + sandboxed(profile) + " --replications 16 ";
  EXPECT_EQ(run_cli(profile_command + "--pprof " + sandboxed(profile)).exit_code, 2);
  EXPECT_EQ(run_cli(profile_command + "--csv " + sandboxed(profile)).exit_code, 2);
  const std::string both = sandboxed(root() / "both");
  const auto same = run_cli(profile_command + "--csv " + both + " --pprof " + both, true);
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_NE(same.output.find("is also --csv"), std::string::npos) << same.output;
  EXPECT_FALSE(fs::exists(both));
  EXPECT_EQ(testing::read_bytes(profile.string()), bytes);
}

TEST_F(NothingLost, AMissingParentOfAnOutputFileIsAnErrorNotCreated) {
  const fs::path profile = root() / "go-heap.pb.gz";
  fs::copy_file(fs::path(allocsim::testing::source_dir()) / "traces/profiles/go-heap.pb.gz", sandboxed(profile));
  const auto result =
      run_cli("profile " + sandboxed(profile) + " --pprof " + sandboxed(root() / "nonexistent" / "x.pb.gz"), true);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("does not exist (allocsim does not create it)"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(root() / "nonexistent"));
}

// The places outside any sandbox, through the check alone (it reads, never writes).
TEST(OutputPlaces, TheRootTopLevelAndSystemDirectoriesAreNeverOutputs) {
  for (const char* place : {"/", "/etc", "/home", "/tmp", "/usr/share/doc", "/etc/apt"}) {
    EXPECT_THROW(check_results_directory(place, {}, "--out"), InputError) << place;
  }
  for (const char* file : {"/x.pb.gz", "/etc/passwd", "/usr/lib/x.csv"}) {
    EXPECT_THROW(check_output_file(file, {}, "--pprof"), InputError) << file;
  }
}

// Two runs replacing the same results directory at once: each finishes, and what is
// left is one of them whole, with nothing staged behind.
TEST_F(NothingLost, TwoRunsAtOnceLeaveOneWholeResult) {
  const fs::path out = root() / "out";
  const std::string first = scenario(root() / "a" / "s.json", "demo");
  std::string second_text = testing::read_bytes(first);
  second_text.replace(second_text.find("\"seed\": 1"), 9, "\"seed\": 2");
  fs::create_directories(root() / "b");
  testing::write_bytes(sandboxed(root() / "b" / "s.json"), second_text);
  ASSERT_EQ(run(out, first).exit_code, 0);
  for (int round = 0; round < 4; ++round) {
    const std::string command =
        allocsim::testing::cli_binary() + " run --quiet --no-charts --out " + sandboxed(out) + " ";
    const std::string both = "(" + command + sandboxed(root() / "a" / "s.json") + " & a=$!; " + command +
                             sandboxed(root() / "b" / "s.json") +
                             " & b=$!; wait $a; ra=$?; wait $b; exit $((ra + $?)))";
    EXPECT_EQ(std::system(both.c_str()), 0) << round;
    const auto seed = nlohmann::json::parse(std::ifstream(out / "demo" / "summary.json"))["seed"].get<int>();
    EXPECT_TRUE(seed == 1 || seed == 2);
    EXPECT_TRUE(written_by_allocsim(out / "demo"));
    EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 1);
  }
}

}  // namespace
}  // namespace allocsim
