// Every command that writes JSON writes valid JSON, even when a name it echoes (a
// file name, a stack name read from a trace) is not UTF-8: such bytes become U+FFFD
// (util/json_text.h). Before, nlohmann's dump threw on them and the command died
// with exit 3.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "allocsim/util/json_text.h"
#include "test_support.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

using testing::run_cli;
using testing::ScratchDirectory;

const std::string kReplacement = "\xef\xbf\xbd";  // U+FFFD in UTF-8

// A CSV trace of 200 allocations on two stacks, one named with the bytes FF FE.
std::string csv_with_latin1_stack() {
  std::string text = "thread,op,size,stack,type,time,id\n";
  for (int i = 0; i < 200; ++i) {
    const std::string stack = i % 2 == 0 ? "ok" : "ma\xff\xfein";
    text += "0,alloc," + std::to_string(1000 + 37 * i) + "," + stack + ",0," + std::to_string(i) + "," +
            std::to_string(i) + "\n";
  }
  return text;
}

const std::string kStackAsWritten = "ma" + kReplacement + kReplacement + "in";

// Parses `text` as JSON, failing the test (not throwing) when it is not.
nlohmann::json parsed(const std::string& text) {
  nlohmann::json out = nlohmann::json::parse(text, nullptr, false);
  EXPECT_FALSE(out.is_discarded()) << text;
  return out;
}

bool mentions(const nlohmann::json& value, const std::string& text) {
  return json_text(value).find(text) != std::string::npos;
}

TEST(JsonText, ReplacesEachInvalidByteAndKeepsValidText) {
  EXPECT_EQ(json_text(nlohmann::json("a\xff\xfe"
                                     "b")),
            "\"a" + kReplacement + kReplacement + "b\"");
  EXPECT_EQ(json_text(nlohmann::ordered_json{{"caf\xc3\xa9", "\xe2\x82"}}),
            "{\"caf\xc3\xa9\":\"" + kReplacement + "\"}");
  EXPECT_EQ(json_text(nlohmann::json{{"k", 1}}, 2), "{\n  \"k\": 1\n}");
}

TEST(JsonOutput, TraceInfoNamesAStackThatIsNotUtf8) {
  ScratchDirectory dir;
  const std::string trace = dir.file("latin1-\xfe.csv");
  testing::write_bytes(trace, csv_with_latin1_stack());
  const auto r = run_cli("trace info --json '" + trace + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json info = parsed(r.output);
  EXPECT_EQ(info["file"], dir.file("latin1-" + kReplacement + ".csv"));
  EXPECT_TRUE(mentions(info["top_stacks"], kStackAsWritten)) << info["top_stacks"];
}

TEST(JsonOutput, ProfileNamesAFileThatIsNotUtf8) {
  ScratchDirectory dir;
  const std::string profile = dir.file("heap-\xff.heap");
  testing::write_bytes(profile, testing::read_bytes(testing::recorded_trace("profiles/gperftools.heap")));
  const auto r = run_cli("profile --json --top 2 --replications 20 '" + profile + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(mentions(parsed(r.output), "heap-" + kReplacement + ".heap")) << r.output;
}

TEST(JsonOutput, MarginsNamesAStackThatIsNotUtf8) {
  ScratchDirectory dir;
  testing::write_bytes(dir.file("t.csv"), csv_with_latin1_stack());
  const auto r = run_cli("margins --json --scheme poisson --rate 4096 --out " + dir.file("margins.json") + " " +
                         dir.file("t.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(mentions(parsed(r.output), kStackAsWritten)) << r.output;
  EXPECT_TRUE(mentions(parsed(testing::read_bytes(dir.file("margins.json"))), kStackAsWritten));
}

TEST(JsonOutput, EvaluateNamesAStackThatIsNotUtf8) {
  ScratchDirectory dir;
  testing::write_bytes(dir.file("t.csv"), csv_with_latin1_stack());
  const auto r = run_cli("evaluate --json --quiet --no-charts --scheme poisson --rate 4096 --replications 20 --out " +
                         dir.file("results") + " " + dir.file("t.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(mentions(parsed(r.output), kStackAsWritten)) << r.output;
}

TEST(JsonOutput, AdviseNamesAFileThatIsNotUtf8) {
  ScratchDirectory dir;
  const std::string trace = dir.file("t-\xfe.csv");
  testing::write_bytes(trace, csv_with_latin1_stack());
  const auto r =
      run_cli("advise --json --stack-mape 0.5 --replications 20 --out " + dir.file("advice") + " '" + trace + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string name = "t-" + kReplacement + ".csv";
  EXPECT_TRUE(mentions(parsed(r.output), name)) << r.output;
  EXPECT_TRUE(mentions(parsed(testing::read_bytes(dir.file("advice/advice.json"))), name));
}

// summary.json lists each expectation's rows, named by group: here the stack's name.
TEST(JsonOutput, RunSummaryNamesAStackThatIsNotUtf8) {
  ScratchDirectory dir;
  testing::write_bytes(dir.file("t.csv"), csv_with_latin1_stack());
  testing::write_bytes(dir.file("s.json"), R"({"name": "latin1", "seed": 1, "replications": 8,
    "trace": {"kind": "file", "path": ")" + dir.file("t.csv") +
                                               R"("}, "groups": ["total", "stack"],
    "schemes": [{"scheme": "poisson", "rate": 4096}], "expectations": [{"metric": "mean", "min": 0}]})");
  const auto r = run_cli("run --quiet --no-charts --out " + dir.file("results") + " " + dir.file("s.json"), true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json summary = parsed(testing::read_bytes(dir.file("results/latin1/summary.json")));
  EXPECT_TRUE(mentions(summary["expectations"], kStackAsWritten)) << summary["expectations"];
}

}  // namespace
}  // namespace allocsim
