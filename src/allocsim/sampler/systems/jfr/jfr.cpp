#include "allocsim/sampler/systems/jfr/jfr.h"

#include <string>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

namespace allocsim {
namespace {

class JfrScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kCountRaw, kRegisters };

  explicit JfrScheme(const JfrConfig& config) : config_(config) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::allocated_bytes,
         "the event's weight: the thread's bytes since its previous accepted event (what JMC and `jfr print` sum "
         "per stack)"},
        {"count_raw", Quantity::count, "1 per event: the samples counted"},
    };
    return specs;
  }

  // Streaming only: the throttle is one process-wide state over time.
  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs(
        [&trace, config = config_] { return std::make_unique<SamplerRun<JfrSampler>>(trace, JfrSampler(config)); });
  }

  void weigh(const Trace& /*trace*/, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const auto registers = rows[o];
      registers[kBytes] = observations[o].weight;
      registers[kCountRaw] = 1;
    }
  }

  // HotSpot's object size: the request rounded up to 8 bytes.
  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    return jvm_object_size(trace.requested[i]);
  }

 private:
  JfrConfig config_;
};

}  // namespace

SchemeDescriptor jfr_scheme() {
  std::vector<ParameterInfo> parameters = {
      {"throttle", "integer", kJfrDefaultThrottle,
       "the event's throttle in events per second (default.jfc 150/s; profile.jfc 300/s; JMC's \"High\" "
       "1000/s); 0 accepts none. Above 9/s: windows of 200 ms with throttle/5 sample points"},
      {"tlab", "integer", kJfrDefaultTlab,
       "TLAB bytes, fixed (-XX:TLABSize with -XX:-ResizeTLAB); the outside-TLAB tries are per (tlab - "
       "tlab_reserve) bytes"},
      {"tlab_max", "integer", kJfrDefaultTlabMax,
       "largest TLAB in bytes (G1: half a region, 1 MiB with 2 MiB regions): a larger object goes outside; 0: "
       "none"},
      {"tlab_reserve", "integer", kJvmTlabReserve, "alignment_reserve() in bytes (576 on x86-64 with C2)"},
  };
  for (ParameterInfo& p : wall_clock_parameters(kJfrDefaultAllocRate)) parameters.push_back(std::move(p));
  return {
      .name = "jfr",
      .summary = "JDK Flight Recorder's jdk.ObjectAllocationSample (JDK 17): TLAB-refill and outside-TLAB "
                 "allocations are offered to one process-wide adaptive throttle (150/s by default: 30 per "
                 "200 ms window, every k-th accepted, k geometric from an EWMA of past windows); each "
                 "accepted event weighs the thread's bytes since its previous accepted one.",
      .source = "OpenJDK 17 src/hotspot/share/jfr/support/jfrObjectAllocationSample.cpp (microsoft/openjdk-jdk17u "
                "150e7e9), jfr/support/jfrAdaptiveSampler.cpp and jfr/recorder/service/jfrEventThrottler.cpp "
                "(JDK 16/17 text; stefank/jdk 73bee23), gc/shared/memAllocator.cpp and "
                "threadLocalAllocBuffer.cpp (robin977/jdk17u-dev a4e5fd7), src/jdk.jfr/share/conf/jfr/default.jfc "
                "(openjdk/jdk17u-dev 1151343)",
      .parameters = std::move(parameters),
      .variants = {"TLABs of a fixed size (the JVM resizes them to its allocation rate), one contiguous heap, "
                   "no GC within the trace.",
                   "The throttle's uniforms come from the replication's stream, on JfrPRNG's 26-bit grid (the "
                   "real one is an LCG seeded with the sampler's address).",
                   "One thread of control: the window rotates at the first event past its end, with no race "
                   "between threads; recording starts at the trace's start."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        JfrConfig config;
        config.throttle = params["throttle"].uint();
        if (config.throttle > 1'000'000'000) params["throttle"].fail("must be at most 1000000000 (JMC's Maximum)");
        config.tlab.desired = byte_count(params["tlab"]) / 8 * 8;
        config.tlab.max = byte_count(params["tlab_max"]) / 8 * 8;
        config.tlab.reserve = byte_count(params["tlab_reserve"]) / 8 * 8;
        if (config.tlab.desired <= config.tlab.reserve) {
          params["tlab"].fail("must exceed tlab_reserve (" + std::to_string(config.tlab.reserve) + " bytes)");
        }
        if (config.tlab.max > 0 && config.tlab.max <= config.tlab.reserve) {
          params["tlab_max"].fail("must be 0 or exceed tlab_reserve");
        }
        config.clock = read_wall_clock(params);
        return std::make_unique<JfrScheme>(config);
      },
      // No .rate: the throttle is events per second, neither bytes nor allocations
      // between samples; the mean interval follows from the program's allocation rate.
      .skip_ahead = false,
      .conformance = jfr_drivers(),
  };
}

}  // namespace allocsim
