// The three readers on the real profiles of traces/profiles/ (made by
// traces/profiles/make/make.sh; their call sites allocate known bytes), the recovery
// of Go's scaled values, and one-line refusals of bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/profile.pb.h"
#include "allocsim/profile/read_profile.h"
#include "allocsim/util/error.h"
#include "testing/build_paths.h"

namespace allocsim::profile {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The entry whose stack holds a frame containing `name`; fails the test if none.
const ProfileEntry& entry_named(const HeapProfile& profile, const std::string& name) {
  for (const ProfileEntry& entry : profile.entries) {
    for (const std::string& frame : entry.frames) {
      if (frame.find(name) != std::string::npos) return entry;
    }
  }
  throw std::logic_error("no entry with frame " + name);
}

// The entry with objects of `size` bytes and the most samples.
const ProfileEntry& entry_sized(const HeapProfile& profile, double size) {
  const ProfileEntry* best = nullptr;
  for (const ProfileEntry& entry : profile.entries) {
    if (entry.object_size == size && (best == nullptr || entry.samples > best->samples)) best = &entry;
  }
  if (best == nullptr) throw std::logic_error("no entry of size " + std::to_string(size));
  return *best;
}

// Go 1.19's scaleHeapSample (runtime/pprof/protomem.go), for one count.
std::int64_t go_scaled(double count, double size, double rate) {
  return static_cast<std::int64_t>(count * (1 / (1 - std::exp(-size / rate))));
}

TEST(ProfileReaders, GoHeapProfileRecoversTheSamplesGoScaled) {
  const HeapProfile profile = read_profile(allocsim::testing::profiles_dir() + "go-heap.pb.gz", {});
  EXPECT_EQ(profile.format, "pprof");
  EXPECT_EQ(profile.model.rate, 65536);
  for (const char* site : {"main.siteSmall", "main.siteMedium", "main.siteLarge"}) {
    const ProfileEntry& entry = entry_named(profile, site);
    EXPECT_FALSE(entry.samples_approximate) << site;
    // Go wrote floor(k f): the recovered k scaled again gives the written value.
    EXPECT_EQ(go_scaled(entry.samples, entry.object_size, 65536), entry.estimate_objects) << site;
  }
  EXPECT_EQ(entry_named(profile, "main.siteSmall").object_size, 64);
  EXPECT_EQ(entry_named(profile, "main.siteMedium").object_size, 4096);
  // 1 MiB objects are sampled with probability 1 - exp(-16): all 20 of them.
  EXPECT_EQ(entry_named(profile, "main.siteLarge").samples, 20);
  // The freed site holds nothing live, but its allocations are in the alloc window.
  EXPECT_THROW(entry_named(profile, "main.siteFreed"), std::logic_error);
  ReadOptions alloc;
  alloc.window = "alloc";
  EXPECT_EQ(entry_named(read_profile(allocsim::testing::profiles_dir() + "go-heap.pb.gz", alloc), "main.siteFreed")
                .object_size,
            1024);
}

TEST(ProfileReaders, RecoveryIsExactForEveryCountAndSize) {
  // Profiles written with Go's own scaling for k = 1..3000 at sizes around the rate:
  // every k comes back (the ceiling argument of pprof_reader.h).
  const double rate = 4096;
  for (const double size : {8.0, 48.0, 1000.0, 2839.0, 4096.0, 30000.0}) {
    pprof::Profile message;
    for (const char* text : {"", "inuse_objects", "count", "inuse_space", "bytes", "bytes", "f", "space"}) {
      message.add_string_table(text);
    }
    for (const int type : {1, 3}) {
      auto* value_type = message.add_sample_type();
      value_type->set_type(type);
      value_type->set_unit(type + 1);
    }
    message.mutable_period_type()->set_type(7);
    message.mutable_period_type()->set_unit(4);
    message.set_period(static_cast<std::int64_t>(rate));
    for (int k = 1; k <= 3000; ++k) {
      auto* sample = message.add_sample();
      sample->add_value(go_scaled(k, size, rate));
      sample->add_value(go_scaled(k * size, size, rate));
      auto* label = sample->add_label();
      label->set_key(5);
      label->set_num(static_cast<std::int64_t>(size));
    }
    const HeapProfile profile = parse_profile(gzip(message.SerializeAsString()), "synthetic", {});
    ASSERT_EQ(profile.entries.size(), 3000u);
    for (int k = 1; k <= 3000; ++k) ASSERT_EQ(profile.entries[k - 1].samples, k) << "size " << size;
  }
}

TEST(ProfileReaders, JemallocRawCountsAreTheSamples) {
  ReadOptions raw;
  raw.jemalloc_unbias = false;
  const HeapProfile profile = read_profile(allocsim::testing::profiles_dir() + "jemalloc-raw.heap", raw);
  EXPECT_EQ(profile.format, "jemalloc heap_v2");
  EXPECT_EQ(profile.model.rate, 65536);
  const ProfileEntry& large = entry_sized(profile, 1048576);
  EXPECT_EQ(large.samples, 20);  // p = 1 - exp(-16)
  EXPECT_FALSE(large.samples_approximate);
  EXPECT_EQ(large.samples * large.object_size, 20971520);
  // jeprof's scaling of the raw record: bytes / (1 - exp(-avg/R)).
  EXPECT_DOUBLE_EQ(large.estimate_bytes, 20971520 / -std::expm1(-16.0));
}

TEST(ProfileReaders, JemallocUnbiasedValuesApproximateTheSamples) {
  const HeapProfile profile = read_profile(allocsim::testing::profiles_dir() + "jemalloc-unbiased.heap", {});
  for (const ProfileEntry& entry : profile.entries) EXPECT_TRUE(entry.samples_approximate);
  // The 20 large objects: prof_do_unbias writes them back as 20 objects of ~1 MiB.
  const ProfileEntry* large = nullptr;
  for (const ProfileEntry& entry : profile.entries) {
    if (std::fabs(entry.object_size - 1048576) < 1) large = &entry;
  }
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(large->samples, 20);
}

TEST(ProfileReaders, GperftoolsRecordsMergePerStackAndSize) {
  const HeapProfile profile = read_profile(allocsim::testing::profiles_dir() + "gperftools.heap", {});
  EXPECT_EQ(profile.format, "gperftools heap_v2");
  EXPECT_EQ(profile.model.rate, 65536);
  double lines = 0;
  for (const ProfileEntry& entry : profile.entries) {
    EXPECT_FALSE(entry.mixed_sizes);
    lines += entry.samples;
  }
  // The header's total is the sum of the per-object lines.
  const std::string text = slurp(allocsim::testing::profiles_dir() + "gperftools.heap");
  EXPECT_EQ(lines, std::stod(text.substr(text.find(':') + 1)));
  EXPECT_GT(entry_sized(profile, 8192).samples, 0);
}

// Every bad input: one InputError naming the file (or flag) and what is wrong.
void expect_refused(const std::string& contents, const std::string& what, ReadOptions options = {}) {
  try {
    parse_profile(contents, "bad.prof", options);
    ADD_FAILURE() << "accepted input that should fail with: " << what;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(what), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    if (what.rfind("--", 0) != 0) {
      EXPECT_EQ(message.rfind("bad.prof", 0), 0u) << message;
    }
  }
}

TEST(ProfileReaders, BadInputIsRefusedWithOneLine) {
  const std::string go = slurp(allocsim::testing::profiles_dir() + "go-heap.pb.gz");
  expect_refused(go.substr(0, go.size() / 2), "truncated gzip stream");
  expect_refused(go.substr(2), "not a heap profile");
  expect_refused(slurp(allocsim::testing::profiles_dir() + "go-cpu.pb.gz"), "cpu/nanoseconds");
  // A protobuf that is not a Profile: varint field 99 (tag 99 << 3 = 0x98 0x06) = 7.
  expect_refused(gzip(std::string("\x98\x06\x07", 3)), "another message");
  expect_refused(gzip("\x0a\xff\xff\xff"), "does not parse");
  expect_refused("  t*: 1: 2 [0: 0]\n", "not a heap profile");
  expect_refused("heap_v2/0\n@ 0x1\n  t*: 1: 2 [0: 0]\n", "rate 0");
  expect_refused("heap_v2/64\n@ 0x1\n  t*: 1: x [0: 0]\n", "bad.prof:3");
  expect_refused("heap_v2/64\n@ 0xzz\n", "not a hex address");
  expect_refused("heap_v2/64\n@ 0x1\n  t*: 9007199254740993: 9007199254740993 [0: 0]\nMAPPED_LIBRARIES:\n",
                 "beyond 2^52");
  expect_refused("heap profile: 1: 2 [1: 2] @ heap_v2/0\n", "rate 0");
  expect_refused("heap profile: 1: 2 [1: 2] @ heapy/64\n", "of kind \"heapy/64\"");
  expect_refused("heap_v2/64\n@ 0x1\n  t*: 0: 0 [0: 0]\nMAPPED_LIBRARIES:\n", "no sampled inuse records");
  ReadOptions alloc;
  alloc.window = "alloc";
  expect_refused("heap_v2/64\n@ 0x1\n  t*: 1: 8 [0: 0]\nMAPPED_LIBRARIES:\n", "no allocated (bracketed) counts", alloc);
  alloc.window = "peak";
  expect_refused(go, "--window must be inuse or alloc", alloc);
}

}  // namespace
}  // namespace allocsim::profile
