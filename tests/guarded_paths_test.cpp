// Paths a command guards beyond its own arguments (docs/bad-input.md): the files a
// JSON trace object or a workload names are inputs too; `plot` rewrites only
// directories allocsim wrote; no results directory takes a staging's name; an output
// file may not lie in the directory the same command replaces; and the temporary
// file an output is written through is allocsim's own or is not written at all.
//
// Every path lies inside the test's own temporary directory (ScratchDirectory).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/output_path.h"
#include "test_support.h"
#include "testing/scratch_directory.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

constexpr const char* kTraceCsv = "thread,op,size,stack,type,time,id\n0,alloc,5000,0,0,0,0\n0,alloc,300,1,0,1,1\n";

// A scenario with one table, so that `plot` has a file to rewrite.
std::string scenario_text(const std::string& name) {
  return R"({"name": ")" + name + R"(", "seed": 1, "replications": 8,
    "trace": {"allocations": 100, "sizes": {"distribution": "constant", "size": 1000}},
    "schemes": [{"scheme": "poisson", "rate": 4096}],
    "tables": [{"name": "tot", "title": "totals", "columns": ["scheme", "mape"]}]})";
}

// Exit 2 and one line, saying `says` (docs/bad-input.md).
void expect_refused(const testing::CliResult& result, const std::string& says) {
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find(says), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find('\n'), result.output.size() - 1) << result.output;
}

TEST(GuardedPaths, AdviseKeepsTheTraceItsTraceObjectNamesInsideOut) {
  testing::ScratchDirectory dir;
  testing::write_bytes(dir.file("t.csv"), kTraceCsv);
  const std::string advise = "advise --total-error 0.5 --replications 0 --out " + dir.file("advice") + " ";
  ASSERT_EQ(run_cli(advise + dir.file("t.csv")).exit_code, 0);  // advice/ is allocsim's now
  testing::write_bytes(dir.file("advice/mine.csv"), kTraceCsv);
  testing::write_bytes(dir.file("object.json"), R"({"kind": "file", "path": "advice/mine.csv"})");
  expect_refused(run_cli(advise + dir.file("object.json"), true), "an input of this command");
  EXPECT_EQ(testing::read_bytes(dir.file("advice/mine.csv")), kTraceCsv);
}

TEST(GuardedPaths, MarginsAndFlakyKeepTheTraceTheirWorkloadNames) {
  testing::ScratchDirectory dir;
  testing::write_bytes(dir.file("t.csv"), kTraceCsv);
  testing::write_bytes(dir.file("object.json"), R"({"kind": "file", "path": "t.csv"})");
  testing::write_bytes(
      dir.file("flaky.json"),
      R"({"scheme": "poisson", "rate": 4096, "trace": "t.csv", "assertions": [{"sites_present": 1}]})");
  for (const std::string flag : {"--out ", "--report "}) {
    expect_refused(
        run_cli("margins " + dir.file("object.json") + " --scheme poisson --rate 4096 " + flag + dir.file("t.csv"),
                true),
        "does not overwrite its inputs");
    expect_refused(run_cli("flaky " + dir.file("flaky.json") + " " + flag + dir.file("t.csv"), true),
                   "does not overwrite its inputs");
  }
  EXPECT_EQ(testing::read_bytes(dir.file("t.csv")), kTraceCsv);
}

TEST(GuardedPaths, PlotRedrawsOnlyDirectoriesAllocsimWrote) {
  testing::ScratchDirectory dir;
  testing::write_bytes(dir.file("s.json"), scenario_text("s"));
  const std::string run = "run --quiet --out " + dir.file("out") + " " + dir.file("s.json");
  ASSERT_EQ(run_cli(run).exit_code, 0);
  const fs::path results = dir.file("out/s"), table = results / "tables" / "tot.md";
  ASSERT_TRUE(fs::exists(table));
  // The marker deleted (the documented way to protect a directory): a user's edit stays.
  fs::remove(results / kResultsMarker);
  testing::write_bytes(table.string(), "edited");
  expect_refused(run_cli("plot " + results.string(), true), "not written by allocsim");
  EXPECT_EQ(testing::read_bytes(table.string()), "edited");
  // tables/ as a link to a user's folder: refused, the folder's file untouched.
  fs::remove_all(results);
  ASSERT_EQ(run_cli(run).exit_code, 0);
  fs::create_directory(dir.file("users"));
  testing::write_bytes(dir.file("users/tot.md"), "mine");
  fs::remove_all(results / "tables");
  fs::create_directory_symlink(dir.file("users"), results / "tables");
  expect_refused(run_cli("plot " + results.string(), true), "not a folder of the results directory");
  EXPECT_EQ(testing::read_bytes(dir.file("users/tot.md")), "mine");
  // A second directory missing a result file: the first is not redrawn either.
  fs::remove(results / "tables");
  fs::create_directory(results / "tables");
  testing::write_bytes(table.string(), "earlier");
  fs::create_directory(dir.file("broken"));
  fs::copy_file(results / "summary.json", dir.file("broken/summary.json"));
  fs::copy_file(results / kResultsMarker, fs::path(dir.file("broken")) / kResultsMarker);
  expect_refused(run_cli("plot " + results.string() + " " + dir.file("broken"), true), "metrics.csv: missing");
  EXPECT_EQ(testing::read_bytes(table.string()), "earlier");
  ASSERT_EQ(run_cli("plot --quiet " + results.string()).exit_code, 0);
  EXPECT_NE(testing::read_bytes(table.string()), "earlier");
}

// A results directory named like a staging (".s.tmp.<pid>") would be removed by the
// next run of scenario s once that pid is gone: no name of that form is taken.
TEST(GuardedPaths, NoResultsDirectoryTakesAStagingsName) {
  testing::ScratchDirectory dir;
  testing::write_bytes(dir.file("hidden.json"), scenario_text(".s.tmp.999999"));
  expect_refused(run_cli("run --quiet --out " + dir.file("out") + " " + dir.file("hidden.json"), true),
                 "$.name: a scenario name uses letters, digits");
  testing::write_bytes(dir.file("long.json"), scenario_text(std::string(201, 'n')));
  expect_refused(run_cli("run --quiet --out " + dir.file("out") + " " + dir.file("long.json"), true), "at most 200");
  testing::write_bytes(dir.file("t.csv"), kTraceCsv);
  fs::create_directory(dir.file("out"));
  expect_refused(run_cli("advise " + dir.file("t.csv") + " --replications 0 --out " + dir.file("out/.s.tmp.99"), true),
                 "are allocsim's staged directories");
  EXPECT_TRUE(fs::is_empty(dir.file("out")));
}

TEST(GuardedPaths, AnOutputInsideTheDirectoryTheCommandReplacesIsRefused) {
  testing::ScratchDirectory dir;
  testing::write_bytes(dir.file("t.csv"), kTraceCsv);
  const std::string evaluate = "evaluate " + dir.file("t.csv") +
                               " --scheme poisson --replications 8 --no-charts --quiet --name e --out " +
                               dir.file("out");
  ASSERT_EQ(run_cli(evaluate).exit_code, 0);
  const std::string metrics = testing::read_bytes(dir.file("out/e/metrics.csv"));
  expect_refused(run_cli(evaluate + " --save-scenario " + dir.file("out/e/s.json"), true),
                 "lies in the results directory");
  EXPECT_EQ(testing::read_bytes(dir.file("out/e/metrics.csv")), metrics);
  // The results directory itself, before it exists.
  const std::string named_f = evaluate.substr(0, evaluate.find("--name e")) + "--name f --out " + dir.file("out");
  expect_refused(run_cli(named_f + " --save-scenario " + dir.file("out/f"), true), "lies in the results directory");
  EXPECT_FALSE(fs::exists(dir.file("out/f")));
  testing::write_bytes(dir.file("s.json"), scenario_text("s"));
  expect_refused(run_cli("check --quiet --no-charts --out " + dir.file("out") + " --junit " + dir.file("out/s") + " " +
                             dir.file("s.json"),
                         true),
                 "lies in the results directory");
  EXPECT_FALSE(fs::exists(dir.file("out/s")));
}

// A file or link already at the temporary name is someone else's: refused, never
// written through, truncated or removed (O_EXCL | O_NOFOLLOW).
TEST(GuardedPaths, ATemporaryNameSomeoneHoldsIsNeverWrittenThrough) {
  testing::ScratchDirectory dir;
  testing::write_bytes(dir.file("precious.txt"), "mine");
  const std::string out = dir.file("out.csv");
  fs::create_symlink(dir.file("precious.txt"), temporary_path_for(out));
  EXPECT_THROW(write_file_atomically(out, "new"), InputError);
  EXPECT_THROW(check_output_file(out, {}, "--csv"), InputError);
  EXPECT_EQ(testing::read_bytes(dir.file("precious.txt")), "mine");
  EXPECT_TRUE(fs::is_symlink(temporary_path_for(out)));
  EXPECT_FALSE(fs::exists(out));
  fs::remove(temporary_path_for(out));
  testing::write_bytes(temporary_path_for(out), "theirs");
  EXPECT_THROW(write_file_atomically(out, "new"), InputError);
  EXPECT_EQ(testing::read_bytes(temporary_path_for(out)), "theirs");
  fs::remove(temporary_path_for(out));
  write_file_atomically(out, "new");
  EXPECT_EQ(testing::read_bytes(out), "new");
  EXPECT_FALSE(fs::exists(temporary_path_for(out)));
}

// The temporary name must fit too: an output whose own name fits but whose
// ".tmp.<pid>" does not is refused before anything runs.
TEST(GuardedPaths, AnOutputWhoseTemporaryNameIsTooLongIsFoundFirst) {
  testing::ScratchDirectory dir;
  const std::string csv = dir.file(std::string(250, 'c') + ".csv");
  const auto result =
      run_cli("profile " + allocsim::testing::source_dir() + "/traces/profiles/go-heap.pb.gz --csv " + csv, true);
  expect_refused(result, "cannot write: File name too long");
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

}  // namespace
}  // namespace allocsim
