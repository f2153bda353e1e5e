// Synthetic traces from JSON: group rules, threads, lifetimes, allocated sizes,
// determinism and error messages. Statistical checks use fixed seeds and 5-sigma
// bounds from the exact binomial or Poisson-binomial variance (false alarm 5.7e-7
// per check by the CLT).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "allocsim/trace/synthetic.h"
#include "allocsim/util/error.h"
#include "testing/statistical_assertions.h"
#include "testing/statistical_bounds.h"
#include "testing/traces.h"

namespace allocsim {
namespace {

SyntheticSpec parse_spec(const std::string& text) {
  const nlohmann::json json = nlohmann::json::parse(text);
  JsonObject object(json, "$.trace");
  object.maybe("kind");  // read by the caller, as a scenario does
  return parse_synthetic_spec(object);
}

Trace generate(const std::string& text, std::uint64_t seed = 1) {
  Trace trace = generate_synthetic(parse_spec(text), seed);
  trace.validate("synthetic trace");
  return trace;
}

template <class Ids>
std::size_t count_equal(const Ids& ids, std::uint32_t id) {
  std::size_t count = 0;
  for (const std::uint32_t x : ids) count += (x == id);
  return count;
}

std::size_t live_count(const Trace& trace) {
  std::size_t live = 0;
  for (std::size_t i = 0; i < trace.size(); ++i) live += trace.live_at_end(i);
  return live;
}

void expect_count_near(std::size_t count, std::size_t n, double p) {
  EXPECT_TRUE(testing::within_sigmas(static_cast<double>(count), n * p, std::sqrt(n * p * (1 - p))))
      << "5-sigma binomial bound, p = " << p;
}

// Event i of n is live at the end iff its lifetime L >= n - i, so the live count
// is a sum of independent Bernoulli(P(L >= k)), k = 1..n: mean sum p, variance
// sum p (1 - p).
template <class Tail>
void expect_live_count_near(const Trace& trace, Tail tail) {
  double mean = 0, variance = 0;
  for (std::size_t k = 1; k <= trace.size(); ++k) {
    const double p = tail(k);
    mean += p;
    variance += p * (1 - p);
  }
  EXPECT_TRUE(testing::within_sigmas(static_cast<double>(live_count(trace)), mean, std::sqrt(variance)))
      << "5-sigma bound on the live-at-end count";
}

TEST(SyntheticTrace, MemrayLoopGivesEachSiteItsOwnStack) {
  const Trace trace = generate(R"({"kind": "synthetic", "allocations": 1000,
      "sizes": {"distribution": "sequence", "sizes": [20, 80]},
      "stacks": {"rule": "component"}, "types": {"rule": "by_size"}})");
  ASSERT_EQ(trace.size(), 1000u);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    ASSERT_EQ(trace.requested[i], i % 2 == 0 ? 20u : 80u);
    ASSERT_EQ(trace.stack[i], i % 2);
    ASSERT_EQ(trace.type[i], i % 2);
    ASSERT_EQ(trace.thread[i], 0u);
    ASSERT_EQ(trace.time[i], i);
  }
  EXPECT_EQ(trace.stack_count, 2u);
  EXPECT_EQ(trace.stack_names, (std::vector<std::string>{"component-0", "component-1"}));
  EXPECT_EQ(trace.type_names, (std::vector<std::string>{"size=20", "size=80"}));
  EXPECT_EQ(trace.thread_count, 1u);
  EXPECT_EQ(live_count(trace), 1000u) << "the default lifetime is forever";
  EXPECT_FALSE(trace.has_allocated_sizes());
}

// A sequence of lifetimes cycles by the allocation's index in the whole trace, across
// the pieces a long trace is generated in: allocation k lives 1, forever, 3, 1, ...
// ticks, and a free past the last event leaves it live.
TEST(SyntheticTrace, SequenceLifetimesCycleByAllocation) {
  const std::uint64_t n = 300001;
  const Trace trace = generate(R"({"allocations": 300001, "sizes": {"distribution": "constant", "size": 8},
      "lifetime": {"distribution": "sequence", "lifetimes": [1, "forever", 3]}})");
  ASSERT_EQ(trace.size(), n);
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t ticks = k % 3 == 0 ? 1 : k % 3 == 1 ? kNeverFreed : 3;
    const std::uint64_t expected = ticks == kNeverFreed || k + ticks > n - 1 ? kNeverFreed : k + ticks;
    ASSERT_EQ(trace.free_time[k], expected) << k;
  }
}

// The aspects (sizes, threads, lifetimes, then stacks and types) each draw from their
// own stream, and each chunk of 4096 events of an aspect from its own part of it,
// so drawing them at the same time gives the very same trace. 100 000 events: past
// the size from which the aspects run in parallel, 25 chunks; every aspect is
// random, and types follow the mixture's components.
TEST(SyntheticTrace, AspectsDrawnInParallelGiveTheSameTrace) {
  const SyntheticSpec spec = parse_spec(R"({"allocations": 100000, "threads": 6, "thread_assignment": "random",
      "sizes": {"distribution": "mixture", "components": [
          {"weight": 3, "distribution": "lognormal", "median": 55, "sigma": 1.5},
          {"weight": 1, "distribution": "uniform", "min": 4096, "max": 65536}]},
      "stacks": {"rule": "random", "count": 300}, "types": {"rule": "component"},
      "lifetime": {"distribution": "exponential", "mean": 5000},
      "allocated": {"rounding": "align", "alignment": 16}})");
  const Trace serial = generate_synthetic(spec, 7, "$.trace", 1);
  for (unsigned threads : {2u, 3u, 8u})
    testing::expect_same_trace(serial, generate_synthetic(spec, 7, "$.trace", threads));
}

// A sequence inside a mixture goes on where it stopped, across chunks and on any
// number of threads: the events that chose it take its sizes in turn.
TEST(SyntheticTrace, SequenceInAMixtureContinuesAcrossChunks) {
  const SyntheticSpec spec = parse_spec(R"({"allocations": 50000,
      "sizes": {"distribution": "mixture", "components": [
          {"weight": 1, "distribution": "sequence", "sizes": [10, 20, 30, 40, 50, 60, 70]},
          {"weight": 1, "distribution": "lognormal", "median": 1000, "sigma": 1}]},
      "types": {"rule": "component"}})");
  const Trace serial = generate_synthetic(spec, 3, "$.trace", 1);
  std::uint64_t expected = 10, turns = 0;
  for (std::size_t i = 0; i < serial.size(); ++i) {
    if (serial.type[i] != 0) continue;
    ASSERT_EQ(serial.requested[i], expected) << "event " << i;
    expected = expected == 70 ? 10 : expected + 10;
    ++turns;
  }
  // turns ~ Binomial(50000, 1/2): mean 25000, sd 112; 20000 lies 45 sd below.
  EXPECT_GT(turns, 20000u) << "about half of 50000 events choose the sequence";
  for (unsigned threads : {2u, 5u}) testing::expect_same_trace(serial, generate_synthetic(spec, 3, "$.trace", threads));
}

// Chunk c of an aspect draws from its own part of the stream whatever the length
// of the trace, so a longer trace starts with the shorter one's events.
TEST(SyntheticTrace, ALongerTraceStartsWithTheShorterOne) {
  const std::string rest = R"(, "threads": 5, "thread_assignment": "random",
      "sizes": {"distribution": "log_uniform", "min": 1, "max": 100000}, "stacks": {"rule": "random", "count": 9}})";
  const Trace shorter = generate(R"({"allocations": 9000)" + rest);
  const Trace longer = generate(R"({"allocations": 40000)" + rest);
  for (std::size_t i = 0; i < shorter.size(); ++i) {
    ASSERT_EQ(shorter.requested[i], longer.requested[i]) << "event " << i;
    ASSERT_EQ(shorter.thread[i], longer.thread[i]) << "event " << i;
    ASSERT_EQ(shorter.stack_names[shorter.stack[i]], longer.stack_names[longer.stack[i]]) << "event " << i;
  }
}

TEST(SyntheticTrace, ComponentRuleFollowsMixtureComponents) {
  const Trace trace = generate(R"({"allocations": 2000,
      "sizes": {"distribution": "mixture", "components": [
          {"weight": 1, "distribution": "constant", "size": 20},
          {"weight": 1, "distribution": "constant", "size": 80}]},
      "types": {"rule": "component"}})");
  for (std::size_t i = 0; i < trace.size(); ++i) {
    ASSERT_EQ(trace.requested[i], trace.type[i] == 0 ? 20u : 80u);
  }
  EXPECT_EQ(trace.stack_count, 1u);
  EXPECT_EQ(trace.stack_names, std::vector<std::string>{"stack-0"});
}

TEST(SyntheticTrace, SizeBucketsAreDenseAndNamedByRange) {
  const Trace trace = generate(R"({"allocations": 7,
      "sizes": {"distribution": "sequence", "sizes": [0, 1, 100, 64, 127, 128, 281474976710656]},
      "stacks": {"rule": "size_bucket"}})");
  EXPECT_EQ(trace.stack, (std::vector<std::uint32_t>{0, 1, 2, 2, 2, 3, 4}));
  EXPECT_EQ(trace.stack_names,
            (std::vector<std::string>{"[0,1)", "[1,2)", "[64,128)", "[128,256)", "[281474976710656,562949953421312)"}));
  EXPECT_EQ(trace.stack_count, 5u);
}

TEST(SyntheticTrace, BySizeNumbersDistinctSizesInIncreasingOrder) {
  const Trace trace = generate(R"({"allocations": 5,
      "sizes": {"distribution": "sequence", "sizes": [80, 20, 80, 4096, 20]},
      "stacks": {"rule": "by_size"}})");
  EXPECT_EQ(trace.stack, (std::vector<std::uint32_t>{1, 0, 1, 2, 0}));
  EXPECT_EQ(trace.stack_names, (std::vector<std::string>{"size=20", "size=80", "size=4096"}));
}

TEST(SyntheticTrace, BySizeStaysOrderedWithManyDistinctSizes) {
  // More distinct sizes than the hash map takes (2^18), so ids come from sorting;
  // 300 000 sizes below 2^42 stay under the 2^62-byte limit of a trace.
  const Trace trace = generate(R"({"allocations": 300000,
      "sizes": {"distribution": "uniform", "min": 1, "max": 4398046511104},
      "stacks": {"rule": "by_size"}})");
  EXPECT_GT(trace.stack_count, 262144u);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    ASSERT_EQ(trace.stack_names[trace.stack[i]], "size=" + std::to_string(trace.requested[i]));
  }
  for (std::uint32_t id = 1; id < trace.stack_count; ++id) {
    ASSERT_LT(std::stoull(trace.stack_names[id - 1].substr(5)), std::stoull(trace.stack_names[id].substr(5)));
  }
}

TEST(SyntheticTrace, RoundRobinCyclesAndDropsUnusedIds) {
  const Trace cycled = generate(R"({"allocations": 7, "sizes": {"distribution": "constant",
      "size": 8}, "stacks": {"rule": "round_robin", "count": 3}})");
  EXPECT_EQ(cycled.stack, (std::vector<std::uint32_t>{0, 1, 2, 0, 1, 2, 0}));
  EXPECT_EQ(cycled.stack_names, (std::vector<std::string>{"stack-0", "stack-1", "stack-2"}));

  const Trace short_trace = generate(R"({"allocations": 4, "sizes": {"distribution": "constant",
      "size": 8}, "types": {"rule": "round_robin", "count": 10}})");
  EXPECT_EQ(short_trace.type_count, 4u);
  EXPECT_EQ(short_trace.type_names.back(), "type-3");
}

TEST(SyntheticTrace, RandomIdsAreCompactedAndKeepTheirRawNames) {
  const Trace trace = generate(R"({"allocations": 20, "sizes": {"distribution": "constant",
      "size": 8}, "stacks": {"rule": "random", "count": 1000000}})");
  ASSERT_EQ(trace.stack_names.size(), trace.stack_count);
  for (std::uint32_t id = 0; id < trace.stack_count; ++id) {
    EXPECT_GT(count_equal(trace.stack, id), 0u) << "id " << id << " is unused";
    if (id > 0) {
      const auto raw = [&](std::uint32_t k) { return std::stoul(trace.stack_names[k].substr(6)); };
      EXPECT_LT(raw(id - 1), raw(id)) << "dense ids keep the raw order";
    }
  }
}

TEST(SyntheticTrace, ZipfFavoursLowIds) {
  const std::size_t n = 100'000;
  const Trace trace = generate(R"({"allocations": 100000, "sizes": {"distribution": "constant",
      "size": 8}, "types": {"rule": "random", "count": 100, "zipf": 1.2}})");
  // P(raw id k) = (k + 1)^-1.2 / sum_{j=1}^{100} j^-1.2; raw ids 0 and 1 are
  // certainly used, so they are dense ids 0 and 1.
  double harmonic = 0;
  for (int j = 1; j <= 100; ++j) harmonic += std::pow(j, -1.2);
  ASSERT_EQ(trace.type_names[0], "type-0");
  ASSERT_EQ(trace.type_names[1], "type-1");
  expect_count_near(count_equal(trace.type, 0), n, 1 / harmonic);
  expect_count_near(count_equal(trace.type, 1), n, std::pow(2, -1.2) / harmonic);
}

TEST(SyntheticTrace, UniformRandomStacksAreEquallyLikely) {
  const Trace trace = generate(R"({"allocations": 40000, "sizes": {"distribution": "constant",
      "size": 8}, "stacks": {"rule": "random", "count": 4, "zipf": 0}})");
  for (std::uint32_t id = 0; id < 4; ++id) expect_count_near(count_equal(trace.stack, id), 40000, 0.25);
}

TEST(SyntheticTrace, ThreadAssignments) {
  const std::string sizes = R"("sizes": {"distribution": "constant", "size": 8})";
  const Trace round_robin = generate(R"({"allocations": 7, "threads": 3, )" + sizes + "}");
  EXPECT_EQ(round_robin.thread, (std::vector<std::uint32_t>{0, 1, 2, 0, 1, 2, 0}));
  EXPECT_EQ(round_robin.thread_count, 3u);

  const Trace blocks = generate(R"({"allocations": 10, "threads": 3, "thread_assignment": "blocks", )" + sizes + "}");
  EXPECT_EQ(blocks.thread, (std::vector<std::uint32_t>{0, 0, 0, 0, 1, 1, 1, 2, 2, 2}));

  const Trace random =
      generate(R"({"allocations": 40000, "threads": 4, "thread_assignment": "random", )" + sizes + "}");
  for (std::uint32_t t = 0; t < 4; ++t) expect_count_near(count_equal(random.thread, t), 40000, 0.25);

  const Trace idle = generate(R"({"allocations": 2, "threads": 5, )" + sizes + "}");
  EXPECT_EQ(idle.thread_count, 5u) << "thread_count is the requested number of threads";
}

TEST(SyntheticTrace, ConstantLifetimeFreesExactlyThatLater) {
  const Trace trace = generate(R"({"allocations": 100, "sizes": {"distribution": "constant",
      "size": 8}, "lifetime": {"distribution": "constant", "allocations": 30}})");
  for (std::size_t i = 0; i < 100; ++i) {
    // The last event is at time 99, so frees after it never happen.
    ASSERT_EQ(trace.free_time[i], i + 30 <= 99 ? i + 30 : kNeverFreed) << "event " << i;
  }
  EXPECT_EQ(live_count(trace), 30u);

  const Trace instant = generate(R"({"allocations": 10, "sizes": {"distribution": "constant",
      "size": 8}, "lifetime": {"distribution": "constant", "allocations": 0}})");
  EXPECT_EQ(instant.free_time, instant.time);
}

TEST(SyntheticTrace, ExponentialLifetimeGivesTheDerivedLiveCount) {
  const double mean = 1000;
  const Trace trace = generate(R"({"allocations": 100000, "sizes": {"distribution": "constant",
      "size": 8}, "lifetime": {"distribution": "exponential", "mean": 1000}})");
  // L = round(X), X ~ Exp(mean): P(L >= k) = P(X >= k - 1/2) = exp(-(k - 1/2) / mean),
  // so about mean of the events are live at the end.
  expect_live_count_near(trace, [&](std::size_t k) { return std::exp(-(k - 0.5) / mean); });
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (!trace.live_at_end(i)) {
      ASSERT_LE(trace.free_time[i], trace.time.back());
    }
  }
}

TEST(SyntheticTrace, UniformLifetimeGivesTheDerivedLiveCount) {
  const Trace trace = generate(R"({"allocations": 100000, "sizes": {"distribution": "constant",
      "size": 8}, "lifetime": {"distribution": "uniform", "min": 10, "max": 109}})");
  // P(L >= k) = 1 for k <= 10, (110 - k) / 100 up to 109, then 0: 59.5 live on average.
  expect_live_count_near(trace, [](std::size_t k) { return k <= 10 ? 1.0 : k <= 109 ? (110.0 - k) / 100 : 0.0; });
}

TEST(SyntheticTrace, AllocatedSizeRounding) {
  const std::string sizes = R"("sizes": {"distribution": "sequence", "sizes": [0, 1, 16, 17, 100]})";
  const Trace aligned =
      generate(R"({"allocations": 5, "allocated": {"rounding": "align", "alignment": 16}, )" + sizes + "}");
  EXPECT_EQ(aligned.allocated, (std::vector<std::uint64_t>{0, 16, 16, 32, 112}));
  const Trace powers = generate(R"({"allocations": 5, "allocated": {"rounding": "power_of_two"}, )" + sizes + "}");
  EXPECT_EQ(powers.allocated, (std::vector<std::uint64_t>{1, 1, 16, 32, 128}));
  const Trace none = generate(R"({"allocations": 5, "allocated": {"rounding": "none"}, )" + sizes + "}");
  EXPECT_FALSE(none.has_allocated_sizes());
}

const char* const kEverything = R"({"allocations": 5000, "threads": 8,
    "thread_assignment": "random",
    "sizes": {"distribution": "mixture", "components": [
        {"weight": 2, "distribution": "lognormal", "median": 64, "sigma": 1.5},
        {"weight": 1, "distribution": "pareto", "scale": 4096, "shape": 1.2}]},
    "stacks": {"rule": "random", "count": 50, "zipf": 1},
    "types": {"rule": "size_bucket"},
    "lifetime": {"distribution": "exponential", "mean": 300},
    "allocated": {"rounding": "align", "alignment": 8}})";

void expect_same_columns(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.requested, b.requested);
  EXPECT_EQ(a.allocated, b.allocated);
  EXPECT_EQ(a.thread, b.thread);
  EXPECT_EQ(a.stack, b.stack);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.free_time, b.free_time);
  EXPECT_EQ(a.stack_names, b.stack_names);
  EXPECT_EQ(a.type_names, b.type_names);
}

TEST(SyntheticTrace, SameSpecAndSeedGiveTheSameTrace) {
  expect_same_columns(generate(kEverything, 42), generate(kEverything, 42));
  const Trace other = generate(kEverything, 43);
  const Trace trace = generate(kEverything, 42);
  EXPECT_NE(trace.requested, other.requested);
  EXPECT_NE(trace.thread, other.thread);
  EXPECT_NE(trace.stack, other.stack);
  EXPECT_NE(trace.free_time, other.free_time);
}

// check_synthetic_byte_totals draws the sizes alone and must refuse exactly what
// generation refuses. Uniform on [2^47, 2^48]: mean 2.1e14, sd 8.1e13 per draw;
// 20000 draws sum to 4.2e18 +- 1.1e16 (under 2^62 = 4.6e18 by 36 sd), 23000 to
// 4.9e18 (over by 24 sd); both could pass the limit (20000 x 2^48 = 5.6e18), so
// both are drawn. A sequence (sizes with positions): 2^48 and 16 alternating, past
// the limit from 32767 allocations on (16384 x 2^48 = 2^62, plus 16383 x 16).
TEST(SyntheticTrace, ByteTotalsFromTheSizesAloneAgreeWithGeneration) {
  const auto spec_of = [](std::uint64_t allocations, const std::string& sizes) {
    return R"({"allocations": )" + std::to_string(allocations) + R"(, "sizes": )" + sizes + "}";
  };
  const std::string uniform = R"({"distribution": "uniform", "min": 140737488355328, "max": 281474976710656})";
  const std::string sequence = R"({"distribution": "sequence", "sizes": [281474976710656, 16]})";
  for (const auto& [allocations, sizes, past] :
       {std::tuple{20000, uniform, false}, std::tuple{23000, uniform, true}, std::tuple{32766, sequence, false},
        std::tuple{32767, sequence, true}}) {
    const SyntheticSpec spec = parse_spec(spec_of(allocations, sizes));
    std::string checked, generated;
    try {
      check_synthetic_byte_totals(spec, 7, "$.trace");
    } catch (const InputError& e) {
      checked = e.what();
    }
    try {
      (void)generate_synthetic(spec, 7, "$.trace");
    } catch (const InputError& e) {
      generated = e.what();
    }
    EXPECT_EQ(checked, generated) << allocations << " " << sizes;
    EXPECT_EQ(!checked.empty(), past) << allocations << " " << sizes << ": " << checked;
  }
}

TEST(SyntheticTrace, SeedKeyOverridesTheSeedArgument) {
  const std::string with_seed = R"({"seed": 42, )" + std::string(kEverything).substr(1);
  expect_same_columns(generate(with_seed, 1), generate(kEverything, 42));
}

TEST(SyntheticTrace, EachAspectHasItsOwnRandomStream) {
  const Trace base = generate(kEverything, 7);
  std::string changed = kEverything;
  const auto replace = [&](const std::string& from, const std::string& to) {
    changed.replace(changed.find(from), from.size(), to);
  };
  replace(R"("thread_assignment": "random")", R"("thread_assignment": "blocks")");
  replace(R"("count": 50)", R"("count": 9)");
  const Trace other = generate(changed, 7);
  EXPECT_EQ(base.requested, other.requested);
  EXPECT_EQ(base.free_time, other.free_time);
  EXPECT_NE(base.thread, other.thread);
  EXPECT_NE(base.stack, other.stack);
}

// ---- Bad input: every error starts with the JSON path of the culprit ----

void expect_error(const std::string& text, const std::string& path, const std::string& words) {
  try {
    parse_spec(text);
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(words), std::string::npos) << message;
  }
}

const std::string kSizes = R"("sizes": {"distribution": "constant", "size": 8})";

std::string spec_with(const std::string& keys) { return R"({"allocations": 10, )" + kSizes + ", " + keys + "}"; }

TEST(SyntheticTrace, RejectsMissingKeys) {
  expect_error("{" + kSizes + "}", "$.trace", "missing required key \"allocations\"");
  expect_error(R"({"allocations": 10})", "$.trace", "missing required key \"sizes\"");
  expect_error(spec_with(R"("stacks": {"rule": "random"})"), "$.trace.stacks", "missing required key \"count\"");
  expect_error(spec_with(R"("allocated": {"rounding": "align"})"), "$.trace.allocated",
               "missing required key \"alignment\"");
  expect_error(spec_with(R"("lifetime": {"mean": 5})"), "$.trace.lifetime", "missing required key \"distribution\"");
}

TEST(SyntheticTrace, RejectsUnknownKeys) {
  expect_error(spec_with(R"("colour": "red")"), "$.trace.colour", "unknown key");
  expect_error(spec_with(R"("stacks": {"rule": "constant", "count": 3})"), "$.trace.stacks.count", "unknown key");
  expect_error(spec_with(R"("lifetime": {"distribution": "forever", "mean": 3})"), "$.trace.lifetime.mean",
               "unknown key");
}

TEST(SyntheticTrace, RejectsWrongTypes) {
  expect_error(R"({"allocations": "ten", )" + kSizes + "}", "$.trace.allocations", "expected a number");
  expect_error(R"({"allocations": 10, "sizes": 8})", "$.trace.sizes", "expected an object");
  expect_error(spec_with(R"("stacks": "random")"), "$.trace.stacks", "expected an object");
  expect_error(spec_with(R"("threads": 2.5)"), "$.trace.threads", "expected an integer");
}

TEST(SyntheticTrace, RejectsOutOfRangeNumbers) {
  expect_error(R"({"allocations": 0, )" + kSizes + "}", "$.trace.allocations", "must be >= 1");
  expect_error(R"({"allocations": 2000000001, )" + kSizes + "}", "$.trace.allocations", "must be <= 2000000000");
  expect_error(R"({"allocations": 10, "sizes": {"distribution": "constant", "size": -1}})", "$.trace.sizes.size",
               "must be >= 0");
  expect_error(spec_with(R"("threads": 0)"), "$.trace.threads", "must be >= 1");
  expect_error(spec_with(R"("seed": -3)"), "$.trace.seed", "must be >= 0");
  expect_error(spec_with(R"("types": {"rule": "random", "count": 100000000})"), "$.trace.types.count", "must be <=");
  expect_error(spec_with(R"("types": {"rule": "random", "count": 10, "zipf": -1})"), "$.trace.types.zipf",
               "must be >= 0");
  expect_error(spec_with(R"("lifetime": {"distribution": "exponential", "mean": 0})"), "$.trace.lifetime.mean",
               "must be > 0");
  expect_error(spec_with(R"("allocated": {"rounding": "align", "alignment": 24})"), "$.trace.allocated.alignment",
               "power of two");
}

TEST(SyntheticTrace, RejectsMinAboveMax) {
  expect_error(R"({"allocations": 10, "sizes": {"distribution": "uniform", "min": 9, "max": 3}})", "$.trace.sizes.max",
               "must be >= min (9), got 3");
  expect_error(spec_with(R"("lifetime": {"distribution": "uniform", "min": 9, "max": 3})"), "$.trace.lifetime.max",
               "must be >= min (9), got 3");
}

TEST(SyntheticTrace, RejectsUnknownNamesListingTheKnownOnes) {
  expect_error(R"({"allocations": 10, "sizes": {"distribution": "gauss"}})", "$.trace.sizes.distribution",
               "unknown distribution \"gauss\" (known: constant,");
  expect_error(spec_with(R"("stacks": {"rule": "callsite"})"), "$.trace.stacks.rule",
               "unknown rule \"callsite\" (known: constant, round_robin, random, size_bucket, "
               "component, by_size)");
  expect_error(spec_with(R"("thread_assignment": "striped")"), "$.trace.thread_assignment",
               "(known: round_robin, random, blocks)");
  expect_error(spec_with(R"("lifetime": {"distribution": "weibull"})"), "$.trace.lifetime.distribution",
               "(known: forever, exponential, constant, uniform, sequence)");
  expect_error(spec_with(R"("lifetime": {"distribution": "sequence", "lifetimes": [1, "never"]})"),
               "$.trace.lifetime.lifetimes[1]", "must be an integer >= 0 or \"forever\"");
  expect_error(spec_with(R"("allocated": {"rounding": "jemalloc"})"), "$.trace.allocated.rounding",
               "(known: none, align, power_of_two)");
}

}  // namespace
}  // namespace allocsim
