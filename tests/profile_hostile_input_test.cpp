// The profile readers on damaged and hostile files: truncated, saved on Windows,
// frameless stacks, terminal escapes, joined or padded gzip, counts that wrap, and
// files built to exhaust memory or time. Each is read as pprof and jeprof read it or
// refused with one line naming where; nothing hangs or runs out of memory.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/pprof_writer.h"
#include "allocsim/profile/profile.pb.h"
#include "allocsim/profile/profile_report.h"
#include "allocsim/profile/read_profile.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

const std::string kCorpus = "/work/shared/corpus/profiles/public/";

// The message of the InputError that reading `contents` throws ("" if it reads).
std::string refusal(const std::string& contents, ReadOptions options = {}) {
  try {
    parse_profile(contents, "bad.prof", options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

#define EXPECT_REFUSED(contents, what)                                            \
  do {                                                                            \
    const std::string refused_ = refusal(contents);                               \
    EXPECT_NE(refused_.find(what), std::string::npos) << "message: " << refused_; \
    EXPECT_EQ(refused_.find('\n'), std::string::npos) << refused_;                \
  } while (false)

const std::string kJemalloc = "heap_v2/64\n@ 0x1 0x2\n  t*: 2: 16 [3: 24]\n  t0: 2: 16 [3: 24]\n";
const std::string kGperftools = "heap profile: 2: 16 [3: 24] @ heap_v2/64\n2: 16 [3: 24] @ 0x1 0x2\n";
const std::string kMaps = "\nMAPPED_LIBRARIES:\n00400000-00401000 r-xp 00000000 00:00 1 /bin/true\n";

// A Go heap profile (inuse_objects, inuse_space) at rate 512 KiB, no samples yet.
pprof::Profile go_heap() {
  pprof::Profile message;
  for (const char* text : {"", "inuse_objects", "count", "inuse_space", "bytes", "main.f"}) {
    message.add_string_table(text);
  }
  for (const int type : {1, 3}) {
    auto* value_type = message.add_sample_type();
    value_type->set_type(type);
    value_type->set_unit(type + 1);
  }
  message.set_period(524288);
  auto* function = message.add_function();
  function->set_id(1);
  function->set_name(5);
  auto* location = message.add_location();
  location->set_id(1);
  location->add_line()->set_function_id(1);
  return message;
}

void add_sample(pprof::Profile& message, std::int64_t objects, std::int64_t bytes) {
  auto* sample = message.add_sample();
  sample->add_location_id(1);
  sample->add_value(objects);
  sample->add_value(bytes);
}

TEST(ProfileHostileInput, TextProfilesWithoutTheirMappedLibrariesAreTruncated) {
  ASSERT_EQ(refusal(kJemalloc + kMaps), "");
  ASSERT_EQ(refusal(kGperftools + kMaps), "");
  EXPECT_REFUSED(kJemalloc, "bad.prof:4: the profile ends without its \"MAPPED_LIBRARIES:\" section");
  EXPECT_REFUSED(kGperftools, "bad.prof:2: the profile ends without its \"MAPPED_LIBRARIES:\" section");
  // Cut inside a record: the stack is there, its counts are not.
  EXPECT_REFUSED("heap_v2/64\n@ 0x1\n", "MAPPED_LIBRARIES");
}

TEST(ProfileHostileInput, RealTextDumpsEndWithTheirMappedLibraries) {
  // The jemalloc dumps of the shared corpus end with the section; the reader takes them.
  if (!std::filesystem::exists(kCorpus)) GTEST_SKIP() << "no corpus at " << kCorpus;
  const HeapProfile issue = read_profile(kCorpus + "issue-jemalloc-1461.heap", {});
  EXPECT_EQ(issue.model.rate, 524288);
  EXPECT_EQ(read_profile(kCorpus + "pprof-jemalloc.heap", {}).format, "jemalloc heap_v2");
}

// A memory map names files by whatever bytes the file system holds. profile.proto's
// strings must be UTF-8 (protobuf refuses to parse them otherwise), so the annotated
// copy names such a file with U+FFFD per bad byte, and reads back (found by fuzzing).
TEST(ProfileHostileInput, MappedFileNamesThatAreNotUtf8StillGiveAReadableAnnotatedProfile) {
  const std::string maps = "\nMAPPED_LIBRARIES:\n00400000-00401000 r-xp 00000000 00:00 1 /opt/caf\xe9/run\n";
  ReadOptions options;
  options.symbolize = false;
  const HeapProfile heap = parse_profile(kJemalloc + maps, "latin1.prof", options);
  ASSERT_EQ(heap.memory_map.size(), 1U);
  EXPECT_EQ(heap.memory_map[0].file, "/opt/caf\xe9/run");  // kept as written, for the symbolizer
  const std::string annotated = annotated_pprof(heap, all_entry_intervals(heap, 0.95), 0.95);
  pprof::Profile message;
  ASSERT_TRUE(message.ParseFromString(gunzip(annotated, "annotated", std::size_t{1} << 20)));
  EXPECT_EQ(message.string_table(static_cast<int>(message.mapping(0).filename())), "/opt/caf\xef\xbf\xbd/run");
  EXPECT_EQ(parse_profile(annotated, "annotated", options).entries.size(), heap.entries.size());
}

TEST(ProfileHostileInput, FramelessStacksAreEmptyStacks) {
  // jemalloc/jemalloc#1461: "@" alone when the unwinder found nothing.
  const HeapProfile jemalloc = parse_profile(
      "heap_v2/524288\n@\n  t*: 30: 79763360 [0: 0]\n  t1: 30: 79763360 [0: 0]\n" + kMaps, "frameless.heap", {});
  ASSERT_EQ(jemalloc.entries.size(), 1u);
  EXPECT_TRUE(jemalloc.entries[0].frames.empty());
  EXPECT_EQ(jemalloc.entries[0].samples, 30);
  const HeapProfile gperftools =
      parse_profile("heap profile: 1: 8 [1: 8] @ heap_v2/64\n1: 8 [1: 8] @\n" + kMaps, "frameless.heap", {});
  ASSERT_EQ(gperftools.entries.size(), 1u);
  EXPECT_TRUE(gperftools.entries[0].frames.empty());
  ReportOptions options;
  options.replications = 10;
  const std::string table = report_table(gperftools, build_report(gperftools, options));
  EXPECT_NE(table.find(kNoFrames), std::string::npos) << table;
}

TEST(ProfileHostileInput, WindowsLineEndsReadAsUnixOnes) {
  for (const std::string& text : {kJemalloc + kMaps, kGperftools + kMaps}) {
    std::string crlf;
    for (const char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const HeapProfile unix_ends = parse_profile(text, "unix.heap", {});
    const HeapProfile windows_ends = parse_profile(crlf, "windows.heap", {});
    ASSERT_EQ(windows_ends.entries.size(), unix_ends.entries.size());
    EXPECT_EQ(windows_ends.model.rate, 64);
    EXPECT_EQ(windows_ends.entries[0].frames, unix_ends.entries[0].frames);
    EXPECT_EQ(windows_ends.entries[0].samples, unix_ends.entries[0].samples);
    EXPECT_EQ(windows_ends.entries[0].estimate_bytes, unix_ends.entries[0].estimate_bytes);
    EXPECT_EQ(windows_ends.pprof_message, unix_ends.pprof_message);
  }
}

TEST(ProfileHostileInput, ControlCharactersInABadLineAreEscaped) {
  const std::string message = refusal("heap_v2/64\n@ 0x1\n\x1b]0;owned\x07\x1b[2J\n" + kMaps);
  EXPECT_NE(message.find("bad.prof:3: unexpected line \"\\x1b]0;owned\\x07\\x1b[2J\""), std::string::npos) << message;
  EXPECT_EQ(message.find('\x1b'), std::string::npos);
  const std::string address = refusal("heap_v2/64\n@ 0x1 \x1b[31m\n" + kMaps);
  EXPECT_NE(address.find("\"\\x1b[31m\" is not a hex address"), std::string::npos) << address;
  const std::string counts = refusal("heap_v2/64\n@ 0x1\n  t*: 1: \r\x9b 2 [0: 0]\n" + kMaps);
  EXPECT_NE(counts.find("got \" 1: \\r\\x9b 2 [0: 0]\""), std::string::npos) << counts;
  // A string of a pprof's own table, echoed when its sample types are wrong.
  pprof::Profile cpu = go_heap();
  cpu.set_string_table(1, "cpu\x1b[2J");
  const std::string types = refusal(gzip(cpu.SerializeAsString()));
  EXPECT_NE(types.find("\"cpu\\x1b[2J/count\""), std::string::npos) << types;
  EXPECT_EQ(types.find('\x1b'), std::string::npos);
}

TEST(ProfileHostileInput, GzipMembersJoinAndTrailingBytesAreRefused) {
  pprof::Profile message = go_heap();
  add_sample(message, 3, 3 * 4096);
  const std::string bytes = message.SerializeAsString();
  const std::string whole = gzip(bytes);
  // Two members, as `cat a.gz b.gz` makes: one stream of both, as gzip(1) reads it.
  const std::string joined = gzip(bytes.substr(0, bytes.size() / 2)) + gzip(bytes.substr(bytes.size() / 2));
  const HeapProfile one = parse_profile(whole, "one.pb.gz", {});
  const HeapProfile two = parse_profile(joined, "two.pb.gz", {});
  ASSERT_EQ(two.entries.size(), 1u);
  EXPECT_EQ(two.entries[0].estimate_bytes, one.entries[0].estimate_bytes);
  EXPECT_EQ(two.pprof_message, one.pprof_message);
  EXPECT_REFUSED(whole + "garbage",
                 "bad.prof: byte " + std::to_string(whole.size()) + ": 7 bytes of trailing data after the gzip stream");
  EXPECT_REFUSED(whole + std::string(512, '\0'), "bytes of trailing data");
  EXPECT_REFUSED(joined + "\x1f", "trailing data");
}

TEST(ProfileHostileInput, CountsThatWouldWrapAreRefusedWithTheirLine) {
  // Merged gperftools lines of one stack and size whose sum passes 2^63 - 1.
  const std::string half =
      "4611686018427387904: 4611686018427387904 [4611686018427387904: 4611686018427387904] @ 0x1\n";
  EXPECT_REFUSED("heap profile: 1: 1 [1: 1] @ heap_v2/64\n" + half + half + kMaps,
                 "bad.prof:3: the counts of this stack and size, summed over its lines, pass 2^63 - 1");
  EXPECT_REFUSED("heap_v2/64\n@ 0x1\n  t*: 1: 18446744073709551616 [0: 0]\n" + kMaps,
                 "bad.prof:3: the count \"18446744073709551616\" is beyond 2^63 - 1");
  EXPECT_REFUSED("heap_v2/1" + std::string(400, '0') + "\n@ 0x1\n  t*: 1: 8 [0: 0]\n" + kMaps,
                 "bad.prof:1: the sampling rate \"1000");
  EXPECT_REFUSED("heap_v2/18446744073709551615\n" + kMaps, "is beyond 2^63");
  EXPECT_REFUSED("heap profile: 1: 8 [1: 8] @ heap_v2/1e400\n" + kMaps, "is not a whole number");
}

// Go's encoder writes a name's bytes as they are: a name that is not UTF-8 is read
// (its bytes kept; JSON output replaces each invalid one with U+FFFD), and protobuf
// prints nothing of its own.
TEST(ProfileHostileInput, NamesThatAreNotUtf8AreRead) {
  pprof::Profile message = go_heap();
  message.set_string_table(5, "main.\xff\xfe");
  add_sample(message, 2, 2048);
  ::testing::internal::CaptureStderr();
  const HeapProfile profile = parse_profile(gzip(message.SerializeAsString()), "names.pb.gz", {});
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  ASSERT_EQ(profile.entries.size(), 1u);
  ASSERT_EQ(profile.entries[0].frames.size(), 1u);
  EXPECT_EQ(profile.entries[0].frames[0], "main.\xff\xfe");
}

TEST(ProfileHostileInput, EmptySamplesCannotExhaustMemory) {
  // Five million empty samples: ten bytes of protobuf each two, gzip'd to a few KiB.
  std::string bytes = go_heap().SerializeAsString();
  bytes.reserve(bytes.size() + 10'000'000);
  for (int i = 0; i < 5'000'000; ++i) bytes += std::string("\x12\x00", 2);
  EXPECT_REFUSED(gzip(bytes), "bad.prof: more than 4194304 messages and strings in the protobuf (the limit)");
  // Packed location ids, one byte each on the wire and eight once parsed.
  std::string ids = go_heap().SerializeAsString();
  std::string sample = "\x0a\x80\x80\x80\x10" + std::string(1u << 25, '\x01');  // field 1, 2^25 bytes
  sample += std::string("\x10\x01\x10\x01", 4);                                 // two values
  std::string field = "\x12";                                                   // Profile.sample
  for (std::size_t n = sample.size();; n >>= 7) {
    field += static_cast<char>(n < 0x80 ? n : (n & 0x7f) | 0x80);
    if (n < 0x80) break;
  }
  EXPECT_REFUSED(gzip(ids + field + sample), "numbers in the protobuf (the limit)");
}

TEST(ProfileHostileInput, RecordAndFrameCountsAreBounded) {
  std::string records = "heap_v2/64\n";
  for (std::size_t i = 0; i <= kMaxRecords; ++i) records += "@ 0x1\n  t*: 1: 8 [0: 0]\n";
  EXPECT_REFUSED(records + kMaps, "bad.prof: more than 1048576 records (the limit)");
  // One location of many inlined lines, named again and again by one sample: ten
  // million frames from 30 KiB of protobuf.
  pprof::Profile message = go_heap();
  for (int i = 0; i < 5000; ++i) message.mutable_location(0)->add_line()->set_function_id(1);
  add_sample(message, 1, 64);
  for (int i = 0; i < 2000; ++i) message.mutable_sample(0)->add_location_id(1);
  EXPECT_REFUSED(gzip(message.SerializeAsString()), "bad.prof: more than 8388608 stack frames in all (the limit)");
}

TEST(ProfileHostileInput, HugeSampleCountsReportInBoundedWork) {
  // 2^52 samples in one record, 10^8 in another: the resampler draws each count
  // with a bounded number of uniforms (it took one per sample, and never ended).
  const HeapProfile profile =
      parse_profile("heap_v2/524288\n@ 0x1\n  t*: 4503599627370496: 4503599627370496000 [0: 0]\n"
                    "@ 0x2\n  t*: 100000000: 800000000 [0: 0]\n" +
                        kMaps,
                    "huge.heap", {});
  ReportOptions options;
  options.replications = 200;
  const ProfileReport report = build_report(profile, options);
  ASSERT_EQ(report.rows.size(), 2u);
  // 2^52 against 10^8 samples: their order never changes.
  EXPECT_EQ(report.rows[0].rank_kept, 1.0);
  EXPECT_EQ(report.top_set_unchanged, 1.0);
  // An estimate past 2^62 objects is refused (size 1 at rate 2^63: p about 1e-19).
  EXPECT_REFUSED("heap_v2/9223372036854775808\n@ 0x1\n  t*: 5: 5 [0: 0]\n" + kMaps,
                 "bad.prof:3: the record's estimate");
}

}  // namespace
}  // namespace allocsim::profile
