// User text echoed in an error message is quoted and escaped (util/printable.h): a
// line break in a scheme name, a terminal escape in a key, bytes that are not UTF-8
// in a flag or a trace field all leave one line on stderr with the escapes visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "test_support.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

using testing::run_cli;
using testing::ScratchDirectory;

// Runs `arguments` (shell words) and expects exit 2 with one line that holds `expected`.
void expect_one_line_error(const std::string& arguments, const std::string& expected) {
  const auto r = run_cli(arguments, true);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output.rfind("allocsim: error: ", 0), 0u) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(expected), std::string::npos) << r.output;
}

const std::string kTrace = R"("trace": {"allocations": 50, "sizes": {"distribution": "constant", "size": 1000}})";

TEST(EchoedInput, SchemeNameWithALineBreak) {
  ScratchDirectory dir;
  testing::write_bytes(dir.file("s.json"),
                       R"({"name": "x", )" + kTrace + R"(, "schemes": [{"scheme": "a\nb", "rate": 4096}]})");
  expect_one_line_error("run --quiet --out " + dir.file("out") + " " + dir.file("s.json"),
                        R"($.schemes[0].scheme: unknown scheme "a\nb")");
}

TEST(EchoedInput, MisspeltSchemeNameKeepsItsSuggestion) {
  ScratchDirectory dir;
  testing::write_bytes(dir.file("s.json"),
                       R"({"name": "x", )" + kTrace + R"(, "schemes": [{"scheme": "poison\u001b", "rate": 4096}]})");
  expect_one_line_error("run --quiet --out " + dir.file("out") + " " + dir.file("s.json"),
                        R"(unknown scheme "poison\x1b" (did you mean "poisson"?))");
}

TEST(EchoedInput, KeyWithATerminalEscape) {
  ScratchDirectory dir;
  testing::write_bytes(dir.file("s.json"), R"({"name": "x", "\u001b[31m": 1, )" + kTrace +
                                               R"(, "schemes": [{"scheme": "poisson", "rate": 4096}]})");
  expect_one_line_error("run --quiet --out " + dir.file("out") + " " + dir.file("s.json"),
                        R"($["\x1b[31m"]: unknown key)");
}

TEST(EchoedInput, BadStringValueWithALineBreak) {
  ScratchDirectory dir;
  testing::write_bytes(dir.file("s.json"), R"({"name": "x", "replay": "fast\nslow", )" + kTrace +
                                               R"(, "schemes": [{"scheme": "poisson", "rate": 4096}]})");
  expect_one_line_error("run --quiet --out " + dir.file("out") + " " + dir.file("s.json"),
                        R"($.replay: unknown replay mode "fast\nslow")");
}

TEST(EchoedInput, FlagValueWithAnEscapeAndABadByte) {
  ScratchDirectory dir;
  testing::write_bytes(dir.file("t.csv"), "thread,op,size,stack,type,time,id\n0,alloc,16,a,0,0,1\n");
  // /bin/sh's printf writes the bytes: ESC (octal 033) and FF (377), and a line break.
  expect_one_line_error("trace info --format \"$(printf '\\033[2J\\377')\" " + dir.file("t.csv"),
                        R"(got "\x1b[2J\xff")");
  expect_one_line_error("margins --scheme poisson --rate 4096 --split \"$(printf 'a\\nb')\" " + dir.file("t.csv"),
                        R"(--split must be sidak or bonferroni, got "a\nb")");
}

TEST(EchoedInput, CsvTraceFieldWithAnEscape) {
  ScratchDirectory dir;
  testing::write_bytes(dir.file("t.csv"), "thread,op,size,stack,type,time,id\n0,al\x1b[2Jloc,16,a,0,0,1\n");
  expect_one_line_error("trace info " + dir.file("t.csv"), R"(line 2: unknown op "al\x1b[2Jloc")");
}

TEST(EchoedInput, HeaptrackFieldWithAnEscape) {
  ScratchDirectory dir;
  testing::write_bytes(dir.file("h"), "v 10400 3\n- zz\x1b[31m\n");
  expect_one_line_error("trace info --format heaptrack " + dir.file("h"), R"(line 2: bad hex number "zz\x1b[31m")");
  testing::write_bytes(dir.file("h"), "v 10400 3\n\x1b 2J\n");
  expect_one_line_error("trace info --format heaptrack " + dir.file("h"), R"(line 2: unknown line type "\x1b")");
}

}  // namespace
}  // namespace allocsim
