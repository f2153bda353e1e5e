// Replay speed: streaming and skip-ahead events per second per scheme, the
// memory a trace and its skip-ahead index take, and replications per second of
// the engine (a synthetic scenario and the heapprofd figure scenario) on 1 and 2
// threads.
//
//   build/bin/replay_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The trace has ALLOCSIM_BENCH_EVENTS allocations (default 10^7) of malloc-like
// sizes on 4 threads: 95% log-uniform 8..256 B, 4.9% lognormal around 4 KiB,
// 0.1% 256 KiB (mean about 660 B). The `point/` cases replay the countdown schemes
// on the trace of bench/numpy_ratio.py instead (one thread, lognormal sizes with
// median 55 B and sigma 1.5, mean about 170 B) and report the time per sample point
// (`point_time`) and the skip-ahead index's bytes per event (`index_bytes`).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "allocsim/engine/experiment.h"
#include "allocsim/json/json_reader.h"
#include "allocsim/random/log_uniform_batch.h"
#include "allocsim/random/random_stream.h"
#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/synthetic.h"
#include "allocsim/trace/thread_index.h"
#include "bench_paths.h"

namespace allocsim {
namespace {

std::uint64_t bench_events() {
  const char* env = std::getenv("ALLOCSIM_BENCH_EVENTS");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 10'000'000;
}

const std::string kSizes = R"({"distribution": "mixture", "components": [
  {"weight": 0.950, "distribution": "log_uniform", "min": 8, "max": 256},
  {"weight": 0.049, "distribution": "lognormal", "median": 4096, "sigma": 1.0},
  {"weight": 0.001, "distribution": "constant", "size": 262144}]})";

const Trace& bench_trace() {
  static const Trace trace = [] {
    const nlohmann::json spec =
        nlohmann::json::parse(R"({"allocations": )" + std::to_string(bench_events()) +
                              R"(, "threads": 4, "thread_assignment": "random", "sizes": )" + kSizes + "}");
    JsonObject object(spec, "$.trace");
    return generate_synthetic(parse_synthetic_spec(object), 1);
  }();
  return trace;
}

const ThreadIndex& bench_index() {
  static const ThreadIndex index(bench_trace());
  return index;
}

const Trace& lognormal_trace() {
  static const Trace trace = [] {
    const nlohmann::json spec =
        nlohmann::json::parse(R"({"allocations": )" + std::to_string(bench_events()) +
                              R"(, "sizes": {"distribution": "lognormal", "median": 55, "sigma": 1.5}})");
    JsonObject object(spec, "$.trace");
    return generate_synthetic(parse_synthetic_spec(object), 1);
  }();
  return trace;
}

const ThreadIndex& lognormal_index() {
  static const ThreadIndex index(lognormal_trace());
  return index;
}

std::shared_ptr<const Scheme> make_scheme(const std::string& name, const std::string& params) {
  return create_scheme(name, nlohmann::json::parse(params), "$");
}

void replay(benchmark::State& state, const std::string& name, const std::string& params, bool skip_ahead) {
  const Trace& trace = bench_trace();
  const auto scheme = make_scheme(name, params);
  auto run = skip_ahead ? scheme->start_skip_ahead(trace, bench_index()) : scheme->start(trace);
  if (!run) {
    state.SkipWithError("no skip-ahead replay for this scheme");
    return;
  }
  std::vector<Observation> observations;
  std::uint64_t r = 0;
  std::size_t samples = 0;
  for (auto _ : state) {
    observations.clear();
    run->replay({1, 0, r++}, observations);
    samples += observations.size();
    benchmark::DoNotOptimize(observations.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * trace.size()));
  state.counters["trace_bytes_per_event"] =
      static_cast<double>(trace.storage_bytes()) / static_cast<double>(trace.size());
  state.counters["sampled_allocations"] =
      benchmark::Counter(static_cast<double>(samples) / static_cast<double>(state.iterations()));
}

// Skip-ahead on the lognormal trace: time per sample point, and the ThreadIndex's
// bytes per event (a scheme that counts other sizes than the requested ones holds
// its own prefix sums besides: CountedStreams::owned_bytes_per_event).
void per_point(benchmark::State& state, const std::string& name, const std::string& params) {
  const Trace& trace = lognormal_trace();
  const ThreadIndex& index = lognormal_index();
  const auto scheme = make_scheme(name, params);
  auto run = scheme->start_skip_ahead(trace, index);
  if (!run) {
    state.SkipWithError("no skip-ahead replay for this scheme");
    return;
  }
  std::vector<Observation> observations;
  std::uint64_t r = 0;
  double points = 0;
  for (auto _ : state) {
    observations.clear();
    run->replay({1, 0, r++}, observations);
    for (const Observation& o : observations) points += o.samples;
    benchmark::DoNotOptimize(observations.data());
  }
  state.counters["point_time"] = benchmark::Counter(points, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["points"] = benchmark::Counter(points / static_cast<double>(state.iterations()));
  state.counters["index_bytes"] = index.bytes_per_event();
}

// The floor under any exact skip-ahead of poisson: one exponential gap (a Philox
// word and a logarithm) per sample point, summed as the replay sums them.
void exponential_draws(benchmark::State& state) {
  RandomStream stream({1, 0, 0}, 0);
  double x = 0;
  for (auto _ : state) {
    x += exponential_from_uniform(stream.next_uniform(), 4096);
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(exponential_draws);

// The same draws as the batched replays take them: logarithms 64 at a time in a
// vectorised loop (random/log_uniform_batch.h), the same bits.
void exponential_draws_batched(benchmark::State& state) {
  RandomStream stream({1, 0, 0}, 0);
  LogUniformBatch<RandomStream> log_uniforms(stream);
  double x = 0;
  for (auto _ : state) {
    x += exponential_from_log_uniform(log_uniforms.next(), 4096);
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(exponential_draws_batched);

void register_point_benchmarks() {
  for (const char* scheme : {"poisson", "heapprofd", "memray", "jemalloc", "tcmalloc", "go", "jvm", "dotnet"}) {
    for (const char* rate : {"4096", "524288"}) {
      const std::string params = std::string(R"({"rate": )") + rate + "}";
      const std::string label = std::string("point/") + scheme + "/T=" + rate;
      // CPU time (no UseRealTime): point_time is then CPU time per point, which a
      // machine shared with other work disturbs less.
      benchmark::RegisterBenchmark(label.c_str(), [=](benchmark::State& s) {
        per_point(s, scheme, params);
      })->Unit(benchmark::kMillisecond);
    }
  }
}

void register_replay_benchmarks() {
  struct Case {
    std::string scheme;
    std::string params;        // with %T for the rate
    std::string variant = "";  // appended to the label
  };
  const std::vector<Case> cases = {
      {"poisson", R"({"rate": %T})"},
      {"heapprofd", R"({"rate": %T})"},
      {"heapprofd", R"({"rate": %T, "counter": "thread"})", ":thread"},
      {"memray", R"({"rate": %T})"},
      {"per-allocation", R"({"rate": %T})"},
      {"jemalloc", R"({"rate": %T})"},
      {"tcmalloc", R"({"rate": %T})"},
      {"dotnet", R"({"rate": %T})"},
      {"dotnet-tick", R"({"stride": %T})"},
      {"dotnet-tick", R"({"stride": %T, "mode": "reset"})", ":reset"},
  };
  for (const auto& c : cases) {
    for (const char* rate : {"4096", "524288", "2097152"}) {
      std::string params = c.params;
      params.replace(params.find("%T"), 2, rate);
      for (bool skip : {false, true}) {
        const std::string label = c.scheme + c.variant + (skip ? "/skip_ahead/T=" : "/streaming/T=") + rate;
        benchmark::RegisterBenchmark(label.c_str(), [=](benchmark::State& s) { replay(s, c.scheme, params, skip); })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
  }
}

// The engine benchmark's scenario: a poisson scheme with stack groups on a
// synthetic trace of 10^5 allocations, `replications` replications.
Scenario engine_scenario(int replications) {
  const std::string json = R"({"name": "bench", "seed": 1, "replications": )" + std::to_string(replications) +
                           R"(, "trace": {"allocations": 100000, "threads": 4, "sizes": )" + kSizes +
                           R"(, "stacks": {"rule": "random", "count": 100}},
    "schemes": [{"scheme": "poisson", "rate": 65536}], "groups": ["total", "stack"]})";
  return parse_scenario(json, "bench");
}

// Whole-engine throughput: replications per second of the engine scenario with
// 256 replications, set-up included, on 1 and 2 worker threads.
void engine(benchmark::State& state) {
  const Scenario scenario = engine_scenario(256);
  RunOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(run_scenario(scenario, options).rows.size());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * scenario.replications));
}
BENCHMARK(engine)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same scenario with two replications (the fewest a scenario takes): the time
// is mostly the set-up (trace, group and thread indexes, truth, theory sums) and
// the fixed costs of a run.
void engine_setup(benchmark::State& state) {
  const Scenario scenario = engine_scenario(2);
  RunOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(run_scenario(scenario, options).rows.size());
}
BENCHMARK(engine_setup)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The heapprofd figure scenario (P(>= 1 sample) vs size, 4 rates x 320 sizes x 2
// schemes x 2000 replications of a one-allocation trace): replications per second
// of the whole engine, per-point set-up included, on 1 and 2 threads.
void heapprofd_figure(benchmark::State& state) {
  const Scenario scenario = load_scenario(bench::source_dir() + "/scenarios/figures/heapprofd-p-any-sample.json");
  RunOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  std::uint64_t replications = 0;
  for (const auto& point : scenario.points) replications += point.schemes.size() * scenario.replications;
  for (auto _ : state) benchmark::DoNotOptimize(run_scenario(scenario, options).rows.size());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * replications));
}
BENCHMARK(heapprofd_figure)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

const bool registered = (register_replay_benchmarks(), register_point_benchmarks(), true);

}  // namespace
}  // namespace allocsim
