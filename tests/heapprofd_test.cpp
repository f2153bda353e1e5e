// heapprofd (sampler/systems/heapprofd/heapprofd.h) and the byte countdown it shares with memray
// (sampler/families/byte_countdown.h).
#include "allocsim/sampler/systems/heapprofd/heapprofd.h"

#include <gtest/gtest.h>

#include <algorithm>
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

// The uniform whose gap floor(-T ln u) + 1 is g: -T ln u = g - 1/2.
double u_for_gap(double g, double T) { return std::exp(-(g - 0.5) / T); }

std::vector<double> uniforms_for_gaps(const std::vector<double>& gaps, double T) {
  std::vector<double> u;
  for (double g : gaps) u.push_back(u_for_gap(g, T));
  return u;
}

std::vector<Observation> replay(ByteCountdownSampler sampler, const Trace& trace, std::vector<ScriptedStream>& lanes) {
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

std::shared_ptr<const Scheme> make_scheme(const std::string& name, const std::string& params) {
  return testing::create_scheme_from_text(name, params);
}

TEST(ByteCountdown, GapIsFloorOfExponentialPlusOne) {
  EXPECT_EQ(floor_exponential_plus_one(1.0, 4096), 1u);  // E = 0
  EXPECT_EQ(floor_exponential_plus_one(u_for_gap(7, 100), 100), 7u);
  // The largest gap, u = 2^-53 at T = 2^53: 53 ln2 2^53 ~ 2^58.2, still exact in uint64.
  const double largest = 53 * std::log(2.0) * 0x1.0p53;
  EXPECT_NEAR(static_cast<double>(floor_exponential_plus_one(0x1.0p-53, 0x1.0p53)), largest, 1e-12 * largest);
}

// T = 100, no pass-through, gaps 100, 5, 3, 4, 10, 7. Counter semantics of
// sampler.cc: counter -= s; while (counter <= 0) { counter += G; ++n; }.
//   0: 100 - 0   -> 100           99: -> 1            0: -> 1
//   1: 1 - 1 = 0 -> +5 = 5, n = 1, first point at offset 0
//  12: 5 - 12 = -7 -> +3 = -4 -> +4 = 0 -> +10 = 10: n = 3, points at offsets 4, 7, 11
//   9: -> 1        1: -> 0 -> +7: n = 1 at offset 0
TEST(ByteCountdown, ScriptedCountdownCarriesTheOvershoot) {
  const Trace trace = make_trace({0, 99, 0, 1, 12, 9, 1});
  std::vector<ScriptedStream> lanes = {ScriptedStream(uniforms_for_gaps({100, 5, 3, 4, 10, 7}, 100))};
  const auto out = replay(ByteCountdownSampler(100, kNoPassthrough, true), trace, lanes);
  ASSERT_EQ(out.size(), 3u);
  expect_observation(out[0], 3, 1, 0, 100);
  expect_observation(out[1], 4, 3, 4, 300);
  expect_observation(out[2], 6, 1, 0, 100);
  EXPECT_EQ(lanes[0].uniforms_used(), 6u);
}

TEST(Heapprofd, P99ThresholdMatchesTheFormula) {
  EXPECT_EQ(heapprofd_p99_threshold(4096), 18861u);  // 1 + floor(ln 0.01 / ln(1 - 1/T)), Perfetto sampler.cc
  EXPECT_EQ(heapprofd_p99_threshold(524288), 2414434u);
  // T = 2: (1/2)^6 = 1.6% > 1% >= (1/2)^7, so 7 bytes are the first size past 99%.
  EXPECT_EQ(heapprofd_p99_threshold(2), 7u);
  EXPECT_EQ(heapprofd_p99_threshold(1), 1u);  // every non-empty allocation
}

// T = 4096, p99 cutoff 18861; gaps 20000, 50, 18810, 1.
//   18861: passes through (true size, counter still 20000, nothing drawn)
//   18860: 20000 -> 1140 (just below the cutoff: counted down)
//    1140: point at offset 1139, next gap 50
//    2^48: passes through, no overflow, weight exactly 2^48
//   18860: point at offset 49, 18810 bytes later a second (offset 18859), then gap 1
TEST(Heapprofd, PassThroughAtTheP99CutoffLeavesTheCounterAlone) {
  const double T = 4096;
  const std::uint64_t huge = std::uint64_t{1} << 48;
  const Trace trace = make_trace({18861, 18860, 1140, huge, 18860});
  std::vector<ScriptedStream> lanes = {ScriptedStream(uniforms_for_gaps({20000, 50, 18810, 1}, T))};
  const auto out = replay(ByteCountdownSampler(T, heapprofd_p99_threshold(T), false), trace, lanes);
  ASSERT_EQ(out.size(), 4u);
  expect_observation(out[0], 0, 1, 0, 18861);
  expect_observation(out[1], 2, 1, 1139, T);
  expect_observation(out[2], 3, 1, 0, 0x1.0p48);
  expect_observation(out[3], 4, 2, 49, 2 * T);
  EXPECT_EQ(lanes[0].uniforms_used(), 4u);
}

// Pre-Android-12 rule, T = 4096: size T passes through, T - 1 is counted down.
// Gaps 4095, 1, 2: 4096 passes; 4095 hits the point at offset 4094; 1 hits offset 0.
TEST(Heapprofd, RateCutoffSplitsAtT) {
  const Trace trace = make_trace({4096, 4095, 1, 1});
  std::vector<ScriptedStream> lanes = {ScriptedStream(uniforms_for_gaps({4095, 1, 2}, 4096))};
  const auto out = replay(ByteCountdownSampler(4096, 4096, false), trace, lanes);
  ASSERT_EQ(out.size(), 3u);
  expect_observation(out[0], 0, 1, 0, 4096);
  expect_observation(out[1], 1, 1, 4094, 4096);
  expect_observation(out[2], 2, 1, 0, 4096);
  EXPECT_EQ(lanes[0].uniforms_used(), 3u);
}

// T = 1 with the p99 rule: cutoff 1, so every non-empty allocation is recorded
// exactly and size 0 never is (it cannot bring the counter, >= 1, to <= 0).
TEST(Heapprofd, RateOneRecordsEveryNonEmptyAllocation) {
  const Trace trace = make_trace({0, 1, 5, 0});
  std::vector<ScriptedStream> lanes = {ScriptedStream({0.5})};
  const auto out = replay(ByteCountdownSampler(1, heapprofd_p99_threshold(1), false), trace, lanes);
  ASSERT_EQ(out.size(), 2u);
  expect_observation(out[0], 1, 1, 0, 1);
  expect_observation(out[1], 2, 1, 0, 5);
}

// No pass-through, T = 2^44, every gap 2^44: 2^48 bytes hold 16 points (the first at
// 2^44 - 1), leaving 2^44; then 2^48 - 1 bytes hold 15 and leave 1. No overflow.
TEST(ByteCountdown, HugeAllocationsWithoutPassThrough) {
  const double T = 0x1.0p44;
  const std::uint64_t huge = std::uint64_t{1} << 48;
  const Trace trace = make_trace({huge, huge - 1});
  std::vector<ScriptedStream> lanes = {ScriptedStream(std::vector<double>(32, u_for_gap(T, T)))};
  const auto out = replay(ByteCountdownSampler(T, kNoPassthrough, true), trace, lanes);
  ASSERT_EQ(out.size(), 2u);
  expect_observation(out[0], 0, 16, (std::uint64_t{1} << 44) - 1, 0x1.0p48);
  expect_observation(out[1], 1, 15, (std::uint64_t{1} << 44) - 1, 15 * T);
  EXPECT_EQ(lanes[0].uniforms_used(), 32u);
}

// Two threads, 60 bytes each, T = 100, first gap 100. One process-wide counter: the
// second allocation reaches the point at its offset 39 and draws from lane 0 only
// (lane 1 is empty and would throw). One counter per thread: no sample.
TEST(Heapprofd, ProcessCounterIsSharedThreadCountersAreNot) {
  const Trace trace = make_trace({60, 60}, {0, 1});
  std::vector<ScriptedStream> shared = {ScriptedStream(uniforms_for_gaps({100, 50}, 100)), ScriptedStream({})};
  const auto process = replay(ByteCountdownSampler(100, kNoPassthrough, false), trace, shared);
  ASSERT_EQ(process.size(), 1u);
  expect_observation(process[0], 1, 1, 39, 100);

  std::vector<ScriptedStream> own = {ScriptedStream(uniforms_for_gaps({100}, 100)),
                                     ScriptedStream(uniforms_for_gaps({100}, 100))};
  EXPECT_TRUE(replay(ByteCountdownSampler(100, kNoPassthrough, true), trace, own).empty());
}

// The sampler against a literal transcription of sampler.cc's loop (int64 counter,
// `-=`, `while (<= 0)`), same random stream, on sizes that span the cutoff.
TEST(Heapprofd, AgreesWithTheCodeLoop) {
  RandomStream sizes({7, 7, 0}, 0);
  std::vector<std::uint64_t> size;
  for (int i = 0; i < 20000; ++i) size.push_back(sizes.next_u64() % (std::uint64_t{1} << (sizes.next_u64() % 16)));
  const Trace trace = make_trace(size, std::vector<std::uint32_t>(size.size(), 0));
  const double T = 512;
  const std::uint64_t cutoff = heapprofd_p99_threshold(T);
  const StreamKey key{3, 4, 5};

  const auto scheme = make_scheme("heapprofd", R"({"rate": 512})");
  std::vector<Observation> out;
  scheme->start(trace)->replay(key, out);

  RandomStream engine(key, 0);
  auto next_gap = [&] { return static_cast<std::int64_t>(-T * std::log(engine.next_uniform())) + 1; };
  std::int64_t counter = next_gap();
  std::size_t o = 0, passthrough = 0;
  for (std::size_t i = 0; i < size.size(); ++i) {
    const auto s = static_cast<std::int64_t>(size[i]);
    std::uint32_t n = 0;
    if (size[i] >= cutoff) {
      n = 1;
      ++passthrough;
    } else {
      counter -= s;
      while (counter <= 0) {
        counter += next_gap();
        ++n;
      }
    }
    if (n == 0) continue;
    ASSERT_LT(o, out.size());
    EXPECT_EQ(out[o].event, i);
    EXPECT_EQ(out[o].samples, n);
    EXPECT_EQ(out[o].weight, size[i] >= cutoff ? double(size[i]) : T * n);
    ++o;
  }
  EXPECT_EQ(o, out.size());
  EXPECT_GT(passthrough, 0u);
}

// `allocsim schemes --json` lists both heapprofd schemes with their defaults, the
// documents they come from and the code-vs-document variants.
TEST(Heapprofd, CatalogueListsDefaultsSourcesAndVariants) {
  const testing::CliResult cli = testing::run_cli("schemes --json");
  ASSERT_EQ(cli.exit_code, 0);
  const nlohmann::json listed = nlohmann::json::parse(cli.output);
  for (const char* name : {"heapprofd", "heapprofd-pre12", "memray", "dotnet-tick", "per-allocation"}) {
    EXPECT_TRUE(std::any_of(listed.begin(), listed.end(), [&](const auto& e) { return e["name"] == name; })) << name;
  }
  const nlohmann::json heapprofd = catalogue_entry("heapprofd");
  EXPECT_EQ(parameter_default(heapprofd, "rate"), 4096);
  EXPECT_EQ(parameter_default(heapprofd, "passthrough"), "p99");
  EXPECT_EQ(parameter_default(heapprofd, "counter"), "process");
  EXPECT_NE(heapprofd["source"].get<std::string>().find("heapprofd-sampling.md"), std::string::npos);
  EXPECT_GE(heapprofd["variants"].size(), 3u);
  EXPECT_EQ(parameter_default(catalogue_entry("heapprofd-pre12"), "passthrough"), "rate");
}

TEST(Heapprofd, RejectsBadParameters) {
  EXPECT_THROW(make_scheme("heapprofd", R"({"rate": 0})"), InputError);
  EXPECT_THROW(make_scheme("heapprofd", R"({"rate": 4096.5})"), InputError);
  EXPECT_THROW(make_scheme("heapprofd", R"({"passthrough": "p95"})"), InputError);
  EXPECT_THROW(make_scheme("heapprofd", R"({"counter": "cpu"})"), InputError);
  EXPECT_THROW(make_scheme("heapprofd", R"({"rat": 4096})"), InputError);
  EXPECT_NO_THROW(make_scheme("heapprofd-pre12", R"({"rate": 8, "passthrough": "none", "counter": "thread"})"));
}

// A mixed-size trace (zero-size, small, around T, past the cutoff) on three threads:
// every group's bytes, count and count_raw match their per-allocation theory
// (bias, variance, P(>= 1 sample)), for each pass-through rule.
TEST(Heapprofd, MixedTraceMatchesPerAllocationTheory) {
  const std::string json = R"({"name": "t", "seed": 2024, "replications": 3000,
    "trace": {"allocations": 3000, "threads": 3,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.05, "distribution": "constant", "size": 0},
        {"weight": 0.6, "distribution": "log_uniform", "min": 1, "max": 512},
        {"weight": 0.3, "distribution": "lognormal", "median": 4096, "sigma": 1.0},
        {"weight": 0.05, "distribution": "pareto", "scale": 16384, "shape": 1.5, "max": 4194304}]},
      "stacks": {"rule": "component"}},
    "schemes": [{"scheme": "heapprofd", "passthrough": "p99"},
                {"scheme": "heapprofd", "passthrough": "rate", "counter": "thread", "label": "rate"},
                {"scheme": "heapprofd", "passthrough": "none", "label": "none"}],
    "groups": ["total", "stack", "size_bucket"], "windows": ["allocated"]})";
  const auto result = run_scenario_text(json, 2);
  for (const char* label : {"heapprofd", "rate", "none"}) {
    EXPECT_GT(expect_rows_match_theory(result, label), 50) << label;
    // The Horvitz-Thompson count is unbiased except for the never-sampled size-0
    // allocations (component-0), which it misses exactly.
    const Metrics& count = find_row(result, label, "count", GroupKind::stack, "component-1");
    EXPECT_EQ(*count.theory.bias, 0.0);
  }
  // count_raw counts each sampled allocation once: it misses (1 - pi) per allocation.
  const Metrics& raw = find_row(result, "heapprofd", "count_raw", GroupKind::stack, "component-1");
  EXPECT_LT(*raw.theory.bias, -0.5 * raw.truth);
  // Past the p99 cutoff (>= 18861 bytes: bucket [32768,65536) and up) bytes are exact.
  const Metrics& big = find_row(result, "heapprofd", "bytes", GroupKind::size_bucket, "[32768,65536)");
  EXPECT_EQ(big.bias, 0.0);
  EXPECT_EQ(big.var, 0.0);
}

// The floor(Exp)+1 gap makes the per-byte probability 1 - e^(-1/T), not 1/T, so
// bytes = T n has relative bias T (1 - e^(-1/T)) - 1 (~ -1/(2T)). At T = 4 it is
// -0.1152: the measurement must agree with it and be far from 0.
TEST(Heapprofd, BytesBiasIsTheDerivedMinusOneOverTwoT) {
  const std::string json = R"({"name": "t", "seed": 77, "replications": 4000,
    "trace": {"allocations": 400, "sizes": {"distribution": "sequence", "sizes": [1, 3, 7, 50]},
              "stacks": {"rule": "component"}},
    "schemes": [{"scheme": "heapprofd", "rate": 4, "passthrough": "none"}],
    "groups": ["total", "stack"], "windows": ["allocated"]})";
  const auto result = run_scenario_text(json, 2);
  const double derived = 4 * -std::expm1(-0.25) - 1;
  EXPECT_NEAR(derived, -0.1152, 1e-4);
  EXPECT_NEAR(derived, -1.0 / 8 + 1.0 / 96, 2e-3);  // -1/(2T) + 1/(6T^2) - ...
  for (const char* stack : {"component-0", "component-1", "component-2", "component-3"}) {
    const Metrics& m = find_row(result, "heapprofd", "bytes", GroupKind::stack, stack);
    EXPECT_NEAR(*m.theory.bias / m.truth, derived, 1e-12) << stack;
    EXPECT_GT(std::fabs(m.bias), 20 * m.se_bias) << stack;  // visibly biased
  }
  EXPECT_GT(expect_rows_match_theory(result, "heapprofd"), 0);
  // Variance T^2 S p'(1 - p') for the S bytes of the whole trace.
  const Metrics& total = find_row(result, "heapprofd", "bytes");
  const double p = -std::expm1(-0.25);
  EXPECT_NEAR(*total.theory.var, 16 * total.truth * p * (1 - p), 1e-9 * *total.theory.var);
}

// The design document's appendix: with the old cutoff an allocation of exactly T is
// always sampled and one of T - 1 bytes only with probability 1 - e^(-(T-1)/T) ~ 63%;
// with the p99 cutoff an allocation of T is sampled with probability 1 - 1/e.
TEST(Heapprofd, CutoffDiscontinuityOfTheDocumentAppendix) {
  const std::string json = R"({"name": "t", "seed": 12, "replications": 20000,
    "trace": {"allocations": 2, "sizes": {"distribution": "sequence", "sizes": [4095, 4096]},
              "stacks": {"rule": "component"}},
    "schemes": [{"scheme": "heapprofd-pre12"}, {"scheme": "heapprofd"}],
    "groups": ["stack"], "windows": ["allocated"]})";
  const auto result = run_scenario_text(json, 2);
  const double R = 20000;
  auto p_any = [&](const char* scheme, const char* stack) {
    return find_row(result, scheme, "bytes", GroupKind::stack, stack).p_any_sample;
  };
  const double below = -std::expm1(-4095.0 / 4096), at = -std::expm1(-1.0);
  EXPECT_TRUE(
      testing::within_sigmas(p_any("heapprofd-pre12", "component-0"), below, std::sqrt(below * (1 - below) / R)));
  EXPECT_EQ(p_any("heapprofd-pre12", "component-1"), 1.0);
  EXPECT_TRUE(testing::within_sigmas(p_any("heapprofd", "component-1"), at, std::sqrt(at * (1 - at) / R)));
}

}  // namespace
}  // namespace allocsim
