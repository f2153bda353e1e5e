// Every class of bad input the scenario commands meet, each after a good scenario:
// exit 2, one line that names where the problem is, and nothing written, not even
// the good scenario's results. The observed answers make the table of
// docs/bad-input.md; the test fails while the committed table differs
// (ALLOCSIM_WRITE_BAD_INPUT_DOC=1 rewrites it: scripts/bad-input-doc.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "test_support.h"
#include "testing/build_paths.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

const char* kGood = R"({"name": "good", "seed": 5, "replications": 16,
  "trace": {"allocations": 50, "sizes": {"distribution": "constant", "size": 1000}},
  "schemes": [{"scheme": "poisson", "rate": 4096}]})";

std::string with_trace(const std::string& trace_file) {
  return R"({"name": "file-trace", "replications": 16, "trace": {"kind": "file", "path": ")" + trace_file +
         R"("}, "schemes": [{"scheme": "poisson", "rate": 4096}]})";
}

std::string with_scheme(const std::string& scheme) {
  return R"({"name": "scheme", "replications": 16, "trace": {"allocations": 50, "sizes": {"distribution": "constant", "size": 1000}}, "schemes": [)" +
         scheme + "]}";
}

const std::string kCsvHeader = "thread,op,size,stack,type,time,id\n";

struct BadInput {
  const char* input_class;  // a row of the table
  const char* example;      // what the case gives, in words
  std::string file;         // written into the test's directory under this name, with `content`
  std::string content;
  std::string command;  // after `allocsim`; the good scenario (and --out DIR/out) are added
};

std::vector<BadInput> cases() {
  return {
      {"malformed JSON", "a scenario with two commas in a row", "syntax.json", R"({"name": "x",,})", "run FILE"},
      {"unknown key", "a scenario with a key no scenario has", "unknown.json",
       std::string(kGood).replace(1, 0, "\"colour\": 1, "), "run FILE"},
      {"impossible parameter", "a negative sampling rate", "negative-rate.json",
       with_scheme(R"({"scheme": "poisson", "rate": -1})"), "run FILE"},
      {"impossible parameter", "dotnet with rate 1 (every byte sampled, no geometric draw)", "dotnet-rate.json",
       with_scheme(R"({"scheme": "dotnet", "rate": 1})"), "run FILE"},
      {"missing file", "a scenario file that does not exist", "", "", "run DIR/missing.json"},
      {"file name", "a scenario file whose name is not UTF-8 (summary.json must name it)", "name-\xff.json",
       std::string(kGood).replace(std::string(kGood).find("good"), 4, "other"), "run FILE"},
      {"corrupt trace file", "a CSV trace whose third line has a size that is not a number", "bad-body.json",
       with_trace("bad-body.csv"), "run FILE"},
      {"truncated trace file", "a CSV trace whose last line has no newline", "cut.json", with_trace("cut.csv"),
       "run FILE"},
      {"unknown trace format", "a trace file in none of the formats", "unknown-format.json", with_trace("unknown.txt"),
       "run FILE"},
      {"corrupt trace file", "a native trace with a wrong checksum", "checksum.json", with_trace("checksum.ast"),
       "run FILE"},
      {"conflicting outputs", "two scenarios that write the same results directory", "again.json", kGood, "run FILE"},
      {"unwritable output", "--out names a file", "", "", "run --out DIR/good.json"},
      {"impossible parameter", "--shard 2/2 (shard K of N needs K < N)", "", "", "run --shard 2/2"},
      {"corrupt part file", "merge given a file that is not a part file (the scenario)", "", "", "merge"},
      {"unwritable output", "--junit inside a file, after every scenario would have run", "", "",
       "check --junit DIR/good.json/junit.xml"},
  };
}

void write_trace_files(const fs::path& dir) {
  testing::write_bytes((dir / "bad-body.csv").string(), kCsvHeader + "0,alloc,48,a,0,0,0\n0,alloc,forty,a,0,1,1\n");
  testing::write_bytes((dir / "cut.csv").string(), kCsvHeader + "0,alloc,48,a,0,0,0\n0,alloc,48,a,0,1,1");
  testing::write_bytes((dir / "unknown.txt").string(), "hello\n");
  std::string native(256, '\0');
  const char magic[] = "\x89"
                       "AST\r\n\x1a\n";
  std::copy(magic, magic + 8, native.begin());
  native[16] = 1;
  native[20] = static_cast<char>(192);
  testing::write_bytes((dir / "checksum.ast").string(), native);
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// One line of a Markdown table: pipes and the invalid byte escaped.
std::string cell(std::string text) {
  text = replace_all(std::move(text), "|", "\\|");
  return replace_all(std::move(text), "\xff", "\\xff");
}

// The test's directory is named DIR in the table, so that its messages do not vary.
TEST(BadInput, EveryClassExitsTwoWithOneLineAndWritesNothing) {
  const testing::ScratchDirectory scratch;
  const fs::path& root = scratch.path();
  testing::write_bytes((root / "good.json").string(), kGood);
  write_trace_files(root);
  const std::string dir = root.string();
  std::string table =
      "Generated by `tests/bad_input_test.cpp` (`scripts/bad-input-doc.sh` rewrites this section; the\n"
      "test fails while it differs from what the commands answer). Each case runs after a good scenario\n"
      "(`allocsim run|check --out DIR/out DIR/good.json ...`): every one exits 2 with one line naming\n"
      "where the problem is, and writes nothing, not even the good scenario's results.\n\n"
      "| class | input | exit | message | written |\n|---|---|---|---|---|\n";
  for (const BadInput& c : cases()) {
    if (!c.file.empty()) testing::write_bytes((root / c.file).string(), c.content);
    std::string command = replace_all(c.command, "FILE", dir + "/" + c.file);
    command = replace_all(command, "DIR", dir);
    const std::string verb = command.substr(0, command.find(' '));
    const std::string out = command.find("--out") == std::string::npos ? " --out " + dir + "/out" : "";
    command.insert(verb.size(), " --quiet" + out + " " + dir + "/good.json");
    const auto r = run_cli("'" + replace_all(command, " ", "' '") + "'", true);
    EXPECT_EQ(r.exit_code, 2) << c.example << ": " << r.output;
    EXPECT_EQ(r.output.rfind("allocsim: error: ", 0), 0u) << c.example << ": " << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << c.example << ": " << r.output;
    const bool written = fs::exists(root / "out");
    EXPECT_FALSE(written) << c.example;
    fs::remove_all(root / "out");
    std::string message = r.output.substr(0, r.output.find('\n'));
    table += "| " + cell(c.input_class) + " | " + cell(c.example) + " | " + std::to_string(r.exit_code) + " | `" +
             cell(replace_all(message, dir, "DIR")) + "` | " + (written ? "results" : "nothing") + " |\n";
  }
  // The generated section lies between two marker lines; the rest of the page is written by hand.
  const fs::path doc = fs::path(allocsim::testing::source_dir()) / "docs" / "bad-input.md";
  const std::string begin = "<!-- generated by tests/bad_input_test.cpp: begin -->\n";
  const std::string end = "<!-- generated by tests/bad_input_test.cpp: end -->\n";
  std::string page = testing::read_bytes(doc.string());
  const std::size_t from = page.find(begin), to = page.find(end);
  ASSERT_TRUE(from != std::string::npos && to != std::string::npos && from < to) << "docs/bad-input.md: no markers";
  const std::string section = page.substr(from + begin.size(), to - from - begin.size());
  if (std::getenv("ALLOCSIM_WRITE_BAD_INPUT_DOC") != nullptr) {
    testing::write_bytes(doc.string(), page.replace(from + begin.size(), section.size(), table));
  } else {
    EXPECT_EQ(section, table) << "docs/bad-input.md is stale: run scripts/bad-input-doc.sh";
  }
}

}  // namespace
}  // namespace allocsim
