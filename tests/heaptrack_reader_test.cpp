// heaptrack import: the committed recordings (raw and interpreted files of the same
// runs), pairing of frees, compression, and every class of bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "allocsim/trace/format/heaptrack_reader.h"
#include "allocsim/util/error.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

using testing::recorded_trace;
using testing::ScratchDirectory;

// Live bytes at the end per (size, stack): exact from either kind of file.
std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t> live_by_class(const Trace& t) {
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t> live;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t.live_at_end(i)) live[{t.requested[i], t.stack[i]}] += t.requested[i];
  }
  return live;
}

std::string heaptrack_error_of(const std::string& path, const HeaptrackOptions& options = {}) {
  try {
    read_heaptrack(path, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(HeaptrackReader, RawFileGivesExactLifetimes) {
  const HeaptrackImport raw = read_heaptrack(recorded_trace("sqlite3.raw.zst"));
  EXPECT_EQ(raw.stats.kind, HeaptrackKind::raw);
  EXPECT_EQ(raw.stats.file_version, 3u);
  EXPECT_EQ(raw.stats.heaptrack_version, "1.4.0");
  EXPECT_EQ(raw.stats.command.rfind("sqlite3 :memory:", 0), 0u);
  EXPECT_EQ(raw.trace.size(), 10052u);
  EXPECT_EQ(raw.stats.frees, 10037u);
  EXPECT_EQ(raw.stats.unmatched_frees, 0u);
  EXPECT_EQ(raw.trace.thread_count, 1u);
  EXPECT_EQ(raw.trace.type_count, 1u);
  EXPECT_TRUE(std::all_of(raw.trace.thread.begin(), raw.trace.thread.end(), [](auto t) { return t == 0; }));
  std::size_t freed = 0;
  for (std::size_t i = 0; i < raw.trace.size(); ++i) freed += raw.trace.live_at_end(i) ? 0 : 1;
  EXPECT_EQ(freed, 10037u);
  ASSERT_EQ(raw.trace.stack_names.size(), raw.trace.stack_count);
  // Raw files carry no symbols: frames are module+offset.
  EXPECT_NE(raw.trace.stack_names[0].find("+0x"), std::string::npos) << raw.trace.stack_names[0];
}

TEST(HeaptrackReader, InterpretedFileMatchesRawFileOfTheSameRun) {
  const HeaptrackImport raw = read_heaptrack(recorded_trace("sqlite3.raw.zst"));
  const HeaptrackImport interpreted = read_heaptrack(recorded_trace("sqlite3.zst"));
  EXPECT_EQ(interpreted.stats.kind, HeaptrackKind::interpreted);
  EXPECT_EQ(interpreted.stats.frees, raw.stats.frees);
  EXPECT_GT(interpreted.stats.ambiguous_frees, 0u);
  // Same trace-tree indices, so the same events, sizes, stacks and times.
  EXPECT_EQ(interpreted.trace.requested, raw.trace.requested);
  EXPECT_EQ(interpreted.trace.stack, raw.trace.stack);
  EXPECT_EQ(interpreted.trace.time, raw.trace.time);
  EXPECT_EQ(interpreted.trace.stack_count, raw.trace.stack_count);
  EXPECT_EQ(live_by_class(interpreted.trace), live_by_class(raw.trace));
  // Interpreted files name functions.
  const auto& names = interpreted.trace.stack_names;
  EXPECT_TRUE(std::any_of(names.begin(), names.end(),
                          [](const std::string& n) { return n.find("sqlite3Malloc") != std::string::npos; }));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << "names are unique";
}

TEST(HeaptrackReader, RawFileTakesFrameNamesFromTheInterpretedFileOfTheSameRun) {
  const HeaptrackImport raw = read_heaptrack(recorded_trace("sqlite3.raw.zst"));
  const HeaptrackImport interpreted = read_heaptrack(recorded_trace("sqlite3.zst"));
  HeaptrackOptions options;
  options.names_from = recorded_trace("sqlite3.zst");
  const HeaptrackImport named = read_heaptrack(recorded_trace("sqlite3.raw.zst"), options);
  // The raw file's events and exact lifetimes, the interpreted file's names.
  EXPECT_EQ(named.stats.kind, HeaptrackKind::raw);
  EXPECT_EQ(named.trace.requested, raw.trace.requested);
  EXPECT_EQ(named.trace.stack, raw.trace.stack);
  EXPECT_EQ(named.trace.free_time, raw.trace.free_time);
  EXPECT_EQ(named.trace.stack_names, interpreted.trace.stack_names);
  EXPECT_NE(named.trace.stack_names, raw.trace.stack_names);
}

TEST(HeaptrackReader, NamesFromAnotherRunOrTheWrongKindOfFileAreRefused) {
  HeaptrackOptions other_run;
  other_run.names_from = recorded_trace("sqlite3.zst");
  const std::string mismatch = heaptrack_error_of(recorded_trace("bc.raw.zst"), other_run);
  EXPECT_NE(mismatch.find("bc.raw.zst: line "), std::string::npos) << mismatch;
  EXPECT_NE(mismatch.find("is not the one " + recorded_trace("sqlite3.zst") + " has (node "), std::string::npos)
      << mismatch;
  EXPECT_NE(mismatch.find("not of the same run"), std::string::npos) << mismatch;

  HeaptrackOptions raw_names;
  raw_names.names_from = recorded_trace("bc.raw.zst");
  EXPECT_NE(heaptrack_error_of(recorded_trace("bc.raw.zst"), raw_names)
                .find("bc.raw.zst: a raw heaptrack file, so it has no names"),
            std::string::npos);

  HeaptrackOptions names;
  names.names_from = recorded_trace("bc.zst");
  EXPECT_NE(heaptrack_error_of(recorded_trace("bc.zst"), names).find("an interpreted file names its own frames"),
            std::string::npos);
  EXPECT_EQ(heaptrack_error_of(recorded_trace("bc.raw.zst"), names), "no error");
}

TEST(HeaptrackReader, PairingRulesAgreeOnTotalsAndClassLiveBytes) {
  HeaptrackOptions fifo;
  fifo.pairing = FreePairing::fifo;
  const HeaptrackImport lifo_import = read_heaptrack(recorded_trace("python3.zst"));
  const HeaptrackImport fifo_import = read_heaptrack(recorded_trace("python3.zst"), fifo);
  const HeaptrackImport raw = read_heaptrack(recorded_trace("python3.raw.zst"));
  EXPECT_EQ(raw.stats.unmatched_frees, 2u);  // memory allocated before tracking began
  EXPECT_EQ(raw.stats.frees, 43181u);
  EXPECT_EQ(lifo_import.stats.frees, 43181u);
  EXPECT_EQ(lifo_import.stats.ambiguous_frees, fifo_import.stats.ambiguous_frees);
  EXPECT_NE(lifo_import.trace.free_time, fifo_import.trace.free_time);
  EXPECT_EQ(live_by_class(lifo_import.trace), live_by_class(raw.trace));
  EXPECT_EQ(live_by_class(fifo_import.trace), live_by_class(raw.trace));
  EXPECT_EQ(lifo_import.trace.time, raw.trace.time);
}

TEST(HeaptrackReader, MillisecondClockUsesTheStamps) {
  HeaptrackOptions options;
  options.clock = HeaptrackClock::milliseconds;
  const HeaptrackImport import = read_heaptrack(recorded_trace("python3.raw.zst"), options);
  EXPECT_GT(import.stats.last_millisecond, 0u);
  EXPECT_LE(import.trace.time.back(), import.stats.last_millisecond);
  EXPECT_EQ(import.trace.time.front(), 0u);
}

TEST(HeaptrackReader, GzipAndUncompressedReadLikeZstd) {
  ScratchDirectory dir;
  const HeaptrackImport zstd = read_heaptrack(recorded_trace("bc.zst"));
  const HeaptrackImport gzip = read_heaptrack(recorded_trace("bc.gz"));
  const std::string plain_path = dir.file("bc.txt");
  testing::write_bytes(plain_path, testing::zstd_decompress_file(recorded_trace("bc.zst")));
  const HeaptrackImport plain = read_heaptrack(plain_path);
  for (const HeaptrackImport* other : {&gzip, &plain}) {
    EXPECT_EQ(other->trace.requested, zstd.trace.requested);
    EXPECT_EQ(other->trace.free_time, zstd.trace.free_time);
    EXPECT_EQ(other->trace.stack_names, zstd.trace.stack_names);
  }
  EXPECT_EQ(zstd.trace.size(), 266u);
  EXPECT_EQ(zstd.stats.frees, 111u);
}

TEST(HeaptrackReader, AllRecordingsImport) {
  for (const char* name : {"cc1", "tclsh", "bc", "python3", "sqlite3"}) {
    for (const std::string suffix : {".zst", ".raw.zst"}) {
      const HeaptrackImport import = read_heaptrack(recorded_trace(name + suffix));
      EXPECT_GT(import.trace.size(), 100u) << name << suffix;
      EXPECT_EQ(import.trace.stack_names.size(), import.trace.stack_count) << name << suffix;
    }
  }
}

// heaptrack_interpret's last lines: how many 's' and 'i' lines it wrote.
std::string summary(int strings, int ips) {
  return "\n# strings: " + std::to_string(strings) + "\n# ips: " + std::to_string(ips) + "\n";
}

// A small interpreted file with a hand-made body, written uncompressed; `whole`
// ends it as heaptrack does.
std::string interpreted(const std::string& body, bool whole = true) {
  return "v 10400 3\nX prog\ns 4 main\ni 1000 0 1\nt 1 0\na 10 1\n" + body + (whole ? summary(1, 1) : "");
}

TEST(HeaptrackReader, HandMadeInterpretedFileDecodes) {
  ScratchDirectory dir;
  const std::string path = dir.file("t");
  testing::write_bytes(path, interpreted("+ 0\n+ 0\nc 5\n- 0\na 20 0\n+ 1\n"));
  const HeaptrackImport import = read_heaptrack(path);
  ASSERT_EQ(import.trace.size(), 3u);
  EXPECT_EQ(import.trace.requested, (std::vector<std::uint64_t>{16, 16, 32}));
  EXPECT_EQ(import.trace.time, (std::vector<std::uint64_t>{0, 1, 3}));
  EXPECT_EQ(import.trace.free_time[1], 2u) << "LIFO frees the most recent";
  EXPECT_TRUE(import.trace.live_at_end(0));
  EXPECT_EQ(import.trace.stack_names, (std::vector<std::string>{"main", "(no stack)"}));
  EXPECT_EQ(import.stats.ambiguous_frees, 1u);
  EXPECT_EQ(import.stats.last_millisecond, 5u);

  HeaptrackOptions fifo;
  fifo.pairing = FreePairing::fifo;
  EXPECT_EQ(read_heaptrack(path, fifo).trace.free_time[0], 2u) << "FIFO frees the oldest";
}

TEST(HeaptrackReader, FramesNameFunctionsFilesAndInlinedCalls) {
  ScratchDirectory dir;
  const std::string path = dir.file("t");
  testing::write_bytes(path, "v 10400 3\ns 4 main\ns 8 /src/a.c\ns 6 helper\ns c /lib/libx.so\n"
                             "i 1000 0 3 2 a 1 2 5\nt 1 0\ni 2000 4\nt 2 1\na 8 2\n+ 0\n" +
                                 summary(4, 2));
  const HeaptrackImport import = read_heaptrack(path);
  ASSERT_EQ(import.trace.stack_names.size(), 1u);
  EXPECT_EQ(import.trace.stack_names[0], "0x2000@libx.so <- helper (a.c:10) <- main (a.c:5)");
}

TEST(HeaptrackReader, HandMadeRawFileLinksFreesByPointer) {
  ScratchDirectory dir;
  const std::string path = dir.file("t");
  testing::write_bytes(path, "v 10400 3\nx 9 /bin/prog\n- cccc\nm 1 -\nm 1 x 400000 0 1000\n"
                             "m e /lib/libc.so.6 700000 0 100 1000 2000\nt 400010 0\nt 701234 1\n"
                             "+ 10 1 aaaa\n+ 20 2 bbbb\n- aaaa\n- dddd\n+ 30 2 aaaa\n");
  const HeaptrackImport import = read_heaptrack(path);
  EXPECT_EQ(import.stats.kind, HeaptrackKind::raw);
  EXPECT_EQ(import.stats.frees, 1u);
  EXPECT_EQ(import.stats.unmatched_frees, 2u);
  EXPECT_EQ(import.trace.free_time, (std::vector<std::uint64_t>{2, kNeverFreed, kNeverFreed}));
  EXPECT_EQ(import.trace.time, (std::vector<std::uint64_t>{0, 1, 3}));
  EXPECT_EQ(import.trace.stack_names, (std::vector<std::string>{"prog+0x10", "libc.so.6+0x1234 <- prog+0x10"}));
}

struct BadHeaptrack {
  const char* name;
  std::string text;
  std::string expected;  // part of the message
};

TEST(HeaptrackReader, BadInputNamesFileAndLine) {
  const std::vector<BadHeaptrack> cases = {
      {"cut mid-line", interpreted("+ 0\n+ ", false), "line 8: truncated"},
      {"cut at a line boundary", interpreted("+ 0\n+ 0\n", false),
       "line 8: truncated: no '# strings' and '# ips' lines"},
      {"summary counts differ", interpreted("s 1 x\n"),
       "line 10: truncated or altered: the file ends by counting 1 strings and 1 instruction pointers, but has 2 and "
       "1"},
      {"malformed summary", interpreted("# strings: x\n"), "line 7: malformed end-of-file summary"},
      {"free before the kind is known", "v 10400 3\n- zz\n", "line 2: bad hex number"},
      {"free with two fields before the kind is known", "v 10400 3\n- 1 2\n", "line 2: "},
      {"unknown line type", interpreted("Q 1\n"), "line 7: unknown line type \"Q\""},
      {"free with no live allocation", interpreted("+ 0\n- 0\n- 0\n"), "line 9: free of allocation info 0"},
      {"undefined allocation info", interpreted("+ 7\n"), "line 7: allocation info 7 is not defined"},
      {"undefined trace", "v 10400 3\na 10 5\n", "line 2: trace 5 is not defined"},
      {"size overflows", "v 10400 3\nm 1 -\nt 1000 0\n+ 10000000000000000 1 5\n",
       "line 4: number 10000000000000000 overflows 64 bits"},
      {"total overflows", "v 10400 3\nm 1 -\nt 1000 0\n+ ffffffffffffffff 1 5\n+ 1 1 6\n",
       "line 5: the total allocated bytes overflow"},
      {"bad hex", interpreted("+ 0x1\n"), "line 7: bad hex number"},
      {"newer format", "v 10400 4\n", "line 1: heaptrack file format version 4 is newer"},
      {"not heaptrack", "hello\n", "line 1: not a heaptrack file"},
      {"mixed kinds", interpreted("m 1 -\n"), "line 7: 'm' line does not belong in an interpreted heaptrack file"},
      {"string past the line", "v 10400 3\ns 9 abc\n", "line 2: string of length 9 runs past the line"},
  };
  ScratchDirectory dir;
  for (const auto& c : cases) {
    const std::string path = dir.file("bad");
    testing::write_bytes(path, c.text);
    const std::string error = heaptrack_error_of(path);
    EXPECT_NE(error.find(path + ": " + c.expected), std::string::npos) << c.name << ": " << error;
  }
}

// A recording cut at a line boundary imported with exit 0 (half of its
// allocations): the missing end-of-file summary now tells it.
TEST(HeaptrackReader, RecordingCutAtALineBoundaryIsRejected) {
  ScratchDirectory dir;
  const std::string text = testing::zstd_decompress_file(recorded_trace("bc.zst"));
  const std::size_t cut = text.find('\n', text.size() / 2) + 1;
  const std::string path = dir.file("cut.zst");
  testing::write_bytes(path, testing::zstd_compress(text.substr(0, cut)));
  EXPECT_NE(heaptrack_error_of(path).find(": truncated: no '# strings' and '# ips' lines"), std::string::npos)
      << heaptrack_error_of(path);
  // Cut just before the last line: the summary is there in part only.
  const std::size_t last = text.rfind('\n', text.size() - 2) + 1;
  testing::write_bytes(path, testing::zstd_compress(text.substr(0, last)));
  EXPECT_NE(heaptrack_error_of(path).find(": truncated: no '# strings' and '# ips' lines"), std::string::npos)
      << heaptrack_error_of(path);
}

// 17 MiB without a newline, 17 KB compressed: refused at the cap, not buffered.
TEST(HeaptrackReader, OverlongLineIsRefused) {
  ScratchDirectory dir;
  const std::string path = dir.file("long.zst");
  testing::write_bytes(path, testing::zstd_compress("v 10400 3\nX " + std::string(17 << 20, 'a') + "\n"));
  EXPECT_NE(heaptrack_error_of(path).find(path + ": line 2: more than 16 MiB without a line break"), std::string::npos)
      << heaptrack_error_of(path);
}

TEST(HeaptrackReader, BrokenCompressedStreamsNameTheByteOffset) {
  ScratchDirectory dir;
  const std::string original = testing::read_bytes(recorded_trace("sqlite3.zst"));
  const std::string cut = dir.file("cut.zst");
  testing::write_bytes(cut, original.substr(0, original.size() / 2));
  EXPECT_NE(heaptrack_error_of(cut).find(cut + ": byte "), std::string::npos);
  EXPECT_NE(heaptrack_error_of(cut).find("truncated zstd stream"), std::string::npos) << heaptrack_error_of(cut);

  const std::string garbage = dir.file("garbage.zst");
  testing::write_bytes(garbage, original + "garbage after the frame");
  EXPECT_NE(heaptrack_error_of(garbage).find(garbage + ": byte " + std::to_string(original.size()) +
                                             ": garbage after the end of the zstd stream"),
            std::string::npos)
      << heaptrack_error_of(garbage);

  const std::string text = testing::zstd_decompress_file(recorded_trace("bc.zst"));
  const std::string gz = dir.file("cut.gz");
  const std::string compressed = testing::gzip_compress(text);
  testing::write_bytes(gz, compressed.substr(0, compressed.size() - 20));
  EXPECT_NE(heaptrack_error_of(gz).find("truncated gzip stream"), std::string::npos) << heaptrack_error_of(gz);
  testing::write_bytes(gz, compressed + "junk");
  EXPECT_NE(heaptrack_error_of(gz).find(gz + ": byte " + std::to_string(compressed.size()) +
                                        ": garbage after the end of the gzip stream"),
            std::string::npos)
      << heaptrack_error_of(gz);
}

}  // namespace
}  // namespace allocsim
