// `allocsim trace ...` end to end, and scenarios that read their trace from a file.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "allocsim/trace/format/native_trace.h"
#include "allocsim/util/error.h"
#include "test_support.h"
#include "testing/build_paths.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

using testing::recorded_trace;
using testing::run_cli;
using testing::ScratchDirectory;

nlohmann::json info_json(const std::string& path, const std::string& flags = "") {
  const auto result = run_cli("trace info " + path + " --json " + flags);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return nlohmann::json::parse(result.output);
}

TEST(TraceCli, ImportWritesNativeAndInfoReportsIt) {
  ScratchDirectory dir;
  const std::string out = dir.file("sqlite3.ast");
  const auto result = run_cli("trace import " + recorded_trace("sqlite3.raw.zst") + " -o " + out);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("frees linked by pointer"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("no thread ids recorded"), std::string::npos) << result.output;

  const nlohmann::json info = info_json(out);
  EXPECT_EQ(info["format"], "native");
  EXPECT_EQ(info["allocations"], 10052);
  EXPECT_EQ(info["frees"], 10037);
  EXPECT_EQ(info["threads"], 1);
  EXPECT_GT(info["stacks"].get<int>(), 100);
  EXPECT_GT(info["bytes"].get<std::uint64_t>(), 0u);
  std::uint64_t histogram_allocations = 0, histogram_bytes = 0;
  for (const auto& bucket : info["size_histogram"]) {
    histogram_allocations += bucket["allocations"].get<std::uint64_t>();
    histogram_bytes += bucket["bytes"].get<std::uint64_t>();
  }
  EXPECT_EQ(histogram_allocations, 10052u);
  EXPECT_EQ(histogram_bytes, info["bytes"].get<std::uint64_t>());
  // The live heap's high-water mark lies between the live bytes at the end and
  // all bytes allocated, within the trace's time range.
  const auto peak = info["peak_live_bytes"].get<std::uint64_t>();
  EXPECT_GE(peak, info["live_bytes"].get<std::uint64_t>());
  EXPECT_LT(peak, info["bytes"].get<std::uint64_t>());
  EXPECT_LE(info["peak_time"].get<std::uint64_t>(), info["last_time"].get<std::uint64_t>());

  // The heaptrack file itself reports the same counts, plus how frees were linked.
  const nlohmann::json direct = info_json(recorded_trace("sqlite3.zst"), "--pairing fifo");
  EXPECT_EQ(direct["bytes"], info["bytes"]);
  EXPECT_EQ(direct["heaptrack"]["kind"], "interpreted");
  EXPECT_EQ(direct["heaptrack"]["pairing"], "fifo");
  EXPECT_EQ(direct["heaptrack"]["threads_recorded"], false);
  EXPECT_GT(direct["heaptrack"]["ambiguous_frees"].get<int>(), 0);
}

TEST(TraceCli, ConvertBetweenCsvAndNative) {
  ScratchDirectory dir;
  ASSERT_EQ(run_cli("trace import " + recorded_trace("cc1.zst") + " -o " + dir.file("cc1.csv")).exit_code, 0);
  EXPECT_EQ(testing::read_bytes(dir.file("cc1.csv")).rfind("thread,op,size,stack,type,time,id\n", 0), 0u);
  ASSERT_EQ(run_cli("trace convert " + dir.file("cc1.csv") + " " + dir.file("cc1.ast")).exit_code, 0);
  ASSERT_EQ(run_cli("trace convert " + dir.file("cc1.ast") + " " + dir.file("again") + " --to csv").exit_code, 0);
  EXPECT_EQ(testing::read_bytes(dir.file("again")), testing::read_bytes(dir.file("cc1.csv")));
  const nlohmann::json a = info_json(dir.file("cc1.csv"));
  const nlohmann::json b = info_json(recorded_trace("cc1.zst"));
  for (const char* key : {"allocations", "frees", "bytes", "threads", "stacks", "size_histogram", "top_stacks"}) {
    EXPECT_EQ(a[key], b[key]) << key;
  }
}

TEST(TraceCli, GenerateWritesTheSyntheticTrace) {
  ScratchDirectory dir;
  testing::write_bytes(dir.file("spec.json"), R"({"allocations": 500, "threads": 2,
      "sizes": {"distribution": "constant", "size": 64}})");
  const auto result = run_cli("trace generate " + dir.file("spec.json") + " -o " + dir.file("g.ast"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const nlohmann::json info = info_json(dir.file("g.ast"));
  EXPECT_EQ(info["allocations"], 500);
  EXPECT_EQ(info["bytes"], 500 * 64);
  EXPECT_EQ(info["threads"], 2);

  testing::write_bytes(dir.file("bad.json"), R"({"allocations": 0, "sizes": {"distribution": "constant", "size": 1}})");
  const auto bad = run_cli("trace generate " + dir.file("bad.json") + " -o " + dir.file("b.ast"), true);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find(dir.file("bad.json") + ": $.allocations"), std::string::npos) << bad.output;
  EXPECT_FALSE(std::filesystem::exists(dir.file("b.ast")));
}

TEST(TraceCli, BadInputExitsTwoAndWritesNothing) {
  ScratchDirectory dir;
  const std::string original = testing::read_bytes(recorded_trace("bc.zst"));
  testing::write_bytes(dir.file("cut.zst"), original.substr(0, original.size() - 30));
  testing::write_bytes(dir.file("garbage.zst"), original + "trailing");
  testing::write_bytes(dir.file("unknown.txt"), "hello\n");
  testing::write_bytes(dir.file("line.txt"), "v 10400 3\nZ 1\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {dir.file("cut.zst"), "truncated zstd stream"},
      {dir.file("garbage.zst"), "garbage after the end of the zstd stream"},
      {dir.file("unknown.txt"), "unknown trace format"},
      {dir.file("line.txt"), "line 2: unknown line type \"Z\""},
      {dir.file("missing.zst"), "cannot open file"},
  };
  for (const auto& [input, expected] : cases) {
    const std::string out = dir.file("out.ast");
    const auto result = run_cli("trace import " + input + " -o " + out, true);
    EXPECT_EQ(result.exit_code, 2) << input;
    EXPECT_NE(result.output.find("allocsim: error: " + input + ": "), std::string::npos) << result.output;
    EXPECT_NE(result.output.find(expected), std::string::npos) << result.output;
    EXPECT_FALSE(std::filesystem::exists(out)) << input;
  }
}

std::string file_scenario(const std::string& trace_json) {
  return R"({"name": "file-trace", "seed": 3, "replications": 200,
    "trace": )" +
         trace_json + R"(,
    "schemes": [{"scheme": "poisson", "rate": 4096}],
    "groups": ["total", "stack", "size_bucket"],
    "windows": ["allocated", "live_at_end"]})";
}

TEST(TraceCli, ScenarioReadsATraceFile) {
  const ScenarioResult result = testing::run_scenario_text(
      file_scenario(R"({"kind": "file", "path": ")" + recorded_trace("sqlite3.zst") + R"(", "pairing": "fifo"})"));
  const Metrics& total = testing::find_row(result, "poisson", "bytes");
  const nlohmann::json info = info_json(recorded_trace("sqlite3.zst"));
  EXPECT_DOUBLE_EQ(total.truth, info["bytes"].get<double>());
}

TEST(TraceCli, ScenarioPathIsRelativeToTheScenarioFile) {
  ScratchDirectory dir;
  std::filesystem::create_directories(dir.file("scenarios"));
  std::filesystem::copy_file(recorded_trace("bc.raw.zst"), dir.file("bc.raw.zst"));
  testing::write_bytes(dir.file("scenarios/s.json"), file_scenario(R"({"kind": "file", "path": "../bc.raw.zst"})"));
  const auto result =
      run_cli("run " + dir.file("scenarios/s.json") + " --out " + dir.file("results") + " --quiet", true);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(std::filesystem::exists(dir.file("results/file-trace/metrics.csv")));
}

TEST(TraceCli, ScenarioWithAMissingOrWrongTraceFileFailsUpFront) {
  ScratchDirectory dir;
  auto error_of = [](const std::string& trace) {
    try {
      testing::run_scenario_text(file_scenario(trace));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of(R"({"kind": "file", "path": "/nonexistent/x.ast"})").find("$.trace.path: cannot read trace file"),
            std::string::npos);
  const std::string csv = R"({"kind": "file", "path": ")" + recorded_trace("bc.zst") + R"(", "format": "csv"})";
  EXPECT_NE(error_of(csv).find("$.trace.format: "), std::string::npos) << error_of(csv);
  EXPECT_NE(error_of(csv).find("is a heaptrack trace, not csv"), std::string::npos) << error_of(csv);
}

// `trace info` refused two 2^63-byte allocations while `run` replayed them with
// mean 0: now the reader refuses them for every command, with the same line.
TEST(TraceCli, EveryCommandRefusesTheSameByteOverflow) {
  ScratchDirectory dir;
  const std::string trace = dir.file("huge.ast");
  testing::write_bytes(
      trace, encode_native_trace(testing::make_trace({std::uint64_t{1} << 63, std::uint64_t{1} << 63}, {0, 0})));
  testing::write_bytes(dir.file("s.json"), file_scenario(R"({"kind": "file", "path": "huge.ast"})"));
  // `run` names the scenario before the trace; the trace's own line is the same.
  const std::string expected = trace + ": the trace's requested sizes add up to more than 2^62";
  for (const std::string& command : {"trace info " + trace, "trace convert " + trace + " " + dir.file("out.csv"),
                                     "run --quiet " + dir.file("s.json") + " --out " + dir.file("results")}) {
    const auto result = run_cli(command, true);
    EXPECT_EQ(result.exit_code, 2) << command << ": " << result.output;
    EXPECT_EQ(result.output.rfind("allocsim: error: ", 0), 0u) << command << ": " << result.output;
    EXPECT_NE(result.output.find(expected), std::string::npos) << command << ": " << result.output;
    EXPECT_EQ(result.output.find('\n'), result.output.size() - 1) << command << ": " << result.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.csv")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("results/file-trace/metrics.csv")));
}

// Stack names are bytes from the file: `--json` used to throw (exit 3) on one that
// is not UTF-8; it now prints it with U+FFFD and stays valid JSON.
TEST(TraceCli, InfoJsonPrintsNamesThatAreNotUtf8) {
  ScratchDirectory dir;
  const std::string path = dir.file("latin1.csv");
  testing::write_bytes(path, "thread,op,size,stack,type,time,id\n0,alloc,16,caf\xe9,0,0,1\n");
  const nlohmann::json info = info_json(path);
  EXPECT_EQ(info["top_stacks"][0]["stack"], "caf\xef\xbf\xbd");
}

// Raw files carry no end mark: `trace info` says a cut cannot be detected.
TEST(TraceCli, RawHeaptrackInfoWarnsThatACutCannotBeDetected) {
  const auto result = run_cli("trace info " + recorded_trace("bc.raw.zst"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("no end mark, so a recording cut at a line boundary cannot be told from a whole one"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(info_json(recorded_trace("bc.raw.zst"))["heaptrack"]["end_checked"], false);
  EXPECT_EQ(info_json(recorded_trace("bc.zst"))["heaptrack"]["end_checked"], true);
}

TEST(TraceCli, CommittedTraceScenarioParses) {
  for (const auto& entry : std::filesystem::directory_iterator(allocsim::testing::source_dir() + "/scenarios/traces")) {
    EXPECT_NO_THROW(load_scenario(entry.path().string())) << entry.path();
  }
}

}  // namespace
}  // namespace allocsim
