#include "allocsim/sampler/systems/tcmalloc/tcmalloc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "allocsim/sampler/systems/tcmalloc/tcmalloc_size_classes.h"
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
using testing::uniform_for_interval;

std::unique_ptr<Scheme> make_tcmalloc(const nlohmann::json& params) {
  return testing::create_scheme("tcmalloc", params);
}

TEST(TcmallocSizeClasses, DefaultTableAndPages) {
  const std::pair<std::uint64_t, std::uint64_t> cases[] = {
      {0, 8},       {1, 8},       {8, 8},       {9, 16},          {17, 32},         {24, 32},          {99, 112},
      {1024, 1024}, {1025, 1152}, {6529, 6784}, {262144, 262144}, {262145, 270336}, {4194303, 4194304}};
  for (auto [request, allocated] : cases) EXPECT_EQ(tcmalloc_allocated_size(request), allocated) << request;
  const std::uint64_t two48 = std::uint64_t{1} << 48;
  EXPECT_EQ(tcmalloc_allocated_size(two48 - 1), two48);
  EXPECT_EQ(tcmalloc_allocated_size(two48 + 1), two48 + 8192);
}

// The LCG step is POSIX's nrand48 recurrence (same a, c, 48-bit state), so glibc's
// nrand48 checks it independently.
TEST(TcmallocLcg48, MatchesNrand48AndQuantisedDraw) {
  EXPECT_EQ(TcmallocLcg48::next(0), 0xBu);
  EXPECT_EQ(TcmallocLcg48::next(1), 0x5DEECE678u);
  EXPECT_EQ(TcmallocLcg48::next((std::uint64_t{1} << 48) - 1), 0xFFFA2113199Eu);
  for (std::uint64_t state : {0x1234ABCD330EULL, 0x9a0aa438485ULL, 0xFFFFFFFFFFFFULL}) {
    unsigned short xsubi[3] = {static_cast<unsigned short>(state), static_cast<unsigned short>(state >> 16),
                               static_cast<unsigned short>(state >> 32)};
    nrand48(xsubi);
    const std::uint64_t glibc = xsubi[0] | std::uint64_t{xsubi[1]} << 16 | std::uint64_t{xsubi[2]} << 32;
    EXPECT_EQ(TcmallocLcg48::next(state), glibc);
  }
  // Seed 0x9a0aa438485 is 21 steps before state 0x7fffffc00000, whose top 26 bits are
  // 2^25 - 1: q = 2^25, interval = (25 - 26)(-ln 2 T) = T ln 2 = 693.15 -> 693 at T = 1000.
  TcmallocLcg48 lcg(0x9a0aa438485ULL);
  EXPECT_EQ(lcg.interval(1000), 693);
  EXPECT_EQ(lcg.state(), 0x7fffffc00000u);
  // q = 2^26 (top bits all ones) gives 0; the largest interval is 26 ln 2 T.
  EXPECT_EQ(tcmalloc_truncate_interval(1e300), std::numeric_limits<std::int64_t>::max());
}

// T = 100, ideal draws, scripted intervals G -> counter max(0, G - 1). Requests r
// decrement k = r + 1; sampled iff counter < k, at offset counter, W = T + k - counter - 1.
//   G=1:   c=0;   r=0 (k=1): sampled at 0, W=100           (size 0 is sampleable)
//   G=12:  c=11;  r=9 (k=10): 1 left; r=50 (k=51): sampled at 1, W=149
//   G=12:  c=11;  r=10 (k=11): c = k, not sampled, 0 left; r=1000: sampled at 0, W=1100
//   G=100: c=99;  r=99 (k=100=T): sampled at its last byte 99, W=100
//   G=0:   c=0;   r=5 (k=6): sampled at 0, W=105
//   G=101: c=100; r=99 (k=100): not sampled (c = k)
TEST(TcmallocSampler, ScriptedCountdownOnRequestedPlusOne) {
  const double T = 100;
  const Trace trace = make_trace({0, 9, 50, 10, 1000, 99, 5, 99});
  std::vector<ScriptedStream> lanes = {
      ScriptedStream({uniform_for_interval(1, T), uniform_for_interval(12, T), uniform_for_interval(12, T),
                      uniform_for_interval(100, T), uniform_for_interval(0, T), uniform_for_interval(101, T)})};
  TcmallocSampler sampler(100, false);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  const std::uint64_t events[] = {0, 2, 4, 5, 6}, offsets[] = {0, 1, 0, 99, 0};
  const double weights[] = {100, 149, 1100, 100, 105};
  ASSERT_EQ(out.size(), 5u);
  for (std::size_t j = 0; j < 5; ++j) {
    EXPECT_EQ(out[j].event, events[j]) << j;
    EXPECT_EQ(out[j].offset, offsets[j]) << j;
    EXPECT_EQ(out[j].samples, 1u) << j;
    EXPECT_EQ(out[j].weight, weights[j]) << j;
  }
  EXPECT_EQ(lanes[0].uniforms_used(), 6u);

  // a = 8, 64, 1024, 112, 8. bytes = W a / k, count = W / k; registers per
  // observation: bytes, its variance estimate (T a / k)^2, count, (T / k)^2.
  std::vector<double> w(20);
  make_tcmalloc({{"rate", 100u}})->weigh(trace, out, w);
  const double bytes[] = {800, 149.0 * 64 / 51, 1100.0 * 1024 / 1001, 112, 140};
  const double counts[] = {100, 149.0 / 51, 1100.0 / 1001, 1, 17.5};
  for (std::size_t j = 0; j < 5; ++j) {
    const double k = static_cast<double>(trace.requested[out[j].event] + 1);
    const double a = static_cast<double>(tcmalloc_allocated_size(trace.requested[out[j].event]));
    EXPECT_DOUBLE_EQ(w[4 * j], bytes[j]) << j;
    EXPECT_DOUBLE_EQ(w[4 * j + 1], 100.0 * 100 * a * a / (k * k)) << j;
    EXPECT_DOUBLE_EQ(w[4 * j + 2], counts[j]) << j;
    EXPECT_DOUBLE_EQ(w[4 * j + 3], 100.0 * 100 / (k * k)) << j;
  }
  // Rounded as AddTrace: 186.98 -> 187 bytes -> (187 + 32) / 64 = 3 objects = 192 bytes;
  // 1125.27 -> 1125 -> (1125 + 512) / 1024 = 1; 140 -> (140 + 4) / 8 = 18 objects.
  make_tcmalloc({{"rate", 100u}, {"round_counts", true}})->weigh(trace, out, w);
  const double rounded_counts[] = {100, 3, 1, 1, 18};
  for (std::size_t j = 0; j < 5; ++j) {
    EXPECT_EQ(w[4 * j + 2], rounded_counts[j]) << j;
    EXPECT_EQ(w[4 * j],
              rounded_counts[j] * static_cast<double>(tcmalloc_allocated_size(trace.requested[out[j].event])));
  }
  // Without the size correction the bytes are W itself (count unchanged) and the
  // variance estimate (T k / k)^2 = T^2.
  make_tcmalloc({{"rate", 100u}, {"size_correction", false}})->weigh(trace, out, w);
  for (std::size_t j = 0; j < 5; ++j) {
    EXPECT_DOUBLE_EQ(w[4 * j], weights[j]) << j;
    EXPECT_DOUBLE_EQ(w[4 * j + 1], 100.0 * 100) << j;
    EXPECT_DOUBLE_EQ(w[4 * j + 2], counts[j]) << j;
  }
  EXPECT_THROW(make_tcmalloc({{"size_correction", false}, {"round_counts", true}}), InputError);
}

TEST(TcmallocSampler, FaithfulDrawsComeFromTheSeededLcg) {
  // One raw word seeds the thread's LCG; its first interval is 693 (see above), so the
  // counter is 692: a 691-byte request (k = 692) passes, a 0-byte one is sampled.
  const Trace trace = make_trace({691, 0});
  std::vector<ScriptedStream> lanes = {ScriptedStream({}, {0x9a0aa438485ULL})};
  TcmallocSampler sampler(1000, true);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].event, 1u);
  EXPECT_EQ(out[0].offset, 0u);
  EXPECT_EQ(out[0].weight, 1000);
  EXPECT_EQ(lanes[0].words_used(), 1u);
  EXPECT_EQ(lanes[0].uniforms_used(), 0u);
}

TEST(TcmallocSampler, PeriodOneSamplesEverythingAndHugeSizesDoNotOverflow) {
  const std::uint64_t two48 = std::uint64_t{1} << 48;
  const Trace trace = make_trace({0, 17, two48 - 1});
  std::vector<ScriptedStream> none = {ScriptedStream({})};
  TcmallocSampler every(1, false);
  std::vector<Observation> out;
  every.replay(trace, std::span<ScriptedStream>(none), out);
  ASSERT_EQ(out.size(), 3u);
  std::vector<double> w(12);
  make_tcmalloc({{"rate", 1u}})->weigh(trace, out, w);
  // W = k: bytes a, count 1, both without variance.
  const double expected[] = {8, 0, 1, 0, 32, 0, 1, 0, std::ldexp(1.0, 48), 0, 1, 0};
  for (std::size_t j = 0; j < 12; ++j) EXPECT_DOUBLE_EQ(w[j], expected[j]) << j;

  // T = 100: counter 999 lands inside the 2^48-byte extent at offset 999;
  // W = 100 + 2^48 - 1000, exact in a double; a = k so bytes = W.
  const Trace huge = make_trace({two48 - 1});
  std::vector<ScriptedStream> lanes = {ScriptedStream({uniform_for_interval(1000, 100), 0.5})};
  TcmallocSampler sampler(100, false);
  out.clear();
  sampler.replay(huge, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].offset, 999u);
  EXPECT_EQ(out[0].weight, std::ldexp(1.0, 48) - 900);
  w.assign(4, 0.0);  // one observation's registers
  make_tcmalloc({{"rate", 100u}})->weigh(huge, out, w);
  EXPECT_EQ(w[0], std::ldexp(1.0, 48) - 900);
  EXPECT_THROW(make_tcmalloc({{"rate", 0u}}), InputError);
  EXPECT_THROW(make_tcmalloc({{"faithful", "yes"}}), InputError);
}

TEST(TcmallocScheme, CatalogueListsDefaultsSourceAndVariants) {
  const nlohmann::json entry = catalogue_entry("tcmalloc");
  EXPECT_EQ(parameter_default(entry, "rate"), 2097152);
  EXPECT_EQ(parameter_default(entry, "faithful"), true);
  EXPECT_EQ(parameter_default(entry, "round_counts"), false);
  EXPECT_NE(entry["source"].get<std::string>().find("docs/sampling.md"), std::string::npos);
  EXPECT_GE(entry["variants"].size(), 3u);
}

// Mixed sizes on 3 threads; T = 4096 keeps the integer-gap effects (O(1/T) relative,
// ~1e-4) far below the Monte Carlo error. Every row with theory (continuous model:
// unbiased, Var = sum (a/k)^2 T^2 (1 - e^(-k/T)); rounded counts: exact moments) must
// agree within 5 se (helper; false alarm ~5.7e-7 per comparison). The rounded count
// of a group of a few large allocations hardly ever changes value, so its variance
// is only checked on groups that mix sizes (total, stack).
std::string mixed_scenario(const std::string& scheme, const std::string& groups) {
  return R"({"name": "t", "seed": 3003, "replications": 3000,
    "trace": {"allocations": 3000, "threads": 3,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.05, "distribution": "constant", "size": 0},
        {"weight": 0.75, "distribution": "log_uniform", "min": 1, "max": 512},
        {"weight": 0.2, "distribution": "lognormal", "median": 4096, "sigma": 1.0, "max": 65536}]},
      "stacks": {"rule": "random", "count": 4},
      "lifetime": {"distribution": "exponential", "mean": 500}},
    "schemes": [)" +
         scheme + R"(], "groups": )" + groups + R"(, "windows": ["allocated", "live_at_end"]})";
}

TEST(TcmallocScheme, UnbiasedOnMixedSizes) {
  const auto result = run_scenario_text(mixed_scenario(R"({"scheme": "tcmalloc", "rate": 4096},
                        {"scheme": "tcmalloc", "rate": 4096, "faithful": false, "label": "ideal"})",
                                                       R"(["total", "stack", "size_bucket"])"),
                                        2);
  EXPECT_GT(expect_rows_match_theory(result, "tcmalloc"), 20);
  EXPECT_GT(expect_rows_match_theory(result, "ideal"), 20);
  EXPECT_EQ(*find_row(result, "tcmalloc", "bytes").theory.bias, 0.0);
  const auto rounded = run_scenario_text(
      mixed_scenario(R"({"scheme": "tcmalloc", "rate": 4096, "round_counts": true})", R"(["total", "stack"])"), 2);
  EXPECT_GT(expect_rows_match_theory(rounded, "tcmalloc"), 10);
}

// docs/sampling.md, 'Requested memory size versus actual allocation size': without
// the a/(r+1) factor the estimate has mean (r+1) per allocation, not a. 1-byte
// requests (a = 8): relative bias 2/8 - 1 = -75%; measured within 5 se of theory.
TEST(TcmallocScheme, UncorrectedWeightsBiasedByCountedOverAllocated) {
  const auto result = run_scenario_text(R"({"name": "t", "seed": 9, "replications": 2000,
    "trace": {"allocations": 20000, "sizes": {"distribution": "constant", "size": 1}},
    "schemes": [{"scheme": "tcmalloc", "rate": 4096, "size_correction": false}]})",
                                        2);
  const Metrics& m = find_row(result, "tcmalloc", "bytes");
  EXPECT_DOUBLE_EQ(*m.theory.bias / m.truth, -0.75);
  EXPECT_TRUE(testing::within_sigmas(m.bias, *m.theory.bias, std::sqrt(*m.theory.var / 2000)));
  EXPECT_TRUE(testing::within_sigmas(m.var, *m.theory.var, m.se_var));
}

// docs/sampling.md: Var[sum W] lies between T^2 - T (one allocation k >> T) and T M
// (all k << T). With requests r = a - 1 the byte estimate is sum W exactly (a = k).
TEST(TcmallocScheme, VarianceBetweenTheDocumentsBounds) {
  const double T = 4096;
  // 20000 requests of 15 bytes (k = a = 16): M = 320000, theory 20000 T^2 (1 - e^(-16/T)).
  const auto small = run_scenario_text(R"({"name": "t", "seed": 5, "replications": 4000,
    "trace": {"allocations": 20000, "sizes": {"distribution": "constant", "size": 15}},
    "schemes": [{"scheme": "tcmalloc", "rate": 4096}]})",
                                       2);
  const Metrics& s = find_row(small, "tcmalloc", "bytes");
  const double M = 320000;
  EXPECT_EQ(s.truth, M);
  EXPECT_NEAR(*s.theory.var, 20000 * T * T * -std::expm1(-16 / T), 1e-9 * T * M);
  EXPECT_LE(*s.theory.var, T * M);
  EXPECT_GE(*s.theory.var, 0.99 * T * M);
  EXPECT_TRUE(testing::within_sigmas(s.var, *s.theory.var, s.se_var));
  // One request of 8 MiB - 1 (k = a = 8 MiB = 2048 T): W = T + k - f with f ~ the
  // gap's first point, Var ~ T^2 - T (geometric) vs T^2 (continuous): measured
  // within 5 se_var of both (they differ by 1/T relative, se_var ~ 2 %).
  const auto huge = run_scenario_text(R"({"name": "t", "seed": 6, "replications": 20000,
    "trace": {"allocations": 1, "sizes": {"distribution": "constant", "size": 8388607}},
    "schemes": [{"scheme": "tcmalloc", "rate": 4096}]})",
                                      2);
  const Metrics& h = find_row(huge, "tcmalloc", "bytes");
  EXPECT_DOUBLE_EQ(*h.theory.var, T * T);
  EXPECT_TRUE(testing::within_sigmas(h.var, T * T - T, h.se_var));
  EXPECT_TRUE(testing::within_sigmas(h.bias, 0.0, std::sqrt(T * T / 20000)));
}

// tcmalloc stack_trace_table.cc AddTrace (fce3f55): with the profile's per-sample rounding, E[count] per
// allocation is 1 - e^-(1 + k/(2T)) for k >= 2T: -13.5 % at k = 2T; at k = T it is
// (1 - e^-1) + (1 - e^-1/2) = 1.0256. The exact integer-gap theory reproduces these
// and the measurement agrees within 5 se; unrounded estimates stay unbiased.
TEST(TcmallocScheme, RoundedCountsBiasAsDerived) {
  const double T = 2097152;
  for (auto [request, derived] :
       {std::pair{4194303, -std::exp(-2.0)}, std::pair{2097151, -std::expm1(-1.0) - std::expm1(-0.5) - 1}}) {
    const std::string json = R"({"name": "t", "seed": 8, "replications": 2000,
      "trace": {"allocations": 1000, "sizes": {"distribution": "constant", "size": )" +
                             std::to_string(request) + R"(}},
      "schemes": [{"scheme": "tcmalloc", "round_counts": true},
                  {"scheme": "tcmalloc", "label": "unrounded"}]})";
    const auto result = run_scenario_text(json, 2);
    const Metrics& m = find_row(result, "tcmalloc", "count");
    EXPECT_NEAR(*m.theory.bias / m.truth, derived, 2 / T) << request;
    EXPECT_TRUE(testing::within_sigmas(m.bias, *m.theory.bias, std::sqrt(*m.theory.var / 2000))) << request;
    const Metrics& bytes = find_row(result, "tcmalloc", "bytes");
    EXPECT_NEAR(bytes.rel_bias, m.rel_bias, 1e-12) << request;  // bytes = count * a, a = k
    const Metrics& u = find_row(result, "unrounded", "count");
    EXPECT_TRUE(testing::within_sigmas(u.bias, 0.0, std::sqrt(*u.theory.var / 2000))) << request;
  }
}

}  // namespace
}  // namespace allocsim
