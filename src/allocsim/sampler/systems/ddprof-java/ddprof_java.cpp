#include "allocsim/sampler/systems/ddprof-java/ddprof_java.h"

#include <string>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

namespace allocsim {
namespace {

class DdprofJavaScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kCount, kCountRaw, kBytesDrawn, kRegisters };

  explicit DdprofJavaScheme(const DatadogJavaConfig& config) : config_(config) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::allocated_bytes,
         "u / (1 - exp(-u/T)) per sample with T the interval at the callback (the profile's size x weight). "
         "Unbiased while T stays put; biased when the PID moves T: each thread's first sample after a "
         "change was drawn with the old T, so a thread's bytes are off by v(T_last) - v(T_0) ~ T_last - T_0 "
         "(v(T) = u / (1 - exp(-u/T))), all of it on the sites sampled first after the changes"},
        {"count", Quantity::count, "1 / (1 - exp(-u/T)) per sample, T at the callback: biased like bytes"},
        {"count_raw", Quantity::count, "1 per sample (the number of samples taken, not a count)"},
        {"bytes_drawn", Quantity::allocated_bytes,
         "u / (1 - exp(-u/T_d)) with T_d the interval the sample's countdown was drawn with (not what the "
         "agent reports): unbiased whatever T does, the reference for bytes"},
    };
    return specs;
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, config = config_] {
      return std::make_unique<SamplerRun<DatadogJavaSampler>>(trace, DatadogJavaSampler(config));
    });
  }

  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kBytesDrawn);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const Observation& obs = observations[o];
      const double u = static_cast<double>(jvm_object_size(parked_size(rows[o], kBytesDrawn)));
      const double w = datadog_java_weight(u, obs.weight);
      const auto registers = rows[o];
      registers[kBytes] = u * w;
      registers[kCount] = w;
      registers[kCountRaw] = 1;
      registers[kBytesDrawn] = datadog_java_sample_bytes(u, static_cast<double>(obs.offset));
    }
  }

  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    return jvm_object_size(trace.requested[i]);
  }

 private:
  DatadogJavaConfig config_;
};

}  // namespace

SchemeDescriptor ddprof_java_scheme() {
  std::vector<ParameterInfo> parameters = {
      {"interval", "integer", kDatadogJavaDefaultInterval,
       "the configured allocation interval in bytes (memory=<interval>; dd-trace-java's "
       "profiling.ddprof.alloc.interval, 256 KiB): the PID's lower clamp"},
      {"floor", "integer", kDatadogJavaFloor,
       "ObjectSampler::check starts the interval at max(interval, floor) (256 KiB, not configurable)"},
      {"target", "integer", kDatadogJavaTarget,
       "_target_samples_per_window: the PID's samples per 1 s window, and the sample count whose multiples "
       "trigger an update (0: no updates)"},
      {"rate_limiting", "boolean", true,
       "the PID retunes the interval (false: DDPROF_TEST_DISABLE_RATE_LIMIT=1, a fixed interval)"},
  };
  for (ParameterInfo& p : wall_clock_parameters(kDatadogJavaDefaultAllocRate)) parameters.push_back(std::move(p));
  return {
      .name = "ddprof-java",
      .summary = "Datadog's Java profiler (java-profiler): HotSpot's JVMTI per-thread exponential countdown "
                 "with an interval a PID controller retunes on the wall clock towards 100 samples/s (every "
                 "100th sample after > 1 s: T -= 31 e + 511 sum e + 3 de, e = 100 - samples/s, T >= the "
                 "configured 256 KiB); each sample weighs 1 / (1 - exp(-u/T)) with T at the callback, not the "
                 "T its countdown was drawn with.",
      .source = "DataDog/java-profiler d034fca ddprof-lib/src/main/cpp/objectSampler.cpp (check, "
                "recordAllocation, updateConfiguration), objectSampler.h, pidController.h/.cpp; "
                "DataDog/dd-trace-java ProfilingConfig.java (profiling.ddprof.alloc.interval 256 KiB); "
                "openjdk/jdk threadHeapSampler.cpp",
      .parameters = std::move(parameters),
      .variants = {"HotSpot's countdown with ideal exponential draws per thread (the `jvm` scheme's "
                   "faithful=false), no TLAB paths; object sizes rounded up to 8.",
                   "One process-wide agent: the sample count, the update check and the PID run in the order "
                   "of the trace's samples (the real compare-and-swap lets one of the racing threads update).",
                   "The wall clock is the trace's (clock=trace) or an even allocation rate (alloc_rate, an "
                   "assumed 512 MiB/s); the sampling's own cost does not stretch it.",
                   "Liveness tracking (the heap profile) is not modelled: allocation estimators only."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        DatadogJavaConfig config;
        const JsonValue interval = params["interval"];
        config.interval = byte_count(interval);
        if (config.interval > static_cast<std::uint64_t>(kDatadogJavaMaxInterval)) {
          interval.fail("must be at most 2^31 - 1 (a jint)");
        }
        const JsonValue floor = params["floor"];
        config.floor = byte_count(floor);
        if (config.floor > static_cast<std::uint64_t>(kDatadogJavaMaxInterval)) {
          floor.fail("must be at most 2^31 - 1 (a jint)");
        }
        config.target = params["target"].uint();
        config.rate_limiting = params["rate_limiting"].boolean();
        config.clock = read_wall_clock(params);
        return std::make_unique<DdprofJavaScheme>(config);
      },
      // No .rate: the interval follows from the 100 samples/s target and the allocation rate.
      .skip_ahead = false,
      .estimator_legends = {{"bytes_drawn", "bytes, weighted with the interval drawn (reference)"}},
  };
}

}  // namespace allocsim
