// allocsim's native trace format: exact round trips, the documented layout, the
// checksum, and rejection of corrupt, truncated and future files.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "allocsim/trace/format/csv_trace.h"
#include "allocsim/trace/format/native_trace.h"
#include "allocsim/trace/format/trace_format.h"
#include "allocsim/trace/format/xxhash64.h"
#include "allocsim/util/error.h"
#include "test_support.h"
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

void expect_equal(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.thread, b.thread);
  EXPECT_EQ(a.requested, b.requested);
  EXPECT_EQ(a.allocated, b.allocated);
  EXPECT_EQ(a.stack, b.stack);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.free_time, b.free_time);
  EXPECT_EQ(a.thread_count, b.thread_count);
  EXPECT_EQ(a.stack_count, b.stack_count);
  EXPECT_EQ(a.type_count, b.type_count);
  EXPECT_EQ(a.stack_names, b.stack_names);
  EXPECT_EQ(a.type_names, b.type_names);
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

void reseal(std::string& bytes) { poke(bytes, 8, xxhash64(bytes.data() + 16, bytes.size() - 16)); }

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
  expect_equal(read_native_trace(path), trace);
  EXPECT_EQ(detect_trace_format(path), TraceFormat::native);

  Trace empty = testing::make_trace({});
  write_native_trace(empty, path);
  expect_equal(read_native_trace(path), empty);
}

TEST(NativeTrace, CsvAndNativeRoundTripThroughEachOther) {
  ScratchDirectory dir;
  Trace trace = sample_trace();
  write_csv_trace(trace, dir.file("a.csv"));
  const Trace from_csv = read_csv_trace(dir.file("a.csv"));
  write_native_trace(from_csv, dir.file("b.ast"));
  const Trace from_native = read_native_trace(dir.file("b.ast"));
  expect_equal(from_native, from_csv);
  write_csv_trace(from_native, dir.file("c.csv"));
  EXPECT_EQ(testing::read_bytes(dir.file("c.csv")), testing::read_bytes(dir.file("a.csv")));
  EXPECT_EQ(from_csv.stack_names, trace.stack_names) << "ids already in first-use order keep their names";
}

TEST(NativeTrace, LayoutIsTheDocumentedOne) {
  const Trace trace = sample_trace();
  const std::string bytes = encode_native_trace(trace);
  EXPECT_EQ(std::memcmp(bytes.data(), kNativeTraceMagic, 8), 0);
  auto u32 = [&](std::size_t at) { std::uint32_t v; std::memcpy(&v, bytes.data() + at, 4); return v; };
  auto u64 = [&](std::size_t at) { std::uint64_t v; std::memcpy(&v, bytes.data() + at, 8); return v; };
  EXPECT_EQ(u64(8), xxhash64(bytes.data() + 16, bytes.size() - 16));
  EXPECT_EQ(u32(16), 1u);
  EXPECT_EQ(u32(20), 192u);
  EXPECT_EQ(u64(24), trace.size());
  EXPECT_EQ(u32(36), 3u);
  EXPECT_EQ(u32(44), 1u) << "allocated column present";
  for (std::size_t s = 0; s < 9; ++s) EXPECT_EQ(u64(48 + 16 * s) % 64, 0u) << "section " << s << " aligned";
  const std::uint64_t requested_at = u64(48 + 16);
  EXPECT_EQ(u64(48 + 16 + 8), trace.size() * 8);
  for (std::size_t i = 0; i < trace.size(); ++i) EXPECT_EQ(u64(requested_at + 8 * i), trace.requested[i]);
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

  EXPECT_NE(error_for(good.substr(0, good.size() - 10)).find("checksum mismatch"), std::string::npos);
  EXPECT_NE(error_for(good.substr(0, 100)).find(path + ": byte 0: too short"), std::string::npos);

  std::string future = good;
  poke<std::uint32_t>(future, 16, 2);
  EXPECT_NE(error_for(future).find(path + ": byte 16: unsupported native trace version 2"), std::string::npos);

  std::string outside = good;
  poke<std::uint64_t>(outside, 48 + 16, good.size());  // requested column starts at the end
  reseal(outside);
  EXPECT_NE(error_for(outside).find("byte 64: section 'requested'"), std::string::npos) << error_for(outside);

  std::string bad_ids = good;
  poke<std::uint32_t>(bad_ids, 36, 1);  // stack count 1, but stack ids go up to 2
  reseal(bad_ids);
  EXPECT_NE(error_for(bad_ids).find("names for 1 ids"), std::string::npos) << error_for(bad_ids);

  std::string magic = good;
  magic[1] = 'B';
  EXPECT_NE(error_for(magic).find(path + ": byte 0: not an allocsim native trace"), std::string::npos);
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
  std::memcpy(&names_offset, names.data() + 48 + 16 * 7, sizeof names_offset);
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
