// memray (sampler/systems/memray/memray.h): the byte countdown with one process-wide counter and
// the s >= T whole-allocation rule.
#include "allocsim/sampler/systems/memray/memray.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "allocsim/sampler/families/byte_countdown.h"
#include "allocsim/util/error.h"
#include "scheme_theory_checks.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::catalogue_entry;
using testing::expect_rows_match_theory;
using testing::find_row;
using testing::make_trace;
using testing::parameter_default;
using testing::run_scenario_text;
using testing::ScriptedStream;

double u_for_gap(double g, double T) { return std::exp(-(g - 0.5) / T); }

std::shared_ptr<const Scheme> make_memray(const std::string& params) {
  return testing::create_scheme_from_text("memray", params);
}

// T = 100, process-wide counter, gaps 150, 20, 30, 17 (lane 0 only; lane 1 is empty).
//   t0 99: 150 -> 51 (just below T: counted down)
//   t1 100: s >= T, whole at its true size, counter untouched
//   t1 50: 51 -> 1 (thread 1 continues thread 0's countdown)
//   t0 0: nothing
//   t0 1: point at offset 0, then gap 20
//   t1 60: point at offset 19, gap 30 lands at offset 49, then gap 17 > the 10 left
TEST(MemraySampler, OneCounterForAllThreadsAndWholeAllocationsFromT) {
  const Trace trace = make_trace({99, 100, 50, 0, 1, 60}, {0, 1, 1, 0, 0, 1});
  std::vector<ScriptedStream> lanes = {
      ScriptedStream({u_for_gap(150, 100), u_for_gap(20, 100), u_for_gap(30, 100), u_for_gap(17, 100)}),
      ScriptedStream({})};
  ByteCountdownSampler sampler(100, 100, false);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].event, 1u);
  EXPECT_EQ(out[0].weight, 100.0);
  EXPECT_EQ(out[1].event, 4u);
  EXPECT_EQ(out[1].offset, 0u);
  EXPECT_EQ(out[1].weight, 100.0);
  EXPECT_EQ(out[2].event, 5u);
  EXPECT_EQ(out[2].samples, 2u);
  EXPECT_EQ(out[2].offset, 19u);
  EXPECT_EQ(out[2].weight, 200.0);
  EXPECT_EQ(lanes[0].uniforms_used(), 4u);
}

// The registered scheme is that sampler with cutoff T and one counter: same
// observations as ByteCountdownSampler(T, T, process) on the same streams, and not
// those of per-thread counters, on a 3-thread trace with sizes around T.
TEST(Memray, SchemeIsTheProcessWideCountdownWithCutoffAtT) {
  RandomStream sizes({1, 1, 1}, 0);
  std::vector<std::uint64_t> size;
  std::vector<std::uint32_t> thread;
  for (int i = 0; i < 5000; ++i) {
    size.push_back(sizes.next_u64() % 1100);
    thread.push_back(static_cast<std::uint32_t>(sizes.next_u64() % 3));
  }
  const Trace trace = make_trace(size, thread);
  const StreamKey key{9, 8, 7};
  std::vector<Observation> scheme_out;
  make_memray(R"({"rate": 1000})")->start(trace)->replay(key, scheme_out);

  auto sampler_out = [&](bool per_thread) {
    std::vector<RandomStream> lanes;
    for (std::uint64_t t = 0; t < 3; ++t) lanes.emplace_back(key, t);
    std::vector<Observation> out;
    ByteCountdownSampler(1000, 1000, per_thread).replay(trace, std::span<RandomStream>(lanes), out);
    return out;
  };
  const auto process = sampler_out(false);
  ASSERT_EQ(scheme_out.size(), process.size());
  for (std::size_t o = 0; o < process.size(); ++o) {
    EXPECT_EQ(scheme_out[o].event, process[o].event);
    EXPECT_EQ(scheme_out[o].samples, process[o].samples);
    EXPECT_EQ(scheme_out[o].weight, process[o].weight);
  }
  const auto threaded = sampler_out(true);
  bool differs = threaded.size() != process.size();
  for (std::size_t o = 0; !differs && o < process.size(); ++o) differs = threaded[o].event != process[o].event;
  EXPECT_TRUE(differs);
}

TEST(Memray, HugeAllocationIsTakenWhole) {
  const std::uint64_t huge = (std::uint64_t{1} << 48) - 1;
  const Trace trace = make_trace({huge, 0});
  std::vector<Observation> out;
  make_memray("{}")->start(trace)->replay({1, 2, 3}, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].weight, static_cast<double>(huge));
}

TEST(Memray, CatalogueListsDefaultsSourceAndVariants) {
  const nlohmann::json memray = catalogue_entry("memray");
  EXPECT_EQ(parameter_default(memray, "rate"), 4096);
  EXPECT_NE(memray["source"].get<std::string>().find("docs/sampling.rst"), std::string::npos);
  EXPECT_GE(memray["variants"].size(), 2u);
}

TEST(Memray, RejectsBadParameters) {
  EXPECT_THROW(make_memray(R"({"rate": -1})"), InputError);
  EXPECT_THROW(make_memray(R"({"rate": 1e300})"), InputError);
  EXPECT_THROW(make_memray(R"({"passthrough": "p99"})"), InputError);
}

// Mixed sizes on three threads sharing the counter: bytes matches its derived bias
// s (T(1 - e^(-1/T)) - 1) below T and is exact from T on; count (Horvitz-Thompson)
// is unbiased; count_raw misses (1 - pi) per allocation; variances
// T^2 s p'(1 - p') and (1 - pi)/pi; P(>= 1 sample). Per group.
TEST(Memray, MixedTraceMatchesPerAllocationTheory) {
  const std::string json = R"({"name": "t", "seed": 31337, "replications": 3000,
    "trace": {"allocations": 3000, "threads": 3,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.7, "distribution": "log_uniform", "min": 1, "max": 600},
        {"weight": 0.3, "distribution": "uniform", "min": 256, "max": 1024}]},
      "stacks": {"rule": "component"}},
    "schemes": [{"scheme": "memray", "rate": 512}],
    "groups": ["total", "stack", "size_bucket"], "windows": ["allocated"]})";
  const auto result = run_scenario_text(json, 2);
  EXPECT_GT(expect_rows_match_theory(result, "memray"), 20);
  // From 512 bytes on allocations are exact.
  const Metrics& big = find_row(result, "memray", "bytes", GroupKind::size_bucket, "[512,1024)");
  EXPECT_EQ(big.var, 0.0);
  // Below: relative bias 512 (1 - e^(-1/512)) - 1 = -9.76e-4 on every byte.
  const Metrics& small = find_row(result, "memray", "bytes", GroupKind::size_bucket, "[256,512)");
  EXPECT_NEAR(*small.theory.bias / small.truth, 512 * -std::expm1(-1.0 / 512) - 1, 1e-12);
}

}  // namespace
}  // namespace allocsim
