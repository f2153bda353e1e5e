// Skip-ahead replay gives the same observations as streaming replay: it consumes
// each thread's lane in the same order and places sample points identically.
#include <gtest/gtest.h>

#include <boost/math/distributions/chi_squared.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include "allocsim/sampler/references/poisson.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/thread_index.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::make_trace;
using testing::ScriptedStream;
using testing::synthetic_trace;

// Skip-ahead appends thread by thread; compare in trace order.
bool same(std::vector<Observation> a, std::vector<Observation> b) {
  auto by_event = [](const Observation& x, const Observation& y) { return x.event < y.event; };
  std::sort(a.begin(), a.end(), by_event);
  std::sort(b.begin(), b.end(), by_event);
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].event != b[i].event || a[i].samples != b[i].samples || a[i].offset != b[i].offset) return false;
  }
  return true;
}

TEST(ThreadIndex, PrefixSumsAndGalloping) {
  const Trace trace = make_trace({5, 0, 3, 10, 0, 0, 7}, {0, 1, 0, 1, 0, 0, 1});
  const ThreadIndex index(trace);
  ASSERT_EQ(index.thread_count(), 2u);
  ASSERT_EQ(index.size(0), 4u);  // events 0, 2, 4, 5
  EXPECT_EQ(index.event(0, 1), 2u);
  std::vector<std::uint64_t> p0;
  for (std::size_t k = 0; k <= index.size(0); ++k) p0.push_back(index.requested(0).value(k));
  EXPECT_EQ(p0, (std::vector<std::uint64_t>{0, 5, 8, 8, 8}));
  // Thread 1: events 1 (0 B), 3 (10 B), 6 (7 B); prefix 0, 0, 10, 17.
  const CountedStreams streams = CountedStreams::requested(index);
  EXPECT_EQ(streams.find(1, 0, 0), 1u);  // the 0-byte event holds no byte
  EXPECT_EQ(streams.find(1, 9, 0), 1u);
  EXPECT_EQ(streams.find(1, 10, 1), 2u);
  EXPECT_EQ(streams.find(1, 16, 0), 2u);
}

// Searches that cross many coarse blocks agree with a linear scan.
TEST(ThreadIndex, FindMatchesLinearScanAcrossBlocks) {
  std::vector<std::uint64_t> sizes;
  for (int i = 0; i < 5000; ++i) sizes.push_back(static_cast<std::uint64_t>((i * 7919) % 97));
  const Trace trace = make_trace(sizes);
  const ThreadIndex index(trace);
  const CountedStreams streams = CountedStreams::requested(index);
  const CompactPrefix& prefix = index.requested(0);
  std::size_t from = 0;
  for (std::uint64_t x = 0; x < prefix.value(prefix.size()); x += 37) {
    std::size_t expected = from;
    while (prefix.value(expected + 1) <= x) ++expected;
    const std::size_t found = streams.find(0, x, from);
    ASSERT_EQ(found, expected) << x;
    from = found;
  }
}

TEST(SkipAhead, ScriptedPoissonMatchesStreaming) {
  // The mechanism test of poisson_test.cpp, replayed both ways.
  const Trace trace = make_trace({0, 30, 40, 300, 10});
  const std::vector<double> uniforms = {std::exp(-0.5), std::exp(-1.2), std::exp(-0.3), std::exp(-0.4), std::exp(-5.0)};
  std::vector<ScriptedStream> a = {ScriptedStream(uniforms)}, b = {ScriptedStream(uniforms)};
  PoissonSampler streaming(100), skipping(100);
  std::vector<Observation> out_a, out_b;
  streaming.replay(trace, std::span<ScriptedStream>(a), out_a);
  skipping.replay_skip_ahead(trace, ThreadIndex(trace), std::span<ScriptedStream>(b), out_b);
  EXPECT_TRUE(same(out_a, out_b));
  EXPECT_EQ(a[0].uniforms_used(), b[0].uniforms_used());
}

// With the real streams, every replication gives the same observations both ways,
// across threads, zero-size events, and rates from below to far above the sizes.
TEST(SkipAhead, PoissonIdenticalToStreamingOnRealStreams) {
  const Trace trace = synthetic_trace(R"({"allocations": 20000, "threads": 5, "thread_assignment": "random",
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.1, "distribution": "constant", "size": 0},
        {"weight": 0.8, "distribution": "lognormal", "median": 100, "sigma": 2},
        {"weight": 0.1, "distribution": "pareto", "scale": 10000, "shape": 1.2, "max": 100000000}]}})",
                                      7);
  const ThreadIndex index(trace);
  for (double rate : {64.0, 4096.0, 524288.0, 1e8}) {
    for (std::uint64_t r = 0; r < 8; ++r) {
      std::vector<RandomStream> a(5), b(5);
      for (std::uint32_t t = 0; t < 5; ++t) {
        a[t].reset({1, 2, r}, t);
        b[t].reset({1, 2, r}, t);
      }
      PoissonSampler streaming(rate), skipping(rate);
      std::vector<Observation> out_a, out_b;
      streaming.replay(trace, std::span<RandomStream>(a), out_a);
      skipping.replay_skip_ahead(trace, index, std::span<RandomStream>(b), out_b);
      ASSERT_TRUE(same(out_a, out_b)) << "rate " << rate << " replication " << r;
    }
  }
}

// jemalloc's streaming replay reads bare 32-bit codes when no size or thread id
// escaped and the columns otherwise (narrow_column.h read_unescaped); skip-ahead
// reads neither. A 5 GiB request and thread 70 000 make both columns escape: the
// streaming replay must still place every sample as skip-ahead does.
TEST(SkipAhead, JemallocIdenticalToStreamingWhenColumnsEscape) {
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint32_t> threads;
  for (std::uint32_t i = 0; i < 4000; ++i) {
    sizes.push_back(i % 7 == 0 ? 5000 : 48 + i % 300);
    threads.push_back(i % 3);
  }
  sizes[1000] = std::uint64_t{5} << 30;
  threads[2000] = 70000;
  const Trace trace = make_trace(sizes, threads);
  ASSERT_EQ(trace.requested.unescaped(), nullptr);
  ASSERT_EQ(trace.thread.unescaped(), nullptr);
  const ThreadIndex index(trace);
  for (double rate : {512.0, 65536.0}) {
    const auto scheme = create_scheme("jemalloc", nlohmann::json{{"rate", rate}}, "$");
    const auto streaming = scheme->start(trace);
    const auto skipping = scheme->start_skip_ahead(trace, index);
    ASSERT_TRUE(skipping);
    for (std::uint64_t r = 0; r < 4; ++r) {
      std::vector<Observation> out_a, out_b;
      streaming->replay({1, 3, r}, out_a);
      skipping->replay({1, 3, r}, out_b);
      EXPECT_FALSE(out_a.empty());
      ASSERT_TRUE(same(out_a, out_b)) << "rate " << rate << " replication " << r;
    }
  }
}

// One thread of 30 000 events: the batched search crosses the index's top-level
// segments (CompactPrefix::kTopStride events) and batches of points end inside events.
TEST(SkipAhead, PoissonIdenticalToStreamingAcrossTopSegments) {
  const Trace trace = synthetic_trace(R"({"allocations": 30000,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.05, "distribution": "constant", "size": 0},
        {"weight": 0.9, "distribution": "lognormal", "median": 55, "sigma": 1.5},
        {"weight": 0.05, "distribution": "constant", "size": 40000}]}})",
                                      11);
  const ThreadIndex index(trace);
  for (double rate : {16.0, 4096.0, 524288.0}) {
    for (std::uint64_t r = 0; r < 4; ++r) {
      std::vector<RandomStream> a(1), b(1);
      a[0].reset({5, 1, r}, 0);
      b[0].reset({5, 1, r}, 0);
      PoissonSampler streaming(rate), skipping(rate);
      std::vector<Observation> out_a, out_b;
      streaming.replay(trace, std::span<RandomStream>(a), out_a);
      skipping.replay_skip_ahead(trace, index, std::span<RandomStream>(b), out_b);
      ASSERT_TRUE(same(out_a, out_b)) << "rate " << rate << " replication " << r;
      // The streaming replay used `used` words of the lane; the skip-ahead draws its
      // logarithms 64 at a time (LogUniformBatch), so it used `used` rounded up to 64.
      RandomStream lane({5, 1, r}, 0), rounded_up({5, 1, r}, 0);
      std::uint64_t used = 0;
      for (const std::uint64_t streaming_next = a[0].next_u64(); lane.next_u64() != streaming_next;) ++used;
      for (std::uint64_t w = 0; w < (used + 63) / 64 * 64; ++w) rounded_up.next_u64();
      EXPECT_EQ(b[0].next_u64(), rounded_up.next_u64()) << "lane consumed differently";
    }
  }
}

// Two independent runs (different seeds), one streaming and one skip-ahead: the
// distribution of samples per allocation must agree. Pearson chi-square on the
// counts 0, 1, 2, >=3 (a 2 x 4 table: 3 degrees of freedom) against its 1 - 1e-6
// quantile (30.66), so a correct implementation fails with probability 1e-6.
TEST(SkipAhead, SamplesPerAllocationHaveTheSameDistribution) {
  const Trace trace = synthetic_trace(R"({"allocations": 200000, "threads": 3,
      "sizes": {"distribution": "log_uniform", "min": 1, "max": 20000}})",
                                      11);
  const ThreadIndex index(trace);
  auto histogram = [&](bool skip, std::uint64_t seed) {
    std::vector<RandomStream> lanes(3);
    for (std::uint32_t t = 0; t < 3; ++t) lanes[t].reset({seed, 0, 0}, t);
    PoissonSampler sampler(8192);
    std::vector<Observation> out;
    if (skip) {
      sampler.replay_skip_ahead(trace, index, std::span<RandomStream>(lanes), out);
    } else {
      sampler.replay(trace, std::span<RandomStream>(lanes), out);
    }
    std::array<double, 4> counts{static_cast<double>(trace.size()), 0, 0, 0};
    for (const auto& o : out) {
      counts[0] -= 1;
      counts[std::min<std::uint32_t>(o.samples, 3)] += 1;
    }
    return counts;
  };
  const auto a = histogram(false, 100), b = histogram(true, 200);
  double chi2 = 0;
  for (int c = 0; c < 4; ++c) {
    const double pooled = (a[c] + b[c]) / 2;
    if (pooled > 0) chi2 += (a[c] - pooled) * (a[c] - pooled) / pooled + (b[c] - pooled) * (b[c] - pooled) / pooled;
  }
  const boost::math::chi_squared_distribution<> three_degrees(3.0);
  EXPECT_LT(chi2, boost::math::quantile(boost::math::complement(three_degrees, 1e-6)));
  EXPECT_GT(a[1], 1000);  // the test has data in the cells it compares
}

TEST(SkipAhead, EngineResultsIdenticalInBothModes) {
  const std::string base = R"({"name": "t", "seed": 4, "replications": 300,
    "trace": {"allocations": 5000, "threads": 3, "sizes": {"distribution": "lognormal", "median": 300, "sigma": 1.5},
              "stacks": {"rule": "round_robin", "count": 7}},
    "schemes": [{"scheme": "poisson", "rate": 4096}], "groups": ["total", "stack"], "replay": ")";
  const auto streaming = testing::run_scenario_text(base + "streaming\"}", 2);
  const auto skipping = testing::run_scenario_text(base + "skip_ahead\"}", 2);
  // The same observations, summed in another order: equal to rounding.
  ASSERT_EQ(streaming.rows.size(), skipping.rows.size());
  for (std::size_t i = 0; i < streaming.rows.size(); ++i) {
    const Metrics& a = streaming.rows[i].metrics;
    const Metrics& b = skipping.rows[i].metrics;
    EXPECT_NEAR(a.mean, b.mean, 1e-12 * a.truth) << i;
    EXPECT_NEAR(a.mape, b.mape, 1e-12) << i;
    EXPECT_EQ(a.replications_with_sample, b.replications_with_sample) << i;
  }
}

}  // namespace
}  // namespace allocsim
