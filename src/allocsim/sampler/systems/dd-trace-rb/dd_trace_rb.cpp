#include "allocsim/sampler/systems/dd-trace-rb/dd_trace_rb.h"

#include <string>

#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"
#include "allocsim/util/error.h"

namespace allocsim {

double datadog_ruby_steady_interval(double objects_per_second, double sample_ns, double target_percent) {
  if (!(objects_per_second > 0) || !(sample_ns > 0) || !(target_percent > 0) || !(target_percent < 50)) {
    throw InputError("datadog_ruby_steady_interval: the rate and the sample time must be > 0, the target in (0, 50)");
  }
  const double c = target_percent / 100;
  // g(c') = c' (1 + 1/(1 - c')) - 2c is increasing on [0, c]: bisection.
  double lo = 0, hi = c;
  for (int step = 0; step < 200; ++step) {
    const double mid = (lo + hi) / 2;
    (mid * (1 + 1 / (1 - mid)) < 2 * c ? lo : hi) = mid;
  }
  const double c_adjusted = (lo + hi) / 2;
  const double x = objects_per_second * sample_ns * 1e-9;
  return std::max(1.0, x * (1 - 2 * c_adjusted) / c_adjusted);
}

namespace {

class DdTraceRbScheme final : public Scheme {
 public:
  enum Register : std::size_t { kCount, kCountRaw, kSkipped, kUnclamped, kRegisters };

  explicit DdTraceRbScheme(const DatadogRubyConfig& config) : config_(config) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"count", Quantity::count,
         "alloc-samples: the events since the previous sample, clamped at max_weight (10 000). Low by 1 - "
         "10 000/k once k > 10 000 (steady k ~ 98.5 E s: E objects/s, s the sample time), and by the "
         "start-up second (the first 100 objects all sampled, then none for 1 s; that second's objects go to "
         "Skipped Samples); per site, biased wherever k moves (the events since the last sample land on the "
         "next sampled site)"},
        {"count_raw", Quantity::count, "alloc-samples-unscaled: 1 per sample (a share of the samples, not a count)"},
        {"skipped", Quantity::count,
         "the events over the clamp: the \"(Skipped Samples)\" placeholder stack's value, here on the "
         "triggering site's group (the real profile shows it under no site)"},
        {"count_unclamped", Quantity::count,
         "the events since the previous sample, unclamped (count + skipped): alloc-samples without "
         "MAX_ALLOC_WEIGHT; in total short only by the tail after the last sample"},
    };
    return specs;
  }

  // Streaming only: one process-wide sampler state over time.
  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, config = config_] {
      return std::make_unique<SamplerRun<DatadogRubySampler>>(trace, DatadogRubySampler(config));
    });
  }

  void weigh(const Trace& /*trace*/, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    const double cap = static_cast<double>(config_.max_weight);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double w = observations[o].weight;
      const double kept = cap > 0 ? std::min(w, cap) : w;
      const auto registers = rows[o];
      registers[kCount] = kept;
      registers[kCountRaw] = 1;
      registers[kSkipped] = w - kept;
      registers[kUnclamped] = w;
    }
  }

 private:
  DatadogRubyConfig config_;
};

}  // namespace

SchemeDescriptor dd_trace_rb_scheme() {
  std::vector<ParameterInfo> parameters = {
      {"overhead_target", "number", kDatadogRubyDefaultOverheadTarget,
       "the profiler's overhead_target_percentage (DD_PROFILING_OVERHEAD_TARGET_PERCENTAGE, 2.0); with "
       "allocation profiling on, the allocation sampler targets half of it (1 % of wall time sampling)"},
      {"max_weight", "integer", kDatadogRubyMaxWeight,
       "MAX_ALLOC_WEIGHT: a sample's alloc-samples is at most this; the excess goes to the \"(Skipped "
       "Samples)\" placeholder (0: no clamp)"},
      {"sample_ns", "integer", kDatadogRubyDefaultSampleNs,
       "mean wall time of one allocation sample in ns (a Ruby stack walk and a libdatadog insert; the "
       "profiler measures it: allocation_sampling_time_ns_avg in its stats). 10 us is an assumed default, "
       "not a shipped one"},
      {"sample_jitter", "number", 0.5,
       "j: each sample takes sample_ns (1 - j + 2 j U), U uniform on [0, 1): the only randomness of the "
       "model (0: deterministic)"},
  };
  for (ParameterInfo& p : wall_clock_parameters(kDatadogRubyDefaultAllocRate)) parameters.push_back(std::move(p));
  return {
      .name = "dd-trace-rb",
      .summary = "Datadog's Ruby allocation profiler: every k-th object allocation is sampled (systematic, one "
                 "process-wide counter), k = ceil(1/p) retuned each 1 s or 100 samples so that sampling "
                 "takes 1 % of wall time (half the 2 % target); a sample weighs the events since the previous "
                 "one, clamped at 10 000 (the excess to a \"(Skipped Samples)\" stack). Counts objects, no "
                 "bytes.",
      .source = "DataDog/dd-trace-rb cf0d441 ext/datadog_profiling_native_extension/"
                "collectors_discrete_dynamic_sampler.c, collectors_cpu_and_wall_time_worker.c (on_newobj_event, "
                "rescued_sample_allocation, MAX_ALLOC_WEIGHT), collectors_thread_context.c "
                "(thread_context_collector_sample_skipped_allocation_samples), "
                "lib/datadog/core/configuration/settings.rb (overhead_target_percentage 2.0)",
      .parameters = std::move(parameters),
      .variants = {"Each sample's wall time is a parameter (sample_ns, uniform within +-sample_jitter), not "
                   "measured: the real k follows how slow the machine walks Ruby stacks.",
                   "The program stops while a sample is taken and allocates nothing meanwhile; the coarse "
                   "clock of the skipped-event check reads the exact time.",
                   "Bytes are not modelled: the allocation profile has object counts only (heap-live-size, "
                   "the experimental heap profile's size x weight, is not an allocation estimator).",
                   "The tail of events after the trace's last sample is never weighed (the real profiler "
                   "carries it into the next profile)."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        DatadogRubyConfig config;
        const JsonValue target = params["overhead_target"];
        config.overhead_target = target.positive_number();
        if (config.overhead_target > 100) target.fail("must be in (0, 100] percent");
        config.max_weight = params["max_weight"].uint();
        const JsonValue sample_ns = params["sample_ns"];
        config.sample_ns = sample_ns.positive_uint();
        if (config.sample_ns > 1'000'000'000) sample_ns.fail("must be at most 1e9 ns");
        const JsonValue jitter = params["sample_jitter"];
        config.sample_jitter = jitter.number();
        if (!(config.sample_jitter >= 0 && config.sample_jitter <= 1)) jitter.fail("must be in [0, 1]");
        config.clock = read_wall_clock(params);
        return std::make_unique<DdTraceRbScheme>(config);
      },
      // No .rate: the interval follows from the overhead target, the allocation rate and
      // the sample time.
      .skip_ahead = false,
      .estimator_legends = {{"skipped", "count over the clamp (Skipped Samples)"},
                            {"count_unclamped", "count, events since the last sample, unclamped"}},
  };
}

}  // namespace allocsim
