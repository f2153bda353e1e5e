// The CSV trace format: writing and reading back, names and numbers as stack and
// type ids, pointer-like ids, and bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "allocsim/trace/format/csv_trace.h"
#include "allocsim/trace/format/trace_format.h"
#include "allocsim/util/error.h"
#include "test_support.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

using testing::ScratchDirectory;
using testing::synthetic_trace;

std::string label(const std::vector<std::string>& names, std::uint32_t id) {
  return names.empty() ? std::to_string(id) : names[id];
}

// Equal event by event, comparing stacks and types by name.
void expect_same_events(const Trace& a, const Trace& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.requested, b.requested);
  EXPECT_EQ(a.allocated, b.allocated);
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.free_time, b.free_time);
  EXPECT_EQ(a.thread, b.thread);
  EXPECT_EQ(a.thread_count, b.thread_count);
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(label(a.stack_names, a.stack[i]), label(b.stack_names, b.stack[i])) << i;
    ASSERT_EQ(label(a.type_names, a.type[i]), label(b.type_names, b.type[i])) << i;
  }
}

Trace read_text(const ScratchDirectory& dir, const std::string& text) {
  const std::string path = dir.file("t.csv");
  testing::write_bytes(path, text);
  return read_csv_trace(path);
}

TEST(CsvTrace, SyntheticTraceRoundTrips) {
  const Trace trace = synthetic_trace(R"({"allocations": 3000, "threads": 3, "thread_assignment": "random",
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.5, "distribution": "log_uniform", "min": 8, "max": 512},
        {"weight": 0.5, "distribution": "constant", "size": 4096}]},
      "stacks": {"rule": "random", "count": 40}, "types": {"rule": "component"},
      "lifetime": {"distribution": "exponential", "mean": 300},
      "allocated": {"rounding": "power_of_two"}})",
                                      7);
  ScratchDirectory dir;
  const std::string path = dir.file("synthetic.csv");
  write_csv_trace(trace, path);
  const Trace back = read_csv_trace(path);
  expect_same_events(trace, back);
  // Reading canonicalises: a second round trip is byte-identical.
  EXPECT_EQ(encode_csv_trace(back), testing::read_bytes(path));
}

TEST(CsvTrace, NumericIdsStayIdsAndTracesWithoutNamesRoundTripExactly) {
  Trace trace = testing::make_trace({10, 20, 30, 40}, {0, 1, 1, 0});
  trace.stack = {0, 2, 1, 2};
  trace.stack_count = 3;
  trace.free_time = {5, kNeverFreed, 3, 4};
  ScratchDirectory dir;
  const Trace back = read_text(dir, encode_csv_trace(trace));
  EXPECT_TRUE(back.stack_names.empty());
  EXPECT_EQ(back.stack, trace.stack);
  EXPECT_EQ(back.stack_count, 3u);
  EXPECT_EQ(back.free_time, trace.free_time);
  EXPECT_EQ(back.thread, trace.thread);
}

TEST(CsvTrace, UserLogWithNamesTidsAndPointerIds) {
  ScratchDirectory dir;
  const Trace t = read_text(dir, "time,op,id,size,thread,stack,type\n"
                                 "100,alloc,140001,64,9001,\"parse, then copy\",row\n"
                                 "101,alloc,140002,8,77,main,\n"
                                 "105,free,140001,,,,\n"
                                 "106,alloc,140001,64,9001,main,row\n"
                                 "110,free,140002,8,9001,,\n");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t.thread, (std::vector<std::uint32_t>{1, 0, 1})) << "tids become dense ids in increasing order";
  EXPECT_EQ(t.thread_count, 2u);
  EXPECT_EQ(t.stack_names, (std::vector<std::string>{"parse, then copy", "main"}));
  EXPECT_EQ(t.stack, (std::vector<std::uint32_t>{0, 1, 1}));
  EXPECT_EQ(t.type_names, (std::vector<std::string>{"row", ""}));
  EXPECT_EQ(t.free_time, (std::vector<std::uint64_t>{105, 110, kNeverFreed}));
  EXPECT_FALSE(t.has_allocated_sizes());
}

TEST(CsvTrace, NonDenseNumbersKeepTheirValuesAsNames) {
  ScratchDirectory dir;
  const Trace t = read_text(dir, "thread,op,size,stack,type,time,id\n"
                                 "0,alloc,1,1000,0,0,0\n"
                                 "0,alloc,1,5,0,1,1\n");
  EXPECT_EQ(t.stack, (std::vector<std::uint32_t>{1, 0}));
  EXPECT_EQ(t.stack_names, (std::vector<std::string>{"5", "1000"}));
  EXPECT_TRUE(t.type_names.empty());
}

// An unnamed stack was written "stack-<id>", and a real stack of that name merged
// with it on the way back; two stacks of one name merged too. Every id now gets a
// label of its own.
TEST(CsvTrace, EveryStackKeepsItsOwnLabel) {
  ScratchDirectory dir;
  Trace t = testing::make_trace({1, 2, 3, 4}, {0, 0, 0, 0});
  t.stack = {0, 1, 2, 3};
  t.stack_count = 4;
  t.stack_names = {"stack-2", "main", "", "main"};
  const std::string path = dir.file("t.csv");
  write_csv_trace(t, path);
  const Trace back = read_csv_trace(path);
  EXPECT_EQ(back.stack_count, 4u);
  EXPECT_EQ(back.stack, (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(back.stack_names, (std::vector<std::string>{"stack-2", "main", "stack-2 #2", "main #3"}));
}

TEST(CsvTrace, DetectedByContentAndReadCompressed) {
  ScratchDirectory dir;
  const std::string text = "thread,op,size,stack,type,time,id\n0,alloc,5,0,0,0,0\n";
  const std::string path = dir.file("log.txt.zst");
  testing::write_bytes(path, testing::zstd_compress(text));
  EXPECT_EQ(detect_trace_format(path), TraceFormat::csv);
  EXPECT_EQ(read_trace_file(path).trace.requested, (std::vector<std::uint64_t>{5}));
}

TEST(CsvTrace, BadInputNamesFileAndLine) {
  const std::string header = "thread,op,size,stack,type,time,id\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {header + "0,alloc,5,0,0,0,0", "line 2: truncated"},
      {header + "0,realloc,5,0,0,0,0\n", "line 2: unknown op \"realloc\""},
      {header + "0,alloc,5,0,0,0,0\n0,free,,,,1,9\n", "line 3: free of id 9, which is not a live allocation"},
      {header + "0,alloc,5,0,0,0,0\n0,alloc,5,0,0,1,0\n", "line 3: id 0 is already live"},
      {header + "0,alloc,99999999999999999999,0,0,0,0\n", "line 2: size 99999999999999999999 overflows 64 bits"},
      {header + "0,alloc,18446744073709551615,0,0,0,0\n0,alloc,1,0,0,0,1\n",
       "line 3: the total allocated bytes overflow"},
      {header + "0,alloc,5,0,0,9,0\n0,alloc,5,0,0,8,1\n", "line 3: time goes backwards"},
      {header + "0,alloc,5,0,0,0\n", "line 2: expected 7 fields, got 6"},
      {header + "0,alloc,-5,0,0,0,0\n", "line 2: size: expected a non-negative integer"},
      {header + "0,alloc,5,0,0,0,0\n,free,6,,,1,0\n", "line 3: free of id 0 gives size 6"},
      {"thread,op,size,stack,type,time\n", "line 1: not a CSV trace header: missing column \"id\""},
      {header + "0,alloc,5,\"main,0,0,0\n", "line 2: unterminated quoted field"},
  };
  ScratchDirectory dir;
  for (const auto& [text, expected] : cases) {
    const std::string path = dir.file("bad.csv");
    testing::write_bytes(path, text);
    std::string error = "no error";
    try {
      read_csv_trace(path);
    } catch (const InputError& e) {
      error = e.what();
    }
    EXPECT_NE(error.find(path + ": " + expected), std::string::npos) << expected << " <- " << error;
  }
}

TEST(CsvTrace, FailedWriteLeavesNoFile) {
  ScratchDirectory dir;
  Trace trace = testing::make_trace({1, 2});
  trace.stack_names = {"line\nbreak"};
  EXPECT_THROW(write_csv_trace(trace, dir.file("t.csv")), InputError);
  EXPECT_TRUE(std::filesystem::is_empty(dir.file("")));
}

}  // namespace
}  // namespace allocsim
