// dotnet-tick (sampler/systems/dotnet-tick/dotnet_tick.h): the deterministic AllocationTick event.
#include "allocsim/sampler/systems/dotnet-tick/dotnet_tick.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "allocsim/util/error.h"
#include "scheme_theory_checks.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::catalogue_entry;
using testing::find_row;
using testing::make_trace;
using testing::parameter_default;
using testing::run_scenario_text;
using testing::ScriptedStream;

std::vector<Observation> replay(AllocationTickSampler sampler, const Trace& trace) {
  std::vector<ScriptedStream> lanes = {ScriptedStream({})};  // must not be drawn from
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  return out;
}

void expect_observation(const Observation& o, std::uint64_t event, std::uint32_t samples, std::uint64_t offset,
                        double weight) {
  EXPECT_EQ(o.event, event);
  EXPECT_EQ(o.samples, samples) << "event " << event;
  EXPECT_EQ(o.offset, offset) << "event " << event;
  EXPECT_EQ(o.weight, weight) << "event " << event;
}

// Stride 100: events on the allocations holding cumulative bytes 100, 200, 300, ...
//   30 [1,30]  70 [31,100]: byte 100 at offset 69   0: nothing
//   250 [101,350]: bytes 200 and 300, first at offset 99: 2 events, 200 bytes
//   49 [351,399]  1 [400]: offset 0   100 [401,500]: byte 500 at offset 99
TEST(AllocationTickSampler, FixedStrideScripted) {
  const Trace trace = make_trace({30, 70, 0, 250, 49, 1, 100});
  const auto out = replay(AllocationTickSampler(100, false), trace);
  ASSERT_EQ(out.size(), 4u);
  expect_observation(out[0], 1, 1, 69, 100);
  expect_observation(out[1], 3, 2, 99, 200);
  expect_observation(out[2], 5, 1, 0, 100);
  expect_observation(out[3], 6, 1, 99, 100);
}

// Stride 100, reset: running amount > 100 fires, reports the amount and resets to 0.
//   30, 70 -> 100 (not > 100)   1 -> 101 fires at offset 0, weight 101
//   250 -> fires at offset 100 (its 101st byte), weight 250
//   100 -> 100   1 -> 101 fires, weight 101
TEST(AllocationTickSampler, ResetAfterEachEventScripted) {
  const Trace trace = make_trace({30, 70, 1, 250, 100, 1});
  const auto out = replay(AllocationTickSampler(100, true), trace);
  ASSERT_EQ(out.size(), 3u);
  expect_observation(out[0], 2, 1, 0, 101);
  expect_observation(out[1], 3, 1, 100, 250);
  expect_observation(out[2], 5, 1, 0, 101);
}

// 2^48 bytes from the start hold floor(2^48 / 102400) = 2748779069 boundaries; the
// first is byte 102400 (offset 102399); the next event comes after
// 102400 - 2^48 mod 102400 = 57344 more bytes. Arithmetic, no loop, no overflow.
TEST(AllocationTickSampler, HugeAllocationHoldsManyBoundaries) {
  const std::uint64_t huge = std::uint64_t{1} << 48;
  const Trace trace = make_trace({huge, 57343, 1});
  const auto out = replay(AllocationTickSampler(102400, false), trace);
  ASSERT_EQ(out.size(), 2u);
  expect_observation(out[0], 0, 2748779069u, 102399, 102400.0 * 2748779069.0);
  expect_observation(out[1], 2, 1, 0, 102400);
  const auto reset = replay(AllocationTickSampler(102400, true), trace);
  ASSERT_EQ(reset.size(), 1u);
  expect_observation(reset[0], 0, 1, 102400, 0x1.0p48);
}

std::shared_ptr<const Scheme> make_tick(const std::string& params) {
  return testing::create_scheme_from_text("dotnet-tick", params);
}

TEST(DotnetTick, CatalogueListsDefaultsSourceAndVariants) {
  const nlohmann::json tick = catalogue_entry("dotnet-tick");
  EXPECT_EQ(parameter_default(tick, "rate"), 102400);
  EXPECT_EQ(parameter_default(tick, "mode"), "stride");
  EXPECT_NE(tick["source"].get<std::string>().find("RandomizedAllocationSampling.md"), std::string::npos);
  EXPECT_GE(tick["variants"].size(), 2u);
}

TEST(DotnetTick, RejectsBadParameters) {
  EXPECT_THROW(make_tick(R"({"stride": 0})"), InputError);
  EXPECT_THROW(make_tick(R"({"mode": "random"})"), InputError);
  EXPECT_THROW(make_tick(R"({"rate": 4096, "stride": 4096})"), InputError);  // one name, not both
  EXPECT_NO_THROW(make_tick(R"({"stride": 4096, "mode": "reset"})"));
}

// Deterministic: every replication gives the same estimate (sd 0), and over the
// whole trace the stride mode misses exactly the bytes after the last boundary:
// estimate = stride * floor(S / stride), bias = -(S mod stride).
TEST(DotnetTick, DeterministicWithExactTotalBias) {
  const std::string json = R"({"name": "t", "seed": 5, "replications": 64,
    "trace": {"allocations": 5000, "threads": 4,
              "sizes": {"distribution": "lognormal", "median": 200, "sigma": 2}},
    "schemes": [{"scheme": "dotnet-tick"}, {"scheme": "dotnet-tick", "mode": "reset", "label": "reset"}],
    "groups": ["total", "size_bucket"], "windows": ["allocated"]})";
  const auto result = run_scenario_text(json, 2);
  const double S = result.traces[0].requested_bytes;
  const Metrics& total = find_row(result, "dotnet-tick", "bytes");
  EXPECT_EQ(total.var, 0.0);
  EXPECT_EQ(total.bias, -std::fmod(S, 102400.0));
  for (const MetricRow& row : result.rows) EXPECT_EQ(row.metrics.var, 0.0) << row.scheme << row.group;
  // Reset mode credits every byte up to the last event: it misses only the tail,
  // fewer than stride + s_max bytes.
  const Metrics& reset = find_row(result, "reset", "bytes");
  EXPECT_LE(reset.bias, 0.0);
  EXPECT_GT(reset.bias, -102400.0 - 1e7);
}

}  // namespace
}  // namespace allocsim
