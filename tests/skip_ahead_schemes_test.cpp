// Skip-ahead replay of every integer countdown scheme gives exactly the streaming
// replay's observations (event, samples, offset, weight) for the same lanes, and
// consumes each lane's draws identically; the engine's metrics agree in both modes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "allocsim/sampler/families/byte_countdown.h"
#include "allocsim/sampler/references/per_allocation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/dotnet-tick/dotnet_tick.h"
#include "allocsim/sampler/systems/dotnet/dotnet.h"
#include "allocsim/sampler/systems/jemalloc/jemalloc.h"
#include "allocsim/sampler/systems/jvm/jvm.h"
#include "allocsim/sampler/systems/tcmalloc/tcmalloc.h"
#include "allocsim/trace/thread_index.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::make_trace;
using testing::synthetic_trace;

// Zero-size events, small ones, and a heavy tail up to 10^8 bytes on 5 threads.
const Trace& mixed_trace() {
  static const Trace trace = synthetic_trace(R"({"allocations": 6000, "threads": 5, "thread_assignment": "random",
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.1, "distribution": "constant", "size": 0},
        {"weight": 0.8, "distribution": "lognormal", "median": 100, "sigma": 2},
        {"weight": 0.1, "distribution": "pareto", "scale": 10000, "shape": 1.2, "max": 100000000}]}})",
                                             7);
  return trace;
}

// One thread (the index's arrays are borrowed where the counted size is the
// requested one).
const Trace& single_thread_trace() {
  static const Trace trace = synthetic_trace(R"({"allocations": 4000, "threads": 1,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.05, "distribution": "constant", "size": 0},
        {"weight": 0.9, "distribution": "log_uniform", "min": 1, "max": 5000},
        {"weight": 0.05, "distribution": "constant", "size": 3000000}]}})",
                                             3);
  return trace;
}

// One thread of 30 000 events, several of the index's top-level segments.
const Trace& long_single_thread_trace() {
  static const Trace trace = synthetic_trace(R"({"allocations": 30000,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.05, "distribution": "constant", "size": 0},
        {"weight": 0.9, "distribution": "lognormal", "median": 55, "sigma": 1.5},
        {"weight": 0.05, "distribution": "constant", "size": 40000}]}})",
                                             5);
  return trace;
}

std::shared_ptr<const Scheme> make_scheme(const std::string& name, const std::string& params) {
  return testing::create_scheme_from_text(name, params);
}

std::vector<Observation> sorted(std::vector<Observation> v) {
  std::sort(v.begin(), v.end(), [](const Observation& a, const Observation& b) { return a.event < b.event; });
  return v;
}

// Replays `replications` keys both ways and requires identical observations.
void expect_identical(const std::string& name, const std::string& params, const Trace& trace,
                      std::uint64_t replications = 4) {
  SCOPED_TRACE(name + " " + params);
  const ThreadIndex index(trace);
  const auto scheme = make_scheme(name, params);
  auto streaming = scheme->start(trace);
  auto skipping = scheme->start_skip_ahead(trace, index);
  ASSERT_NE(skipping, nullptr) << "no skip-ahead replay";
  testing::expect_same_observations(*streaming, *skipping, replications);
}

std::string with_rate(const std::string& params, const std::string& rate) {
  std::string s = params;
  s.replace(s.find("%T"), 2, rate);
  return s;
}

TEST(SkipAheadSchemes, CountedStreamsFindMatchesLinearScan) {
  const Trace& trace = mixed_trace();
  const ThreadIndex index(trace);
  for (std::uint64_t add : {0u, 1u}) {
    const CountedStreams streams = CountedStreams::requested(index, add);
    for (std::uint32_t t = 0; t < streams.stream_count(); ++t) {
      std::size_t from = 0;
      const std::uint64_t end = streams.total(t);
      for (std::uint64_t x = 0; x < end; x += 1 + end / 3000) {
        std::size_t expected = from;
        while (streams.at(t, expected + 1) <= x) ++expected;
        const std::size_t found = streams.find(t, x, from);
        ASSERT_EQ(found, expected) << "add " << add << " x " << x;
        from = found;
      }
    }
  }
  // A whole-trace stream: event k is k.
  const CountedStreams whole =
      CountedStreams::whole_trace(trace.size(), [&](std::uint64_t i) { return trace.requested[i]; });
  ASSERT_EQ(whole.stream_count(), 1u);
  EXPECT_EQ(whole.size(0), trace.size());
  EXPECT_EQ(whole.event(0, 17), 17u);
  std::uint64_t sum = 0;
  for (std::size_t k = 0; k < trace.size(); ++k) {
    ASSERT_EQ(whole.at(0, k), sum);
    if (trace.requested[k] > 0) {
      ASSERT_EQ(whole.find(0, sum + trace.requested[k] - 1, 0), k);
    }
    sum += trace.requested[k];
  }
}

// Batches of non-decreasing positions (repeats included) across the index's
// top-level segments (CompactPrefix::kTopStride events) agree with a linear scan, with and without a
// per-event addend, whatever the batch lengths.
TEST(SkipAheadSchemes, FindSortedMatchesLinearScanAcrossSegments) {
  const Trace& trace = long_single_thread_trace();
  const ThreadIndex index(trace);
  for (std::uint64_t add : {0u, 3u}) {
    const CountedStreams streams = CountedStreams::requested(index, add);
    const std::uint64_t end = streams.total(0);
    std::vector<std::uint64_t> xs;
    for (std::uint64_t x = 0, step = 1; x < end; x += step % (end / 500), step = step * 7 + 1) xs.push_back(x);
    std::vector<std::size_t> ks(xs.size());
    std::size_t from = 0;
    for (std::size_t j = 0, length = 1; j < xs.size(); j += length, length = length % 97 + 5) {
      const std::size_t m = std::min(length, xs.size() - j);
      streams.find_sorted(0, std::span<const std::uint64_t>(xs).subspan(j, m), from,
                          std::span<std::size_t>(ks).subspan(j, m));
      from = ks[j + m - 1];
    }
    std::size_t expected = 0;
    for (std::size_t j = 0; j < xs.size(); ++j) {
      while (streams.at(0, expected + 1) <= xs[j]) ++expected;
      ASSERT_EQ(ks[j], expected) << "add " << add << " x " << xs[j];
    }
    EXPECT_GT(index.size(0) / CompactPrefix::kTopStride, 4u);  // several top-level segments
  }
}

// The memory the index reports: per thread n + 1 prefix sums of 4 bytes each, and
// every kBlock-th and every kTopStride-th of them in 8 bytes (the sizes here escape no block),
// plus the per-thread event lists (4 bytes per event) when there is more than one
// thread; counted sums borrowed from the index own none.
TEST(SkipAheadSchemes, IndexBytesPerEvent) {
  auto levels = [](double n) {
    return 4 * (n + 1) +
           8 * (std::ceil((n + 1) / CompactPrefix::kBlock) + std::ceil((n + 1) / CompactPrefix::kTopStride));
  };
  const Trace& one = long_single_thread_trace();
  const ThreadIndex single(one);
  EXPECT_DOUBLE_EQ(single.bytes_per_event(), levels(30000) / 30000);
  EXPECT_EQ(CountedStreams::requested(single).owned_bytes_per_event(), 0.0);
  const auto owned = CountedStreams::per_thread(single, [&](std::uint64_t i) { return one.requested[i] + 1; });
  EXPECT_DOUBLE_EQ(owned.owned_bytes_per_event(), levels(30000) / 30000);
  const Trace& several = mixed_trace();
  const ThreadIndex threads(several);
  double bytes = 4.0 * static_cast<double>(several.size());
  for (std::uint32_t t = 0; t < threads.thread_count(); ++t) {
    ASSERT_EQ(threads.requested(t).wide_block_count(), 0u);
    bytes += levels(static_cast<double>(threads.size(t)));
  }
  EXPECT_DOUBLE_EQ(threads.bytes_per_event(), bytes / static_cast<double>(several.size()));
}

TEST(SkipAheadSchemes, ByteCountdownIdentical) {
  // (T = 1 with pass-through "none" would draw once per byte of the 10^8-byte tail.)
  expect_identical("heapprofd", R"({"rate": 1})", mixed_trace());  // everything passes through
  const char* rates[] = {"64", "4096", "524288", "100000000"};
  for (const Trace* trace : {&mixed_trace(), &single_thread_trace(), &long_single_thread_trace()}) {
    for (const char* rate : rates) {
      for (const char* passthrough : {"p99", "rate", "none"}) {
        for (const char* counter : {"process", "thread"}) {
          expect_identical("heapprofd",
                           with_rate(std::string(R"({"rate": %T, "passthrough": ")") + passthrough +
                                         R"(", "counter": ")" + counter + "\"}",
                                     rate),
                           *trace);
        }
      }
      expect_identical("memray", with_rate(R"({"rate": %T})", rate), *trace);
    }
  }
}

TEST(SkipAheadSchemes, PerAllocationIdentical) {
  for (const Trace* trace : {&mixed_trace(), &single_thread_trace()}) {
    for (const char* every : {"1", "3", "100", "10000", "100000000"}) {
      expect_identical("per-allocation", with_rate(R"({"rate": %T})", every), *trace);
    }
  }
}

TEST(SkipAheadSchemes, JemallocIdentical) {
  for (const Trace* trace : {&mixed_trace(), &single_thread_trace()}) {
    for (const char* rate : {"1", "64", "4096", "524288", "100000000"}) {
      expect_identical("jemalloc", with_rate(R"({"rate": %T})", rate), *trace);
    }
  }
}

TEST(SkipAheadSchemes, TcmallocIdentical) {
  for (const Trace* trace : {&mixed_trace(), &single_thread_trace()}) {
    for (const char* rate : {"1", "2", "64", "4096", "2097152", "100000000"}) {
      for (const char* faithful : {"true", "false"}) {
        expect_identical("tcmalloc", with_rate(std::string(R"({"rate": %T, "faithful": )") + faithful + "}", rate),
                         *trace);
      }
    }
  }
}

TEST(SkipAheadSchemes, DotnetIdentical) {
  for (const Trace* trace : {&mixed_trace(), &single_thread_trace()}) {
    // 2: the smallest rate dotnet takes (1 leaves its intervals no q = 1 - 1/T > 0).
    for (const char* rate : {"2", "64", "4096", "102400", "100000000"}) {
      for (const char* draw : {"code", "document"}) {
        for (const char* pointer : {"8", "16"}) {
          expect_identical(
              "dotnet",
              with_rate(std::string(R"({"rate": %T, "draw": ")") + draw + R"(", "pointer_size": )" + pointer + "}",
                        rate),
              *trace);
        }
      }
    }
  }
}

TEST(SkipAheadSchemes, DotnetTickIdentical) {
  for (const Trace* trace : {&mixed_trace(), &single_thread_trace()}) {
    for (const char* stride : {"1", "7", "4096", "102400", "100000000", "4611686018427387904"}) {
      for (const char* mode : {"stride", "reset"}) {
        expect_identical("dotnet-tick", with_rate(std::string(R"({"stride": %T, "mode": ")") + mode + "\"}", stride),
                         *trace, 1);
      }
    }
  }
}

// Each lane is drawn as often by both replays, the same numbers in the same order,
// except that a replay taking its draws ahead (the first-success family's
// first_success_skip_ahead) may draw up to kFirstSuccessDrawsAhead - 1 more at the
// end of a lane, which no one reads: SkipAheadRun resets its lanes before every
// replication.
template <class Stream>
class CountingStream {
 public:
  Stream inner;
  std::size_t uniforms = 0, words = 0;
  double next_uniform() {
    ++uniforms;
    return inner.next_uniform();
  }
  std::uint64_t next_u64() {
    ++words;
    return inner.next_u64();
  }
};

// jemalloc's skip-ahead sampler: its counted streams are the threads' usable sizes.
JemallocSampler jemalloc_skipping(double rate, const ThreadIndex& index, const Trace& trace) {
  return JemallocSampler(rate, std::make_shared<const CountedStreams>(JemallocSampler::usable_streams(trace, index)));
}

// The JVM's skip-ahead sampler: its counted streams are the threads' object sizes.
JvmSampler jvm_skipping(double interval, bool faithful, const ThreadIndex& index, const Trace& trace) {
  return JvmSampler(interval, faithful,
                    std::make_shared<const CountedStreams>(JvmSampler::object_streams(trace, index)));
}

template <class Sampler, class SkipSampler>
void expect_same_draws(Sampler streaming, SkipSampler skipping, const Trace& trace, std::uint64_t r,
                       std::size_t drawn_ahead = 0) {
  const ThreadIndex index(trace);
  using Lane = CountingStream<RandomStream>;
  std::vector<Lane> a(trace.thread_count), b(trace.thread_count);
  for (std::uint32_t t = 0; t < trace.thread_count; ++t) {
    a[t].inner.reset({5, 1, r}, t);
    b[t].inner.reset({5, 1, r}, t);
  }
  std::vector<Observation> out_a, out_b;
  streaming.replay(trace, std::span<Lane>(a), out_a);
  skipping.replay_skip_ahead(trace, index, std::span<Lane>(b), out_b);
  ASSERT_EQ(out_a.size(), out_b.size());
  // The same observations; the streaming replay lists them in trace order, the
  // skip-ahead one thread by thread.
  const auto key = [](const Observation& x) { return std::tuple(x.event, x.samples, x.offset, x.weight); };
  const auto by_event = [&](const Observation& x, const Observation& y) { return key(x) < key(y); };
  std::sort(out_a.begin(), out_a.end(), by_event);
  std::sort(out_b.begin(), out_b.end(), by_event);
  for (std::size_t o = 0; o < out_a.size(); ++o) EXPECT_EQ(key(out_a[o]), key(out_b[o])) << "observation " << o;
  for (std::uint32_t t = 0; t < trace.thread_count; ++t) {
    EXPECT_GE(b[t].uniforms, a[t].uniforms) << "lane " << t;
    EXPECT_LE(b[t].uniforms, a[t].uniforms + drawn_ahead) << "lane " << t;
    EXPECT_GE(b[t].words, a[t].words) << "lane " << t;
    EXPECT_LE(b[t].words, a[t].words + drawn_ahead) << "lane " << t;
  }
}

TEST(SkipAheadSchemes, LanesConsumedIdentically) {
  const Trace& trace = mixed_trace();
  const ThreadIndex index(trace);
  for (std::uint64_t r = 0; r < 3; ++r) {
    for (bool per_thread : {false, true}) {
      const std::uint64_t from = 20000;
      auto streams =
          std::make_shared<const ByteCountdownStreams>(make_byte_countdown_streams(trace, index, from, per_thread));
      expect_same_draws(ByteCountdownSampler(512, from, per_thread),
                        ByteCountdownSampler(512, from, per_thread, streams), trace, r);
    }
    constexpr std::size_t ahead = kFirstSuccessDrawsAhead - 1;
    expect_same_draws(JemallocSampler(trace, 4096), jemalloc_skipping(4096, index, trace), trace, r, ahead);
    expect_same_draws(TcmallocSampler(4096, true), TcmallocSampler(4096, true), trace, r, ahead);
    expect_same_draws(TcmallocSampler(4096, false), TcmallocSampler(4096, false), trace, r, ahead);
    expect_same_draws(
        DotnetSampler(1000, 8, false),
        DotnetSampler(1000, 8, false,
                      std::make_shared<const CountedStreams>(DotnetSampler::object_streams(trace, index, 8))),
        trace, r, ahead);
    expect_same_draws(JvmSampler(4096, false), jvm_skipping(4096, false, index, trace), trace, r, ahead);
    expect_same_draws(PerAllocationSampler(10), PerAllocationSampler(10), trace, r);
  }
}

// Waits of thousands of events (T = 512 KiB over ~200-byte allocations): the
// look-ahead replay searches its draws' lower bounds together before the exact
// searches, and must give the same observations as the streaming replay, the JVM's
// weights (read from its queue of draws) included; its faithful shared LCG on one
// thread too.
TEST(SkipAheadSchemes, LongWaitsLookingAheadMatchStreaming) {
  static const Trace trace = synthetic_trace(R"({"allocations": 400000, "threads": 3, "thread_assignment": "random",
      "sizes": {"distribution": "lognormal", "median": 55, "sigma": 1.5}})",
                                             11);
  const ThreadIndex index(trace);
  constexpr double rate = 524288;
  constexpr std::size_t ahead = kFirstSuccessDrawsAhead - 1;
  for (std::uint64_t r = 0; r < 3; ++r) {
    expect_same_draws(JemallocSampler(trace, rate), jemalloc_skipping(rate, index, trace), trace, r, ahead);
    expect_same_draws(TcmallocSampler(rate, false), TcmallocSampler(rate, false), trace, r, ahead);
    expect_same_draws(
        DotnetSampler(rate, 8, false),
        DotnetSampler(rate, 8, false,
                      std::make_shared<const CountedStreams>(DotnetSampler::object_streams(trace, index, 8))),
        trace, r, ahead);
    expect_same_draws(JvmSampler(rate, false), jvm_skipping(rate, false, index, trace), trace, r, ahead);
  }
  static const Trace one_thread = synthetic_trace(R"({"allocations": 400000,
      "sizes": {"distribution": "lognormal", "median": 55, "sigma": 1.5}})",
                                                  12);
  const ThreadIndex one_index(one_thread);
  for (std::uint64_t r = 0; r < 3; ++r) {
    expect_same_draws(JvmSampler(rate, true), jvm_skipping(rate, true, one_index, one_thread), one_thread, r, ahead);
  }
}

// Long waits ending mostly in huge allocations (0.1% of 4 MiB hold 96% of the
// bytes): each one's remainder puts the next bound hundreds of events short of its
// answer, so the look-ahead stops searching bounds for a while and walks from the
// last sampled event, then searches again; the observations stay the streaming's.
TEST(SkipAheadSchemes, DriftingBoundsMatchStreaming) {
  static const Trace trace = synthetic_trace(R"({"allocations": 400000, "threads": 2, "thread_assignment": "random",
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.999, "distribution": "lognormal", "median": 55, "sigma": 1.5},
        {"weight": 0.001, "distribution": "constant", "size": 4194304}]}})",
                                             13);
  const ThreadIndex index(trace);
  constexpr double rate = 1048576;
  constexpr std::size_t ahead = kFirstSuccessDrawsAhead - 1;
  for (std::uint64_t r = 0; r < 2; ++r) {
    expect_same_draws(JemallocSampler(trace, rate), jemalloc_skipping(rate, index, trace), trace, r, ahead);
    expect_same_draws(JvmSampler(rate, false), jvm_skipping(rate, false, index, trace), trace, r, ahead);
  }
}

// Scripted trace: pass-through events (never touching the process-wide counter),
// zero-size events and a carry over several events, checked by hand.
TEST(SkipAheadSchemes, ScriptedProcessCounterWithPassThrough) {
  const Trace trace = make_trace({0, 30, 500, 40, 0, 300, 10}, {0, 1, 0, 1, 1, 0, 1});
  const ThreadIndex index(trace);
  // Counted stream (pass-through at >= 400: event 2 counts 0): 0, 30, 0, 40, 0, 300, 10.
  // Gaps (floor(Exp(100)) + 1 with u = e^(-g/100)): 50, 250, 20, 1000.
  auto u = [](double g) { return std::exp(-(g - 0.5) / 100.0); };
  const std::vector<double> uniforms = {u(50), u(250), u(20), u(1000)};
  std::vector<testing::ScriptedStream> a = {testing::ScriptedStream(uniforms), testing::ScriptedStream({})};
  std::vector<testing::ScriptedStream> b = a;
  ByteCountdownSampler streaming(100, 400, false);
  ByteCountdownSampler skipping(
      100, 400, false,
      std::make_shared<const ByteCountdownStreams>(make_byte_countdown_streams(trace, index, 400, false)));
  std::vector<Observation> out_a, out_b;
  streaming.replay(trace, std::span<testing::ScriptedStream>(a), out_a);
  skipping.replay_skip_ahead(trace, index, std::span<testing::ScriptedStream>(b), out_b);
  // Points at 1-based positions 50 (event 3, offset 19), 300 and 320 (event 5,
  // offsets 229 and 249), then 1320 (beyond the 380 counted bytes).
  const std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint64_t, double>> expected = {
      {2, 1, 0, 500.0}, {3, 1, 19, 100.0}, {5, 2, 229, 200.0}};
  for (auto* out : {&out_a, &out_b}) {
    const auto s = sorted(*out);
    ASSERT_EQ(s.size(), expected.size());
    for (std::size_t o = 0; o < s.size(); ++o) {
      EXPECT_EQ(s[o].event, std::get<0>(expected[o]));
      EXPECT_EQ(s[o].samples, std::get<1>(expected[o]));
      EXPECT_EQ(s[o].offset, std::get<2>(expected[o]));
      EXPECT_EQ(s[o].weight, std::get<3>(expected[o]));
    }
  }
  EXPECT_EQ(a[0].uniforms_used(), 4u);
  EXPECT_EQ(b[0].uniforms_used(), 4u);
}

// Go (faithful wyrand and ideal draws, with and without the tiny allocator), the
// JVM (ideal per-thread draws; faithful on one thread, where the shared LCG's order
// is the thread's), V8, OCaml and the Chromium/ddprof accumulator (with a second
// layer, like AllocationTick's): identical observations, weights included (the JVM's
// bytes since the previous sample).
TEST(SkipAheadSchemes, PeerCountdownsIdentical) {
  for (const Trace* trace : {&mixed_trace(), &single_thread_trace()}) {
    for (const char* rate : {"64", "4096", "524288", "100000000"}) {
      for (const char* params :
           {R"({"rate": %T})", R"({"rate": %T, "faithful": false})", R"({"rate": %T, "tiny": true})"}) {
        expect_identical("go", with_rate(params, rate), *trace);
      }
      expect_identical("jvm", with_rate(R"({"interval": %T, "faithful": false})", rate), *trace);
      expect_identical("v8", with_rate(R"({"rate": %T})", rate), *trace);
    }
    for (const char* rate : {"8", "4096", "524288", "100000000"}) {
      expect_identical("chromium", with_rate(R"({"rate": %T})", rate), *trace);
      expect_identical("ddprof", with_rate(R"({"rate": %T, "keep": 0.3})", rate), *trace);
    }
    for (const char* mode : {"stride", "reset"}) {
      expect_identical("dotnet-tick", std::string(R"({"stride": 4096, "keep": 0.3, "mode": ")") + mode + "\"}", *trace);
    }
    for (const char* lambda : {"0.01", "0.0001", "1e-8"}) {
      expect_identical("ocaml", std::string(R"({"sampling_rate": )") + lambda + "}", *trace);
    }
  }
  expect_identical("jvm", R"({"interval": 4096})", single_thread_trace());
  const ThreadIndex index(mixed_trace());
  EXPECT_EQ(make_scheme("jvm", R"({"interval": 4096})")->start_skip_ahead(mixed_trace(), index), nullptr);
  EXPECT_EQ(make_scheme("go", R"({"bypass": "rate"})")->start_skip_ahead(mixed_trace(), index), nullptr);
}

// The engine gives the same metrics with either replay (the observations are the
// same; only summation order differs).
TEST(SkipAheadSchemes, EngineResultsIdenticalInBothModes) {
  const std::string schemes = R"([
      {"scheme": "heapprofd", "rate": 4096},
      {"scheme": "heapprofd", "rate": 4096, "counter": "thread", "passthrough": "rate", "label": "heapprofd-thread"},
      {"scheme": "memray", "rate": 4096},
      {"scheme": "per-allocation", "rate": 10},
      {"scheme": "jemalloc", "rate": 4096},
      {"scheme": "tcmalloc", "rate": 4096},
      {"scheme": "dotnet", "rate": 4096},
      {"scheme": "dotnet-tick", "stride": 4096},
      {"scheme": "dotnet-tick", "stride": 4096, "mode": "reset", "label": "dotnet-tick-reset"},
      {"scheme": "go", "rate": 4096, "tiny": true, "periods": 3},
      {"scheme": "jvm", "interval": 4096, "faithful": false},
      {"scheme": "v8", "rate": 4096},
      {"scheme": "ocaml", "sampling_rate": 0.001},
      {"scheme": "chromium", "rate": 4096},
      {"scheme": "ddprof", "rate": 4096, "keep": 0.3},
      {"scheme": "dotnet-tick", "stride": 4096, "keep": 0.3, "label": "dotnet-tick-kept"}])";
  const std::string base = R"({"name": "t", "seed": 4, "replications": 60,
    "trace": {"allocations": 4000, "threads": 3, "sizes": {"distribution": "lognormal", "median": 300, "sigma": 1.5},
              "stacks": {"rule": "round_robin", "count": 7}},
    "schemes": )" + schemes +
                           R"(, "groups": ["total", "stack"], "replay": ")";
  const auto streaming = testing::run_scenario_text(base + "streaming\"}", 2);
  const auto skipping = testing::run_scenario_text(base + "skip_ahead\"}", 2);
  ASSERT_EQ(streaming.rows.size(), skipping.rows.size());
  for (std::size_t i = 0; i < streaming.rows.size(); ++i) {
    const Metrics& a = streaming.rows[i].metrics;
    const Metrics& b = skipping.rows[i].metrics;
    EXPECT_NEAR(a.mean, b.mean, 1e-12 * std::max(1.0, std::abs(a.truth))) << streaming.rows[i].scheme << " " << i;
    EXPECT_NEAR(a.mape, b.mape, 1e-12) << streaming.rows[i].scheme << " " << i;
    EXPECT_EQ(a.replications_with_sample, b.replications_with_sample) << streaming.rows[i].scheme << " " << i;
  }
}

}  // namespace
}  // namespace allocsim
