// The profile formats of issue 33: uncompressed pprof, Go's debug=1 text and allocs
// profile, gperftools' unsampled heapprofile, tcmalloc's heapz_v2, and one-line
// refusals (growth profiles, empty stacks, truncated text). The real profiles of
// ../shared/corpus are read when that directory exists (skipped otherwise).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/profile.pb.h"
#include "allocsim/profile/read_profile.h"
#include "allocsim/util/error.h"
#include "testing/build_paths.h"

namespace allocsim::profile {
namespace {

const std::string kCorpus = allocsim::testing::source_dir() + "/../shared/corpus/profiles/public/";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The one-line refusal of `contents`; fails the test when it is read.
std::string refusal(const std::string& contents, ReadOptions options = {}) {
  try {
    parse_profile(contents, "bad.prof", options);
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind("bad.prof", 0), 0u) << message;
    return message;
  }
  ADD_FAILURE() << "accepted";
  return "";
}

double total_samples(const HeapProfile& profile) {
  double total = 0;
  for (const ProfileEntry& entry : profile.entries) total += entry.samples;
  return total;
}

TEST(ProfileFormats, UncompressedPprofReadsAsItsGzipDoes) {
  const std::string gzipped = slurp(allocsim::testing::profiles_dir() + "go-heap.pb.gz");
  const std::string raw = gunzip(gzipped, "go-heap", std::size_t{1} << 28);
  const HeapProfile a = parse_profile(gzipped, "gz", {});
  const HeapProfile b = parse_profile(raw, "raw", {});
  EXPECT_EQ(b.format, "pprof");
  ASSERT_EQ(a.entries.size(), b.entries.size());
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    EXPECT_EQ(a.entries[i].samples, b.entries[i].samples);
    EXPECT_EQ(a.entries[i].estimate_bytes, b.entries[i].estimate_bytes);
  }
  EXPECT_EQ(a.pprof_message, b.pprof_message);
  // Cut short, it is refused as a protobuf, not as "not a heap profile".
  const std::string cut = refusal(raw.substr(0, raw.size() / 2));
  EXPECT_EQ(cut.find("not a heap profile"), std::string::npos) << cut;
}

// A Go heap profile of one record of k = 3 samples of 64-byte objects at R = 512 KiB,
// written as runtime/pprof writes its allocs profile (default_sample_type alloc_space).
pprof::Profile allocs_profile(bool default_alloc) {
  pprof::Profile message;
  for (const char* text :
       {"", "alloc_objects", "count", "alloc_space", "bytes", "inuse_objects", "inuse_space", "space", "f"}) {
    message.add_string_table(text);
  }
  for (const auto& [type, unit] : {std::pair{1, 2}, {3, 4}, {5, 2}, {6, 4}}) {
    auto* value_type = message.add_sample_type();
    value_type->set_type(type);
    value_type->set_unit(unit);
  }
  message.mutable_period_type()->set_type(7);
  message.mutable_period_type()->set_unit(4);
  message.set_period(524288);
  if (default_alloc) message.set_default_sample_type(3);
  auto* sample = message.add_sample();
  // floor(3 / (1 - exp(-64/524288))) = 24577 objects, x 64 bytes; one in use.
  for (const std::int64_t value : {24577, 24577 * 64, 8192, 8192 * 64}) sample->add_value(value);
  auto* label = sample->add_label();
  label->set_key(4);
  label->set_num(64);
  return message;
}

TEST(ProfileFormats, GoAllocsProfileDefaultsToItsAllocWindow) {
  const HeapProfile allocs = parse_profile(allocs_profile(true).SerializeAsString(), "allocs", {});
  EXPECT_EQ(allocs.window, "alloc");
  ASSERT_EQ(allocs.entries.size(), 1u);
  EXPECT_EQ(allocs.entries[0].samples, 3);
  // Without default_sample_type (a heap profile) the default stays inuse; --window wins.
  EXPECT_EQ(parse_profile(allocs_profile(false).SerializeAsString(), "heap", {}).window, "inuse");
  ReadOptions inuse;
  inuse.window = "inuse";
  const HeapProfile asked = parse_profile(gzip(allocs_profile(true).SerializeAsString()), "allocs", inuse);
  EXPECT_EQ(asked.window, "inuse");
  EXPECT_EQ(asked.entries[0].samples, 1);
}

TEST(ProfileFormats, GoDebug1TextIsRawCountsAtHalfTheHeaderRate) {
  // runtime/pprof writeHeapInternal, debug=1: header rate 2 x MemProfileRate, "#" lines.
  const std::string text = "heap profile: 2: 128 [5: 320] @ heap/1048576\n"
                           "2: 128 [5: 320] @ 0x4d1d8b 0x43b3a7\n"
                           "#\t0x4d1d8b\tmain.f+0x2b\t/src/main.go:12\n"
                           "\n"
                           "0: 0 [3: 3072] @ 0x4d1e00\n"
                           "#\t0x4d1e00\tmain.g+0x10\t/src/main.go:20\n"
                           "\n"
                           "# runtime.MemStats\n"
                           "# Alloc = 1234\n";
  const HeapProfile profile = parse_profile(text, "go.txt", {});
  EXPECT_EQ(profile.format, "go heap text");
  EXPECT_EQ(profile.model.system, "go");
  EXPECT_EQ(profile.model.rate, 524288);
  ASSERT_EQ(profile.entries.size(), 1u);
  EXPECT_EQ(profile.entries[0].samples, 2);
  EXPECT_FALSE(profile.entries[0].samples_approximate);
  EXPECT_FALSE(profile.entries[0].mixed_sizes);
  EXPECT_DOUBLE_EQ(profile.entries[0].estimate_objects, 2 / -std::expm1(-64.0 / 524288));
  EXPECT_EQ(profile.entries[0].frames, std::vector<std::string>{"main.f"}) << "named by its \"#\" line";
  ReadOptions alloc;
  alloc.window = "alloc";
  EXPECT_EQ(total_samples(parse_profile(text, "go.txt", alloc)), 8);
  // Cut inside its last line: truncated, in one line.
  EXPECT_NE(refusal(text.substr(0, 70)).find("truncated"), std::string::npos);
}

// Each "#" line names one frame, inlined ones included (runtime/pprof printStackRecord);
// a line with an address alone stays that address; a record without "#" lines keeps
// the addresses of its "@".
TEST(ProfileFormats, GoDebug1FramesAreTheFunctionsItsHashLinesName) {
  const std::string text = "heap profile: 3: 192 [3: 192] @ heap/1048576\n"
                           "1: 64 [1: 64] @ 0x4d1d8b 0x43b3a7\n"
                           "#\t0x4d1d8a\tmain.inlined+0x0\t/src/a+0x1/main.go:7\n"
                           "#\t0x4d1d8a\tmain.f+0x2a\t/src/main.go:12\n"
                           "#\t0x43b3a6\n"
                           "\n"
                           "2: 128 [2: 128] @ 0x4d1e00\n"
                           "\n"
                           "# runtime.MemStats\n"
                           "# Alloc = 1234\n";
  const HeapProfile profile = parse_profile(text, "go.txt", {});
  ASSERT_EQ(profile.entries.size(), 2u);
  std::vector<std::vector<std::string>> stacks;
  for (const auto& entry : profile.entries) stacks.push_back(entry.frames);
  std::sort(stacks.begin(), stacks.end());
  EXPECT_EQ(stacks[0], (std::vector<std::string>{"0x4d1e00"}));
  EXPECT_EQ(stacks[1], (std::vector<std::string>{"main.inlined", "main.f", "0x43b3a6"}));
}

TEST(ProfileFormats, UnsampledHeapprofileGivesPointIntervals) {
  const std::string text = "heap profile:     3:      300 [     4:      400] @ heapprofile\n"
                           "     3:      300 [     4:      400] @ 0x1 0x2\n"
                           "\n"
                           "MAPPED_LIBRARIES:\n";
  const HeapProfile profile = parse_profile(text, "hp", {});
  EXPECT_EQ(profile.format, "heapprofile (unsampled)");
  ASSERT_EQ(profile.entries.size(), 1u);
  EXPECT_EQ(profile.entries[0].samples, 3);
  EXPECT_EQ(profile.entries[0].estimate_objects, 3);  // counts exact, unscaled
  EXPECT_EQ(profile.entries[0].estimate_bytes, 300);
  EXPECT_FALSE(profile.entries[0].mixed_sizes);
}

TEST(ProfileFormats, TcmallocHeapzV2ReadsLikeHeapV2) {
  const std::string text = "heap profile:    2:  8192 [   2:  8192] @ heapz_v2/524288\n"
                           "     2:     8192 [     2:     8192] @ 0xc635c8 0x42ecc3\n"
                           "\n"
                           "MAPPED_LIBRARIES:\n";
  const HeapProfile profile = parse_profile(text, "tc", {});
  EXPECT_EQ(profile.format, "tcmalloc heapz_v2");
  EXPECT_EQ(profile.model.system, "tcmalloc");
  EXPECT_EQ(profile.model.rate, 524288);
  EXPECT_EQ(total_samples(profile), 2);
}

TEST(ProfileFormats, AllEmptyStacksAreSaidInOneLine) {
  const HeapProfile empty = parse_profile("heap_v2/64\n@\n  t*: 1: 8 [0: 0]\n\nMAPPED_LIBRARIES:\n", "e", {});
  EXPECT_EQ(empty.note, kAllStacksEmpty);
  EXPECT_EQ(empty.note.find('\n'), std::string::npos);
  const HeapProfile some = parse_profile("heap_v2/64\n@\n  t*: 1: 8 [0: 0]\n@ 0x1\n  t*: 1: 8 [0: 0]\n\n"
                                         "MAPPED_LIBRARIES:\n",
                                         "s", {});
  EXPECT_TRUE(some.note.empty());
}

TEST(ProfileFormats, V8ProfilesUnscaleItsRoundingHalfUp) {
  // pprof-nodejs: objects/space, no "bytes" label, each (node, size) written as V8's
  // ScaleSample: unsigned(k / (1 - exp(-s/R)) + 0.5). Every k = 1..2000 comes back.
  const double rate = 524288;
  for (const double size : {16.0, 1000.0, 524288.0, 2000000.0}) {
    pprof::Profile message;
    for (const char* text : {"", "objects", "count", "space", "bytes", "f"}) message.add_string_table(text);
    for (const auto& [type, unit] : {std::pair{1, 2}, {3, 4}}) {
      auto* value_type = message.add_sample_type();
      value_type->set_type(type);
      value_type->set_unit(unit);
    }
    message.mutable_period_type()->set_type(3);
    message.mutable_period_type()->set_unit(4);
    message.set_period(static_cast<std::int64_t>(rate));
    const double f = 1 / -std::expm1(-size / rate);
    for (int k = 1; k <= 2000; ++k) {
      auto* sample = message.add_sample();
      const auto count = static_cast<std::int64_t>(k * f + 0.5);
      sample->add_value(count);
      sample->add_value(count * static_cast<std::int64_t>(size));
    }
    const HeapProfile profile = parse_profile(message.SerializeAsString(), "v8", {});
    ASSERT_EQ(profile.format, "v8 pprof");
    EXPECT_EQ(profile.model.system, "v8");
    for (int k = 1; k <= 2000; ++k) {
      ASSERT_EQ(profile.entries[k - 1].samples, k) << "size " << size;
      ASSERT_FALSE(profile.entries[k - 1].samples_approximate);
    }
  }
}

TEST(ProfileFormats, NodeProfileReadsItsSitesAndLeavesOutExternalMemory) {
  // The records of one profile traces/profiles/make/heap_node.js wrote (@datadog/pprof
  // 5.20.0, Node.js 20.20.2, 65536 B between samples), value for value: each site's
  // objects are V8's floor(k f + 0.5), and pprof-nodejs's "(external)" record is
  // process.memoryUsage().external as one object, not a sample.
  pprof::Profile message;
  for (const char* text :
       {"", "inuse_objects", "count", "inuse_space", "bytes", "(external)", "siteSmall", "siteMedium", "siteLarge"}) {
    message.add_string_table(text);
  }
  for (const auto& [type, unit] : {std::pair{1, 2}, {3, 4}}) {
    auto* value_type = message.add_sample_type();
    value_type->set_type(type);
    value_type->set_unit(unit);
  }
  message.set_period(65536);
  for (std::uint64_t id = 1; id <= 4; ++id) {
    auto* function = message.add_function();
    function->set_id(id);
    function->set_name(static_cast<std::int64_t>(id + 4));
    auto* location = message.add_location();
    location->set_id(id);
    location->add_line()->set_function_id(id);
  }
  const std::int64_t written[][3] = {{1, 1, 1580338}, {4, 100, 6558400}, {3, 2252, 9332288}, {2, 14347, 1377312}};
  for (const auto& [location, objects, space] : written) {
    auto* sample = message.add_sample();
    sample->add_location_id(static_cast<std::uint64_t>(location));
    sample->add_value(objects);
    sample->add_value(space);
  }
  const HeapProfile profile = parse_profile(message.SerializeAsString(), "node", {});
  EXPECT_EQ(profile.format, "v8 pprof");
  EXPECT_NE(profile.note.find("\"(external)\" record of 1580338 bytes"), std::string::npos) << profile.note;
  // k = round(written / f), f = 1/(1 - exp(-s/65536)): 100/1.5813 = 63.24 (Go's
  // ceil would say 64), 2252/16.32 = 138.0, 14347/683.2 = 21.0.
  const std::tuple<const char*, double, double> sites[] = {
      {"siteLarge", 65584, 63}, {"siteMedium", 4144, 138}, {"siteSmall", 96, 21}};
  ASSERT_EQ(profile.entries.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& [name, size, samples] = sites[i];
    EXPECT_EQ(profile.entries[i].frames, std::vector<std::string>{name});
    EXPECT_EQ(profile.entries[i].object_size, size) << name;
    EXPECT_EQ(profile.entries[i].samples, samples) << name;
    EXPECT_FALSE(profile.entries[i].samples_approximate) << name;
  }
}

TEST(ProfileFormats, RefusalsNameWhatTheFileIsAndWhatIsRead) {
  for (const char* tag : {"growth", "growthz"}) {
    const std::string message = refusal(std::string("heap profile: 1: 8 [1: 8] @ ") + tag + "\n1: 8 [1: 8] @ 0x1\n");
    EXPECT_NE(message.find("heap growth profile"), std::string::npos) << message;
    EXPECT_NE(message.find("allocsim reads"), std::string::npos) << message;
  }
  EXPECT_NE(refusal("--- heapz 1 ---\nformat = java\n").find("Java heapz"), std::string::npos);
  EXPECT_NE(refusal("threadcreate profile: total 7\n").find("threadcreate"), std::string::npos);
  EXPECT_NE(refusal(std::string(40, '\0')).find("legacy binary CPU"), std::string::npos);
  EXPECT_NE(refusal("heap profile: 1: 8 [1: 8] @ fragmentationz\n").find("allocsim reads"), std::string::npos);
  // Text whose first byte happens to tag a Profile field ('j' = field 13) is not tried as pprof.
  EXPECT_NE(refusal("just some text\n").find("not a heap profile"), std::string::npos);
}

// The corpus (../shared/corpus/profiles, never committed): each heap profile is read
// or refused as issue 33 says.
TEST(ProfileFormats, CorpusProfilesReadOrAreRefusedForTheirReason) {
  if (!std::filesystem::exists(kCorpus)) GTEST_SKIP() << "no " << kCorpus;
  for (const char* name : {"ddgo-heap.pprof", "ddgo-big-heap.pprof", "pyro-og_convert_pprof_heap.pb",
                           "pprof-gobench.heap", "pprof-cppbench.heap", "issue-gperftools-822.heap"}) {
    EXPECT_NO_THROW(read_profile(kCorpus + name, {})) << name;
  }
  const HeapProfile gobench = read_profile(kCorpus + "pprof-gobench.heap", {});
  EXPECT_EQ(gobench.model.rate, 524288);
  EXPECT_EQ(total_samples(gobench), 13);  // the header's in-use objects
  const HeapProfile cppbench = read_profile(kCorpus + "pprof-cppbench.heap", {});
  EXPECT_EQ(total_samples(cppbench), 144);
  const HeapProfile unsampled = read_profile(kCorpus + "issue-gperftools-822.heap", {});
  EXPECT_EQ(unsampled.entries.at(0).estimate_objects, 18949);
  EXPECT_EQ(read_profile(kCorpus + "issue-jemalloc-1461.heap", {}).note, kAllStacksEmpty);
  for (const char* name : {"pyro-og_convert_pprof_nodejs-heap.pb.gz", "pyro-og_convert_pprof_heap-js.pprof"}) {
    const HeapProfile node = read_profile(kCorpus + name, {});
    EXPECT_EQ(node.format, "v8 pprof") << name;
    EXPECT_NE(node.note.find("(external)"), std::string::npos) << name;  // left out: not sampled
  }
  const std::pair<const char*, const char*> refused[] = {
      {"pprof-cppbench.growth", "heap growth profile"},
      {"pprof-java.heap", "Java heapz"},
      {"pprof-cppbench.cpu", "legacy binary CPU"},
      {"ddgo-block.before.pprof", "not a Go heap profile"},
      {"parca-query_alloc_space_delta.pb.gz", "delta profile"},
  };
  for (const auto& [name, reason] : refused) {
    try {
      read_profile(kCorpus + name, {});
      ADD_FAILURE() << name << " read";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace allocsim::profile
