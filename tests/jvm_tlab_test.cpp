#include "allocsim/sampler/systems/jvm/jvm_tlab.h"

#include <gtest/gtest.h>

#include <cmath>

#include "allocsim/sampler/systems/jvm/jvm.h"
#include "allocsim/util/error.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::make_trace;
using testing::ScriptedStream;
using testing::uniform_for_next;

std::vector<std::size_t> sampled_events(const JvmTlabConfig& tlab, const Trace& trace, std::vector<double> draws) {
  const double T = 1000;
  draws.resize(draws.size() + 8, 50000);  // later intervals beyond the trace
  for (double& d : draws) d = uniform_for_next(d, T);
  std::vector<ScriptedStream> lanes = {ScriptedStream(draws)};
  JvmSampler sampler(T, false, tlab);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  std::vector<std::size_t> events;
  for (const Observation& o : out) events.push_back(o.event);
  return events;
}

// 1 KiB TLABs without reserve: refill waste limit 1024 / 64 = 16 bytes.
JvmTlabConfig small_tlabs() {
  JvmTlabConfig c;
  c.desired = 1024;
  c.reserve = 0;
  c.waste_increment = 8;
  return c;
}

// Objects 0-7 of 64 B: object 0 refills a 1088-byte TLAB (1024 + the object) and is
// checked with S = 0: 64 < 500 leaves B = 436, and the sample end goes 432 bytes on,
// at 496 (S = 436). Object 7 [448, 512) crosses it: S + 64 = 500 >= 436, sampled, as
// the plain countdown would (cumulative 512 >= 500); B = 3000, S = 576 (the free tail).
// Object 8 (2048 B) does not fit, 576 free > 16: outside the TLAB, checked against B
// alone (2048 < 3000, B = 952) and S grows by the tail again (1152). Objects 9-17 fill
// the TLAB on the fast path; object 18 refills and reports S + 64 = 1216 >= 952:
// sampled, where the plain countdown reaches 952 only at object 23.
TEST(JvmTlab, OutsideAllocationLeavesTheTailCountedTwice) {
  std::vector<std::uint64_t> sizes(30, 64);
  sizes[8] = 2048;
  const Trace trace = make_trace(sizes);
  const std::vector<double> draws = {500, 3000, 50000};
  EXPECT_EQ(sampled_events(small_tlabs(), trace, draws), (std::vector<std::size_t>{7, 18}));
  EXPECT_EQ(sampled_events(JvmTlabConfig{}, trace, draws), (std::vector<std::size_t>{7, 23}));
}

// Thread 0 starts in a TLAB with 256 bytes free and no sample end: with B = 1 every
// slow-path object is sampled, yet objects 0-3 fit and pass unseen; object 4 refills
// and is the first sampled.
TEST(JvmTlab, UnarmedTlabIsNeverSampled) {
  JvmTlabConfig c = small_tlabs();
  c.initial = 256;
  const Trace trace = make_trace(std::vector<std::uint64_t>(6, 64));
  EXPECT_EQ(sampled_events(c, trace, {1, 50000}), (std::vector<std::size_t>{4}));
  c.initial = 0;
  EXPECT_EQ(sampled_events(c, trace, {1, 50000}), (std::vector<std::size_t>{0}));
}

// G1's region (jvm_tlab.h): a refill takes min(free, desired + object) when at least
// max(object, MinTLABSize 2048) + reserve is free, else it fails; an object allocated
// outside goes to the region when it fits, else starts a new one; humongous objects
// (half a region or more) leave it alone.
TEST(JvmTlab, RegionHandsOutTlabsUntilItsMinimumNoLongerFits) {
  JvmTlabConfig c = small_tlabs();
  c.region = 4096;
  JvmHeap heap(c);
  EXPECT_EQ(heap.new_tlab(c, 64), 1088u);  // 3008 free left
  EXPECT_EQ(heap.new_tlab(c, 64), 1088u);  // 1920 free left
  EXPECT_EQ(heap.new_tlab(c, 64), 0u);     // 1920 < 2048: the refill fails
  heap.allocate_outside(1024);             // fits: 896 free left
  heap.allocate_outside(1024);             // does not: a new region, 3072 free
  EXPECT_EQ(heap.new_tlab(c, 64), 1088u);  // 1984 free left
  heap.allocate_outside(2048);             // humongous: the region is unchanged
  EXPECT_EQ(heap.new_tlab(c, 64), 0u);

  c.desired = 3000;  // 3064-byte TLABs in 8 KiB: the third gets the region's remainder
  c.region = 8192;
  JvmHeap larger(c);
  EXPECT_EQ(larger.new_tlab(c, 64), 3064u);
  EXPECT_EQ(larger.new_tlab(c, 64), 3064u);
  EXPECT_EQ(larger.new_tlab(c, 64), 2064u);
  EXPECT_EQ(larger.new_tlab(c, 64), 0u);
}

// A contiguous heap never fails a refill; a TLAB too small for the object and the
// reserve (a cap below it) retires the old one and allocates outside.
TEST(JvmTlab, ContiguousHeapRefillsToDesiredPlusObject) {
  JvmTlabConfig c = small_tlabs();
  c.reserve = 576;
  c.max = 2048;
  JvmHeap heap(c);
  EXPECT_EQ(heap.new_tlab(c, 64), 1088u);
  EXPECT_EQ(heap.new_tlab(c, 1024), 2048u);  // capped
  EXPECT_EQ(heap.new_tlab(c, 1600), 0u);     // 2048 < 1600 + 576
}

TEST(JvmTlab, BadParameters) {
  EXPECT_THROW(testing::create_scheme("jvm", {{"tlab", 512}}), InputError);  // not above the 576-byte reserve
  EXPECT_THROW(testing::create_scheme("jvm", {{"tlab", 4096}, {"tlab_refill_waste_fraction", 0}}), InputError);
  EXPECT_THROW(testing::create_scheme("jvm", {{"tlab_region", 1 << 20}}), InputError);  // no TLAB to place
  EXPECT_THROW(testing::create_scheme("jvm", {{"tlab", 4096}, {"tlab_region", 4096}, {"tlab_region_used", 8192}}),
               InputError);
  EXPECT_NO_THROW(testing::create_scheme("jvm", {{"tlab", 4096}, {"tlab_region", 1 << 20}, {"initial_tlab", 100}}));
}

}  // namespace
}  // namespace allocsim
