#include "allocsim/sampler/systems/scalene/scalene.h"

#include <algorithm>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"
#include "allocsim/trace/frees_in_time_order.h"

namespace allocsim {

std::vector<std::uint64_t> scalene_event_order(const Trace& trace) {
  const std::size_t n = trace.size();
  const auto frees = frees_in_time_order(trace);  // (free time, allocation)
  std::vector<std::uint64_t> events;
  events.reserve(n + frees.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // Frees stamped up to this allocation's time, of allocations before it (a free
    // stamped t of a later allocation is that allocation's, lifetime 0: it waits).
    while (next < frees.size() && frees[next].first <= trace.time[i] && frees[next].second < i) {
      events.push_back(frees[next++].second | kScaleneFree);
    }
    events.push_back(i);
  }
  for (; next < frees.size(); ++next) events.push_back(frees[next].second | kScaleneFree);
  return events;
}

namespace {

class ScaleneScheme final : public Scheme {
 public:
  enum Estimator : std::size_t { kBytes, kNetBytes, kEstimators };

  explicit ScaleneScheme(std::uint64_t window) : window_(window) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::allocated_bytes,
         "the values of the malloc samples the group's allocations fired: Scalene's n_malloc_mb"},
        {"net_bytes", Quantity::net_allocated_bytes,
         "malloc sample values less the free sample values the group's frees fired: its net growth as "
         "Scalene's records give it"},
    };
    return specs;
  }

  // The merged order of allocations and frees, shared by the runs.
  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    auto events = std::make_shared<const std::vector<std::uint64_t>>(scalene_event_order(trace));
    return streaming_runs([&trace, window = window_, events] {
      return std::make_unique<SamplerRun<ScaleneSampler>>(trace, ScaleneSampler(window, events));
    });
  }

  void weigh(const Trace&, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kEstimators> rows(out, observations.size());
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double value = observations[o].weight;
      const auto registers = rows[o];
      registers[kBytes] = std::max(value, 0.0);
      registers[kNetBytes] = value;
    }
  }

 private:
  std::uint64_t window_;
};

}  // namespace

SchemeDescriptor scalene_scheme() {
  return {
      .name = "scalene",
      .summary = "Scalene's ThresholdSampler: per thread, a sample whenever the bytes allocated less the bytes "
                 "freed since the last one reach +W (malloc record) or -W (free record), W = 1 MiB, carrying "
                 "that net value, attributed to the line whose malloc or free crossed.",
      .source = "plasma-umass/scalene 9069a32 src/include/thresholdsampler.hpp, src/include/sampleheap.hpp "
                "(register_malloc, register_free), scalene/scalene_memory_profiler.py "
                "(process_malloc_free_samples), scalene/scalene_arguments.py (allocation_sampling_window)",
      .parameters = {{"rate",
                      "integer",
                      kScaleneWindow,
                      "W: the sampling window in bytes (SCALENE_ALLOCATION_SAMPLING_WINDOW, "
                      "--allocation-sampling-window); alias \"allocation_sampling_window\"",
                      {"allocation_sampling_window"}}},
      .variants = {"A free is taken to run on the allocating thread and to be attributed to the allocating "
                   "stack (Scalene attributes it to the line running the free).",
                   "Not modelled: the NEWLINE sentinel allocations that mark line boundaries (they move the "
                   "counters too), the clamping of footprints at 0, the smear filter that drops samples on "
                   "lines without an allocating opcode, and the Python allocator's rounding to 8 bytes (the "
                   "trace's allocated sizes are used)."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue rate = params["rate"];
        const std::uint64_t window = positive_byte_count(rate);
        if (window > kMaxTraceBytes) rate.fail("must be at most 2^62");
        return std::make_unique<ScaleneScheme>(window);
      },
      .rate = SchemeRate{},
      .estimator_legends = {{"net_bytes", "net bytes, malloc records less free records"}},
  };
}

}  // namespace allocsim
