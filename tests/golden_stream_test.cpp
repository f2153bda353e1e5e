// Golden values: the first outputs of a random stream and one replication's
// samples for a few schemes, as the code produced them when they were pinned. They
// pin the random stream and how the samplers consume it, not correctness: a
// failure means a change altered which numbers a seed gives (and so every
// committed result), which must then be deliberate and the values re-pinned.
// Correctness is tested against theory elsewhere.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/engine/scheme_replay.h"
#include "allocsim/random/random_stream.h"
#include "test_support.h"

namespace allocsim {
namespace {

TEST(GoldenStream, FirstWordsAndUniformsOfAKey) {
  RandomStream words({1, 2, 3}, 0);
  for (std::uint64_t pinned : {0x05A5ABFB5D85891DULL, 0x6F1EBA458E6A5D4CULL, 0x86375EA3C1A87429ULL,
                               0xA3484CEEF3376FEFULL, 0x28D84921D67702AEULL, 0xAC46DFE052F09D5FULL}) {
    EXPECT_EQ(words.next_u64(), pinned);
  }
  RandomStream uniforms({1, 2, 3}, 1);
  for (double pinned : {0x1.eeddb615c8b8ep-2, 0x1.d5a404b457028p-2, 0x1.91434df3dd2a1p-1, 0x1.ad793bb28e83p-2}) {
    EXPECT_EQ(uniforms.next_uniform(), pinned);
  }
  EXPECT_EQ(stream_id(0, 0), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(stream_id(3, 1), 0x73B13BA2AFF181C0ULL);
}

struct PinnedObservation {
  std::uint64_t event;
  std::uint32_t samples;
  std::uint64_t offset;
  double first_register;
};

// Replication {42, 7, 0} of `scheme` at rate 4096 over 400 allocations of
// 8 + (7919 i mod 3000) bytes: the number of observations and the first six.
void expect_replication(const std::string& scheme_name, std::size_t count,
                        const std::vector<PinnedObservation>& first) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t i = 0; i < 400; ++i) sizes.push_back(8 + (i * 7919) % 3000);
  const Trace trace = testing::make_trace(sizes);
  const auto scheme = testing::create_scheme(scheme_name, {{"rate", 4096}});
  SchemeReplay replay(*scheme, trace);
  replay.replay({42, 7, 0});
  const auto& observations = replay.observations();
  ASSERT_EQ(observations.size(), count) << scheme_name;
  for (std::size_t o = 0; o < first.size(); ++o) {
    EXPECT_EQ(observations[o].event, first[o].event) << scheme_name << " observation " << o;
    EXPECT_EQ(observations[o].samples, first[o].samples) << scheme_name << " observation " << o;
    EXPECT_EQ(observations[o].offset, first[o].offset) << scheme_name << " observation " << o;
    EXPECT_EQ(replay.registers(o)[0], first[o].first_register) << scheme_name << " observation " << o;
  }
}

TEST(GoldenStream, OneReplicationOfPoisson) {
  expect_replication("poisson", 116,
                     {{1, 1, 518, 0x1p+12},
                      {6, 1, 1777, 0x1p+12},
                      {8, 1, 203, 0x1p+12},
                      {14, 1, 130, 0x1p+12},
                      {20, 1, 171, 0x1p+12},
                      {21, 1, 739, 0x1p+12}});
}

TEST(GoldenStream, OneReplicationOfHeapprofd) {
  expect_replication("heapprofd", 116,
                     {{1, 1, 518, 0x1p+12},
                      {6, 1, 1778, 0x1p+12},
                      {8, 1, 204, 0x1p+12},
                      {14, 1, 132, 0x1p+12},
                      {20, 1, 174, 0x1p+12},
                      {21, 1, 742, 0x1p+12}});
}

TEST(GoldenStream, OneReplicationOfTcmalloc) {
  expect_replication("tcmalloc", 116,
                     {{3, 1, 134, 0x1.ac09a01d9de5p+12},
                      {4, 1, 1577, 0x1.175e5907bf951p+12},
                      {9, 1, 651, 0x1.69840ac769184p+12},
                      {14, 1, 1869, 0x1.62da2811cf06bp+12},
                      {15, 1, 22, 0x1.a29aaf3ba5d0ap+12},
                      {19, 1, 406, 0x1.0977d46cefa8ep+12}});
}

TEST(GoldenStream, OneReplicationOfJemalloc) {
  expect_replication("jemalloc", 124,
                     {{1, 1, 518, 0x1.455p+12},
                      {7, 1, 123, 0x1.33p+12},
                      {9, 1, 2004, 0x1.584p+12},
                      {14, 1, 2391, 0x1.6bep+12},
                      {20, 1, 1877, 0x1.584p+12},
                      {23, 1, 1163, 0x1.584p+12}});
}

}  // namespace
}  // namespace allocsim
