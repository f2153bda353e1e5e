// Bad input found before anything is written: a synthetic trace past the 2^62-byte
// limit in the second of two scenarios, a --junit path no file can be written at,
// and a `trace` command whose output is its own input. Each: exit 2, one line
// naming where the problem is, and no output.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "allocsim/trace/format/native_trace.h"
#include "test_support.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

constexpr const char* kSmallScenario = R"({"name": "small", "seed": 1, "replications": 4,
  "trace": {"allocations": 100, "sizes": {"distribution": "constant", "size": 100}},
  "schemes": [{"scheme": "poisson", "rate": 64}]})";

// Exit 2 and the one line `expected` begins with.
void expect_refused(const testing::CliResult& result, const std::string& expected) {
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_EQ(result.output.rfind("allocsim: error: " + expected, 0), 0u) << result.output;
  EXPECT_EQ(result.output.find('\n'), result.output.size() - 1) << result.output;
}

TEST(NothingWritten, SyntheticBytesPastTheLimitAreFoundBeforeTheFirstScenarioRuns) {
  testing::ScratchDirectory dir;
  testing::write_bytes(dir.file("a.json"), kSmallScenario);
  testing::write_bytes(dir.file("b.json"), R"({"name": "huge", "trace": {"allocations": 100000,
    "sizes": {"distribution": "constant", "size": 281474976710656}}, "schemes": [{"scheme": "poisson"}]})");
  expect_refused(
      run_cli("run --quiet --out " + dir.file("out") + " " + dir.file("a.json") + " " + dir.file("b.json"), true),
      dir.file("b.json") + ": $.trace.allocations: 100000 allocations of at least 281474976710656 "
                           "requested bytes each add up to more than 2^62");
  EXPECT_FALSE(fs::exists(dir.file("out")));
}

// Sizes that pass the limit only as drawn: 10^6 log-uniform sizes on [16, 2^48]
// average 2^48 / ln(2^44) ~ 9.2e12 bytes, ~9.2e18 in all (sd ~4e16), past 2^62 ~
// 4.6e18; found by drawing the sizes before the first scenario runs.
TEST(NothingWritten, SyntheticBytesPastTheLimitAsDrawnAreFoundBeforeTheFirstScenarioRuns) {
  testing::ScratchDirectory dir;
  testing::write_bytes(dir.file("a.json"), kSmallScenario);
  testing::write_bytes(dir.file("b.json"), R"({"name": "huge", "trace": {"allocations": 1000000,
    "sizes": {"distribution": "log_uniform", "min": 16, "max": 281474976710656}}, "schemes": [{"scheme": "poisson"}]})");
  expect_refused(
      run_cli("run --quiet --out " + dir.file("out") + " " + dir.file("a.json") + " " + dir.file("b.json"), true),
      dir.file("b.json") + ": $.trace: the trace's requested sizes add up to more than 2^62");
  EXPECT_FALSE(fs::exists(dir.file("out")));
}

// Names the file system refuses: the report's own (with the ".tmp.<pid>" suffix of
// its temporary file), and a directory that would be created for it.
TEST(NothingWritten, AJunitPathThatCannotBeWrittenIsFoundBeforeAnythingRuns) {
  testing::ScratchDirectory dir;
  testing::write_bytes(dir.file("s.json"), kSmallScenario);
  const std::string long_name(250, 'j');
  const std::string junit = dir.file(long_name + ".xml");
  expect_refused(
      run_cli("check --quiet --out " + dir.file("out") + " --junit " + junit + " " + dir.file("s.json"), true),
      "--junit \"" + junit + "\": cannot write: File name too long");
  EXPECT_FALSE(fs::exists(dir.file("out")));
  // A parent that does not exist is not created (util/output_path.h).
  const std::string nested = dir.file(long_name + "xxxxxxxxxx/report.xml");
  expect_refused(
      run_cli("check --quiet --out " + dir.file("out") + " --junit " + nested + " " + dir.file("s.json"), true),
      "--junit \"" + nested + "\": " + dir.file(long_name + "xxxxxxxxxx") +
          " does not exist (allocsim does not create it); create it or choose another --junit");
  EXPECT_FALSE(fs::exists(dir.file("out")));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.file("")), fs::directory_iterator()), 1) << "only s.json";
  // A writable one: the report is written.
  ASSERT_EQ(
      run_cli("check --quiet --out " + dir.file("out") + " --junit " + dir.file("r.xml") + " " + dir.file("s.json"))
          .exit_code,
      0);
  EXPECT_TRUE(fs::exists(dir.file("r.xml")));
}

// convert A A, an output that names the input another way (a link, "dir/.."),
// import over its input, generate over its own spec: refused, the input unchanged.
TEST(NothingWritten, ATraceCommandIsRefusedItsOwnInputAsOutput) {
  testing::ScratchDirectory dir;
  const std::string trace = dir.file("t.ast");
  const std::string bytes = encode_native_trace(testing::make_trace({10, 20, 30}));
  testing::write_bytes(trace, bytes);
  fs::create_directory(dir.file("sub"));
  fs::create_symlink(trace, dir.file("link.ast"));
  for (const std::string& output : {trace, dir.file("sub/../t.ast"), dir.file("link.ast")}) {
    expect_refused(run_cli("trace convert " + trace + " " + output, true), "OUT \"" + output + "\": is ");
    expect_refused(run_cli("trace convert " + trace + " " + output + " --to csv", true), "OUT \"" + output + "\": is ");
    expect_refused(run_cli("trace import " + trace + " -o " + output, true), "--output \"" + output + "\": is ");
    EXPECT_EQ(testing::read_bytes(trace), bytes) << output;
  }
  const std::string spec = dir.file("spec.json");
  const std::string spec_text = R"({"allocations": 10, "sizes": {"distribution": "constant", "size": 8}})";
  testing::write_bytes(spec, spec_text);
  for (const char* flags : {"", " --to csv"}) {
    expect_refused(run_cli("trace generate " + spec + " -o " + spec + flags, true),
                   "--output \"" + spec + "\": is an input of this command");
  }
  EXPECT_EQ(testing::read_bytes(spec), spec_text);
  // A directory that does not exist is not created.
  expect_refused(run_cli("trace generate " + spec + " -o " + dir.file("missing/t.ast"), true),
                 "--output \"" + dir.file("missing/t.ast") + "\": " + dir.file("missing") + " does not exist");
  EXPECT_FALSE(fs::exists(dir.file("missing")));
  // Another file: written.
  EXPECT_EQ(run_cli("trace convert " + trace + " " + dir.file("t.csv")).exit_code, 0);
  EXPECT_TRUE(fs::exists(dir.file("t.csv")));
}

}  // namespace
}  // namespace allocsim
