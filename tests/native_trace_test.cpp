// allocsim's native trace format: exact round trips, the documented layout, the
// checksum, and rejection of corrupt, truncated and future files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>

#include "allocsim/trace/format/csv_trace.h"
#include "allocsim/trace/format/native_trace.h"
#include "allocsim/trace/format/trace_format.h"
#include "allocsim/trace/format/xxhash64.h"
#include "allocsim/util/error.h"
#include "test_support.h"
#include "testing/build_paths.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

using testing::ScratchDirectory;

Trace sample_trace() {
  Trace t = testing::make_trace({16, 4096, 0, 100, 1 << 20}, {0, 2, 1, 2, 0});
  t.thread_count = 3;
  t.allocated = {16, 4096, 16, 112, 1 << 20};
  t.stack = {0, 1, 1, 2, 0};
  t.stack_count = 3;
  t.stack_names = {"main", "parse <- main", "copy, \"quoted\""};
  t.type = {0, 0, 1, 1, 0};
  t.type_count = 2;
  t.free_time = {3, kNeverFreed, 2, 7, kNeverFreed};
  return t;
}

std::string error_reading(const std::string& path) {
  try {
    read_native_trace(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

template <typename T>
void poke(std::string& bytes, std::size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);
}

void reseal(std::string& bytes) { poke(bytes, 8, native_trace_checksum(bytes)); }

// The version 2 section table: entry s holds (offset, length) at 48 + 16 s.
constexpr std::size_t kRequestedSection = 2;
constexpr std::size_t kStackNamesSection = 10;
std::size_t section_entry(std::size_t s) { return 48 + 16 * s; }

TEST(NativeTrace, Xxhash64MatchesReferenceVectors) {
  EXPECT_EQ(xxhash64("", 0), 0xef46db3751d8e999ULL);
  EXPECT_EQ(xxhash64("a", 1), 0xd24ec4f1a98c6e5bULL);
  std::string bytes;
  for (int i = 0; i < 37; ++i) bytes += static_cast<char>(i);
  EXPECT_EQ(xxhash64(bytes.data(), bytes.size()), 0xd93fa2dfee5c24c9ULL);
  bytes.clear();
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  }
  EXPECT_EQ(xxhash64(bytes.data(), bytes.size()), 0x8e03c838c596036fULL);
}

TEST(NativeTrace, RoundTripIsExact) {
  ScratchDirectory dir;
  const Trace trace = sample_trace();
  const std::string path = dir.file("t.ast");
  write_native_trace(trace, path);
  testing::expect_same_trace(read_native_trace(path), trace);
  EXPECT_EQ(detect_trace_format(path), TraceFormat::native);

  Trace empty = testing::make_trace({});
  write_native_trace(empty, path);
  testing::expect_same_trace(read_native_trace(path), empty);
}

TEST(NativeTrace, CsvAndNativeRoundTripThroughEachOther) {
  ScratchDirectory dir;
  Trace trace = sample_trace();
  write_csv_trace(trace, dir.file("a.csv"));
  const Trace from_csv = read_csv_trace(dir.file("a.csv"));
  write_native_trace(from_csv, dir.file("b.ast"));
  const Trace from_native = read_native_trace(dir.file("b.ast"));
  testing::expect_same_trace(from_native, from_csv);
  write_csv_trace(from_native, dir.file("c.csv"));
  EXPECT_EQ(testing::read_bytes(dir.file("c.csv")), testing::read_bytes(dir.file("a.csv")));
  EXPECT_EQ(from_csv.stack_names, trace.stack_names) << "ids already in first-use order keep their names";
}

TEST(NativeTrace, LayoutIsTheDocumentedOne) {
  const Trace trace = sample_trace();
  const std::string bytes = encode_native_trace(trace);
  EXPECT_EQ(std::memcmp(bytes.data(), kNativeTraceMagic, 8), 0);
  auto u16 = [&](std::size_t at) {
    std::uint16_t v;
    std::memcpy(&v, bytes.data() + at, 2);
    return v;
  };
  auto u32 = [&](std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
  };
  auto u64 = [&](std::size_t at) {
    std::uint64_t v;
    std::memcpy(&v, bytes.data() + at, 8);
    return v;
  };
  // The checksum as native_trace.h defines it, recomputed here from xxhash64 alone.
  std::string hashed = bytes.substr(16, 256 - 16);
  std::uint64_t end = 256;
  for (std::size_t s = 0; s < 12; ++s) {
    const std::uint64_t digest = xxhash64(bytes.data() + u64(section_entry(s)), u64(section_entry(s) + 8));
    hashed.append(reinterpret_cast<const char*>(&digest), sizeof digest);
    end = std::max(end, u64(section_entry(s)) + u64(section_entry(s) + 8));
    EXPECT_EQ(u64(section_entry(s)) % 64, 0u) << "section " << s << " aligned";
  }
  EXPECT_EQ(u64(8), xxhash64(hashed.data(), hashed.size()));
  EXPECT_EQ(end, bytes.size()) << "the file ends with its last section";
  EXPECT_EQ(u32(16), 2u);
  EXPECT_EQ(u32(20), 256u);
  EXPECT_EQ(u64(24), trace.size());
  EXPECT_EQ(u32(36), 3u);
  EXPECT_EQ(u32(44), 1u) << "allocated column present";
  const std::uint64_t thread_at = u64(section_entry(0));
  EXPECT_EQ(u64(section_entry(0) + 8), trace.size() * 2);
  const std::uint64_t requested_at = u64(section_entry(kRequestedSection));
  EXPECT_EQ(u64(section_entry(kRequestedSection) + 8), trace.size() * 4);
  EXPECT_EQ(u64(section_entry(kRequestedSection + 1) + 8), 0u) << "no wide sizes";
  for (std::size_t i = 0; i < trace.size(); ++i) {
    EXPECT_EQ(u16(thread_at + 2 * i), trace.thread[i]);
    EXPECT_EQ(u32(requested_at + 4 * i), trace.requested[i]);
  }
}

// Sizes of 2^32 - 1 bytes and more, and thread ids from 65 535, take the escape:
// the narrow code is all ones and the value sits in the section's wide table.
TEST(NativeTrace, WideValuesGoToTheWideTables) {
  const std::uint64_t wide = std::uint64_t{1} << 40;
  Trace trace = testing::make_trace({16, 0xFFFF'FFFEu, 0xFFFF'FFFFu, wide}, {0, 65534, 65535, 70000});
  const std::string bytes = encode_native_trace(trace);
  auto u64 = [&](std::size_t at) {
    std::uint64_t v;
    std::memcpy(&v, bytes.data() + at, 8);
    return v;
  };
  auto u32 = [&](std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
  };
  const std::uint64_t codes = u64(section_entry(kRequestedSection));
  EXPECT_EQ(u32(codes + 4), 0xFFFF'FFFEu) << "the largest narrow size is stored as is";
  EXPECT_EQ(u32(codes + 8), 0xFFFF'FFFFu);
  EXPECT_EQ(u32(codes + 12), 0xFFFF'FFFFu);
  const std::uint64_t table = u64(section_entry(kRequestedSection + 1));
  ASSERT_EQ(u64(section_entry(kRequestedSection + 1) + 8), 32u) << "two wide sizes, 16 bytes each";
  EXPECT_EQ(u64(table), 2u);
  EXPECT_EQ(u64(table + 8), 0xFFFF'FFFFu);
  EXPECT_EQ(u64(table + 16), 3u);
  EXPECT_EQ(u64(table + 24), wide);
  ASSERT_EQ(u64(section_entry(1) + 8), 32u) << "two wide thread ids";
  EXPECT_EQ(u64(u64(section_entry(1)) + 24), 70000u);

  ScratchDirectory dir;
  const std::string path = dir.file("wide.ast");
  testing::write_bytes(path, bytes);
  testing::expect_same_trace(read_native_trace(path), trace);
}

TEST(NativeTrace, VersionTwoIsMappedNotCopied) {
  ScratchDirectory dir;
  const std::string path = dir.file("t.ast");
  write_native_trace(sample_trace(), path);
  const Trace mapped = read_native_trace(path);
  EXPECT_TRUE(mapped.mapped());
  EXPECT_TRUE(mapped.requested.codes().mapped() && mapped.thread.codes().mapped() && mapped.time.mapped() &&
              mapped.free_time.mapped() && mapped.stack.mapped() && mapped.type.mapped());
  Trace copy = mapped;
  EXPECT_TRUE(copy.time.mapped()) << "a copy shares the mapping";
  copy.time.push_back(99);
  EXPECT_FALSE(copy.time.mapped()) << "changing a column first copies it";
  EXPECT_TRUE(mapped.time.mapped());
  EXPECT_EQ(copy.time.size(), mapped.time.size() + 1);
}

// Version 1 files (fuzz/corpus/native_trace/named.ast was written by the version 1
// writer) still read; the values below were decoded from its bytes by hand
// (struct.unpack of the layout native_trace.h documents), not by this reader.
TEST(NativeTrace, VersionOneFilesStillRead) {
  const std::string path = allocsim::testing::source_dir() + "/fuzz/corpus/native_trace/named.ast";
  const Trace trace = read_native_trace(path);
  EXPECT_FALSE(trace.mapped()) << "version 1 is copied";
  EXPECT_EQ(trace.thread, ThreadColumn({0, 1, 0}));
  EXPECT_EQ(trace.requested, SizeColumn({48, 4096, 16}));
  EXPECT_FALSE(trace.has_allocated_sizes());
  EXPECT_EQ(trace.stack, Column<std::uint32_t>({0, 1, 0}));
  EXPECT_EQ(trace.type, Column<std::uint32_t>({0, 1, 0}));
  EXPECT_EQ(trace.time, Column<std::uint64_t>({0, 1, 6}));
  EXPECT_EQ(trace.free_time, Column<std::uint64_t>({5, kNeverFreed, kNeverFreed}));
  EXPECT_EQ(trace.thread_count, 2u);
  EXPECT_EQ(trace.stack_names, (std::vector<std::string>{"parse_row", "read, all"}));
  EXPECT_TRUE(trace.type_names.empty());

  ScratchDirectory dir;
  write_native_trace(trace, dir.file("v2.ast"));
  const Trace rewritten = read_native_trace(dir.file("v2.ast"));
  EXPECT_TRUE(rewritten.mapped());
  testing::expect_same_trace(rewritten, trace);
}

TEST(NativeTrace, CorruptionIsRejectedWithTheByteOffset) {
  ScratchDirectory dir;
  const std::string good = encode_native_trace(sample_trace());
  const std::string path = dir.file("bad.ast");
  auto error_for = [&](const std::string& bytes) {
    testing::write_bytes(path, bytes);
    return error_reading(path);
  };

  std::string flipped = good;
  flipped[good.size() - 3] ^= 0x40;
  EXPECT_NE(error_for(flipped).find(path + ": byte 8: checksum mismatch"), std::string::npos);

  EXPECT_NE(error_for(good.substr(0, good.size() - 10)).find("section 'type names' lies outside the file"),
            std::string::npos);
  EXPECT_NE(error_for(good + std::string(8, '\0')).find("8 bytes after the last section"), std::string::npos);
  EXPECT_NE(error_for(good.substr(0, 100)).find(path + ": byte 0: too short"), std::string::npos);

  std::string future = good;
  poke<std::uint32_t>(future, 16, 3);
  EXPECT_NE(error_for(future).find(path + ": byte 16: unsupported native trace version 3"), std::string::npos);

  std::string outside = good;
  poke<std::uint64_t>(outside, section_entry(kRequestedSection), good.size());  // requested starts at the end
  EXPECT_NE(error_for(outside).find("byte 80: section 'requested' lies outside"), std::string::npos)
      << error_for(outside);

  std::string bad_ids = good;
  poke<std::uint32_t>(bad_ids, 36, 1);  // stack count 1, but stack ids go up to 2
  reseal(bad_ids);
  EXPECT_NE(error_for(bad_ids).find("names for 1 ids"), std::string::npos) << error_for(bad_ids);

  std::string magic = good;
  magic[1] = 'B';
  EXPECT_NE(error_for(magic).find(path + ": byte 0: not an allocsim native trace"), std::string::npos);
}

// A wide table that does not match its escape codes is a corrupt file, refused
// before any value is looked up in it.
TEST(NativeTrace, InconsistentWideTablesAreRejected) {
  ScratchDirectory dir;
  const std::string good = encode_native_trace(testing::make_trace({16, std::uint64_t{1} << 40, 32}));
  std::uint64_t codes = 0;
  std::uint64_t table = 0;
  std::memcpy(&codes, good.data() + section_entry(kRequestedSection), 8);
  std::memcpy(&table, good.data() + section_entry(kRequestedSection + 1), 8);
  const std::string path = dir.file("wide.ast");
  auto error_for = [&](std::string bytes, std::size_t offset, auto value) {
    poke(bytes, offset, value);
    reseal(bytes);
    testing::write_bytes(path, bytes);
    return error_reading(path);
  };
  EXPECT_EQ(error_for(good, codes + 8, std::uint32_t{0xFFFF'FFFF}),
            path + ": requested column: 2 escaped values but 1 in the wide table");
  EXPECT_EQ(error_for(good, table, std::uint64_t{2}),
            path + ": requested column: wide table entry 0 is out of order or names an event that is not escaped");
  EXPECT_EQ(error_for(good, table + 8, std::uint64_t{5}),
            path + ": requested column: wide table entry 0 holds 5, not a value that needs the escape");
}

// A 644-byte file whose header claims 10^8 ids used to allocate gigabytes: every
// count is now checked against what the file can hold before a table is sized.
TEST(NativeTrace, HostileCountsAreRefusedBeforeAllocating) {
  ScratchDirectory dir;
  const std::string good = encode_native_trace(sample_trace());
  const std::string path = dir.file("bomb.ast");
  auto error_for = [&](std::string bytes, std::size_t offset, std::uint32_t value) {
    poke(bytes, offset, value);
    reseal(bytes);
    testing::write_bytes(path, bytes);
    return error_reading(path);
  };
  EXPECT_EQ(error_for(good, 32, 100'000'000), path + ": 100000000 threads, more than the 1048576 allowed");
  EXPECT_EQ(error_for(good, 40, 100'000'000), path + ": 100000000 type ids for 5 events and 0 names");

  // Stack count and name count both 10^8, in a names section of a few dozen bytes.
  std::string names = good;
  poke<std::uint32_t>(names, 36, 100'000'000);
  std::uint64_t names_offset = 0;
  std::memcpy(&names_offset, names.data() + section_entry(kStackNamesSection), sizeof names_offset);
  const std::string message = error_for(names, names_offset, 100'000'000);
  EXPECT_NE(message.find(path + ": byte " + std::to_string(names_offset) +
                         ": section 'stack names' declares 100000000 names in "),
            std::string::npos)
      << message;
}

// Two 2^63-byte allocations wrap a 64-bit total: refused by the reader, so every
// command (trace info, run) sees the same error.
TEST(NativeTrace, BytesPastTheLimitAreRefused) {
  ScratchDirectory dir;
  Trace huge = testing::make_trace({std::uint64_t{1} << 63, std::uint64_t{1} << 63}, {0, 0});
  const std::string path = dir.file("huge.ast");
  testing::write_bytes(path, encode_native_trace(huge));
  EXPECT_EQ(error_reading(path), path + ": the trace's requested sizes add up to more than 2^62 = "
                                        "4611686018427387904 bytes, the most a trace may hold");
  huge.requested = {std::uint64_t{1} << 61, std::uint64_t{1} << 61};  // 2^62 exactly: the most allowed
  testing::write_bytes(path, encode_native_trace(huge));
  EXPECT_EQ(read_native_trace(path).size(), 2u);
}

TEST(NativeTrace, FailedWriteLeavesNoFile) {
  ScratchDirectory dir;
  const std::string blocked = dir.file("file");
  testing::write_bytes(blocked, "x");
  EXPECT_THROW(write_native_trace(sample_trace(), blocked + "/sub/t.ast"), InputError);
  EXPECT_FALSE(std::filesystem::exists(blocked + "/sub"));
}

}  // namespace
}  // namespace allocsim
