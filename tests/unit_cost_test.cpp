// The estimated cost of work units (engine/unit_cost.h): the mean size of a
// synthetic size distribution, the expected samples of a scheme, which schemes
// stream, and shards of a sweep over rates that mixes streaming and skip-ahead
// schemes spread evenly, without changing the units or the results.
//
// The mean-size checks against draws use fixed seeds and the bound
// |sample mean - mean| <= 5 s / sqrt(n) + 0.5: five standard errors (a false alarm
// has probability 5.7e-7 by the CLT) plus the half byte by which rounding to whole
// bytes (or log_uniform's floor, taken as half a byte) may move a mean.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "allocsim/engine/unit_cost.h"
#include "allocsim/engine/work_units.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/format/native_trace.h"
#include "allocsim/trace/size_mean.h"
#include "test_support.h"
#include "testing/scratch_directory.h"
#include "testing/statistical_bounds.h"

namespace allocsim {
namespace {

SizeDistribution sizes(const std::string& text) {
  const nlohmann::json json = nlohmann::json::parse(text);
  JsonObject object(json, "$.sizes");
  return parse_size_distribution(object);
}

TEST(UnitCost, MeanSizeOfExactFamilies) {
  EXPECT_DOUBLE_EQ(mean_size(sizes(R"({"distribution": "constant", "size": 96})")), 96.0);
  EXPECT_DOUBLE_EQ(mean_size(sizes(R"({"distribution": "sequence", "sizes": [8, 16, 72]})")), 32.0);
  EXPECT_DOUBLE_EQ(mean_size(sizes(R"({"distribution": "uniform", "min": 10, "max": 31})")), 20.5);
  EXPECT_DOUBLE_EQ(mean_size(sizes(R"({"distribution": "histogram", "sizes": [16, 64], "weights": [3, 1]})")), 28.0);
  // Mixture: 0.25 x 100 + 0.75 x (8 + 24) / 2.
  EXPECT_DOUBLE_EQ(mean_size(sizes(R"({"distribution": "mixture", "components": [
      {"weight": 1, "distribution": "constant", "size": 100},
      {"weight": 3, "distribution": "uniform", "min": 8, "max": 24}]})")),
                   37.0);
}

TEST(UnitCost, MeanSizeOfContinuousFamiliesMatchesDraws) {
  constexpr std::size_t n = 200'000;
  for (const char* text : {R"({"distribution": "lognormal", "median": 48, "sigma": 1})",
                           R"({"distribution": "pareto", "scale": 16, "shape": 2.5, "max": 1048576})",
                           R"({"distribution": "pareto", "scale": 16, "shape": 1, "max": 4096})",
                           R"({"distribution": "log_uniform", "min": 8, "max": 4096})"}) {
    const SizeDistribution distribution = sizes(text);
    SizeSampler sampler(distribution);
    RandomStream random(StreamKey{17, 3, 0}, 0);
    double sum = 0, squares = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double x = static_cast<double>(sampler.draw(random).size);
      sum += x;
      squares += x * x;
    }
    const double mean = sum / n, sd = std::sqrt((squares - n * mean * mean) / (n - 1));
    EXPECT_NEAR(mean, mean_size(distribution), testing::kSigmas * testing::mean_standard_error(sd * sd, n) + 0.5)
        << text;
  }
}

SchemeInstance instance(const std::string& name, const nlohmann::json& params) {
  return {name, name, testing::create_scheme(name, params), params};
}

TEST(UnitCost, ExpectedSamplesAreBytesOverTheRate) {
  const TraceEstimate trace{10'000, 10'000 * 100.0, 1};  // 10^4 events of 100 bytes
  EXPECT_DOUBLE_EQ(expected_samples(instance("poisson", {{"rate", 4096}}), trace), 1e6 / 4096);
  EXPECT_DOUBLE_EQ(expected_samples(instance("poisson", {{"rate", "1 KiB"}}), trace), 1e6 / 1024);
  EXPECT_DOUBLE_EQ(expected_samples(instance("jvm", {{"interval", 2048}}), trace), 1e6 / 2048);
  EXPECT_DOUBLE_EQ(expected_samples(instance("tcmalloc", nlohmann::json::object()), trace), 1e6 / 2097152);
  // No more samples than allocations; per-allocation takes one in N allocations.
  EXPECT_DOUBLE_EQ(expected_samples(instance("poisson", {{"rate", 1}}), trace), 10'000);
  EXPECT_DOUBLE_EQ(expected_samples(instance("per-allocation", {{"rate", 50}}), trace), 200);
  // Unknown bytes (a file trace) or no byte rate: one per event, the most.
  EXPECT_DOUBLE_EQ(expected_samples(instance("poisson", {{"rate", 4096}}), TraceEstimate{10'000, {}, 1}), 10'000);
  EXPECT_DOUBLE_EQ(expected_samples(instance("ocaml", {{"sampling_rate", 0.01}}), trace), 10'000);
}

// A native file's events and stacks come from its header; its bytes are unknown.
TEST(UnitCost, NativeFileCountsComeFromItsHeader) {
  Trace trace = testing::make_trace(std::vector<std::uint64_t>(1234, 40));
  for (std::size_t i = 0; i < trace.size(); ++i) trace.stack.mutable_data()[i] = static_cast<std::uint32_t>(i % 7);
  trace.stack_count = 7;
  const testing::ScratchDirectory dir;
  const std::string path = dir.file("counts.ast");
  write_native_trace(trace, path);
  FileTraceSpec file;
  file.path = path;
  const TraceEstimate estimate = estimate_trace({file}, {GroupKind::total, GroupKind::stack});
  std::filesystem::remove(path);
  EXPECT_EQ(estimate.events, 1234.0);
  EXPECT_FALSE(estimate.bytes.has_value());
  EXPECT_EQ(estimate.slots, 1.0 + 7.0);
  EXPECT_FALSE(read_native_trace_counts(path).has_value());  // removed: nothing to read
}

// The schemes replays_skip_ahead names as streaming are exactly those whose
// start_skip_ahead gives none (with the parameters below, on a one-thread trace).
TEST(UnitCost, StreamingSchemesAreThoseWithoutSkipAhead) {
  std::vector<std::uint64_t> requested;
  for (std::uint64_t i = 0; i < 200; ++i) requested.push_back(1 + (i * 37) % 300);
  const Trace trace = testing::make_trace(requested);
  const ThreadIndex index(trace);
  int checked = 0;
  for (const SchemeDescriptor& descriptor : scheme_registry()) {
    const nlohmann::json params =
        descriptor.name == "ocaml" ? nlohmann::json{{"sampling_rate", 0.01}} : nlohmann::json::object();
    const SchemeInstance scheme = instance(descriptor.name, params);
    EXPECT_EQ(scheme.scheme->start_skip_ahead(trace, index) != nullptr,
              replays_skip_ahead(scheme, ReplayMode::skip_ahead))
        << descriptor.name;
    EXPECT_FALSE(replays_skip_ahead(scheme, ReplayMode::streaming)) << descriptor.name;
    ++checked;
  }
  EXPECT_GE(checked, 18);
}

// Rates 4 KiB..1 MiB of two skip-ahead schemes and a streaming one, on one trace.
Scenario rate_sweep() {
  return parse_scenario(R"({
    "name": "rates", "seed": 2, "replications": 64,
    "trace": {"allocations": 20000, "sizes": {"distribution": "lognormal", "median": 256, "sigma": 1.5},
              "stacks": {"rule": "random", "count": 50}},
    "schemes": [{"scheme": "poisson", "rate": "$rate"}, {"scheme": "jemalloc", "rate": "$rate"},
                {"scheme": "per-byte", "rate": "$rate"}],
    "sweep": {"rate": [4096, 16384, 65536, 262144, 1048576]},
    "groups": ["total", "stack"]})",
                        "rates.json");
}

TEST(UnitCost, SamplesMakeLowRatesCostMore) {
  const std::vector<WorkUnit> units = plan_work_units(rate_sweep());
  // Units of (point p, scheme s) start at (3 p + s) x 2: 64 replications in blocks of 32.
  const auto cost = [&](std::size_t p, std::size_t s) { return units[(3 * p + s) * 2].cost; };
  for (std::size_t p = 0; p + 1 < 5; ++p) {
    EXPECT_GT(cost(p, 0), cost(p + 1, 0)) << p;  // poisson: fewer samples at a larger rate
    EXPECT_GT(cost(p, 2), cost(p, 0)) << p;      // per-byte streams every event
  }
  // At 4 KiB poisson's samples (about 20000 x 790 / 4096 = 3900) weigh more than
  // its fixed part: its cost falls by more than half up to 1 MiB.
  EXPECT_GT(cost(0, 0), 2 * cost(4, 0));
}

TEST(UnitCost, HeterogeneousSweepShardsAreWithinOneUnitOfAnEqualShare) {
  const std::vector<WorkUnit> units = plan_work_units(rate_sweep());
  double total = 0, largest = 0, smallest = units.front().cost;
  for (const WorkUnit& unit : units) {
    total += unit.cost;
    largest = std::max(largest, unit.cost);
    smallest = std::min(smallest, unit.cost);
  }
  EXPECT_GT(largest, 4 * smallest);  // the units are far from equal
  for (std::uint64_t N : {2u, 3u, 5u, 8u}) {
    for (std::uint64_t k = 0; k < N; ++k) {
      double cost = 0;
      for (std::size_t u : units_of_shard(units, {k, N})) cost += units[u].cost;
      EXPECT_LE(std::abs(cost - total / static_cast<double>(N)), largest) << k << "/" << N;
    }
  }
}

// The cost decides only which shard takes a unit: the units themselves are
// (point, scheme, block of replications) in that order, whatever they cost.
TEST(UnitCost, UnitListIsTheScenarioSplitInBlocks) {
  const Scenario scenario = rate_sweep();
  const std::vector<WorkUnit> units = plan_work_units(scenario);
  std::size_t u = 0;
  for (std::size_t p = 0; p < 5; ++p) {
    for (std::size_t s = 0; s < 3; ++s) {
      for (std::uint64_t k = 0; k < 2; ++k, ++u) {
        ASSERT_LT(u, units.size());
        EXPECT_EQ(units[u].point, p);
        EXPECT_EQ(units[u].scheme, s);
        EXPECT_EQ(units[u].block, k);
        EXPECT_EQ(units[u].replications, 32u);
      }
    }
  }
  EXPECT_EQ(u, units.size());
}

}  // namespace
}  // namespace allocsim
