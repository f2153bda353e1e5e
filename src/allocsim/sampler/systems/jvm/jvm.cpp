#include "allocsim/sampler/systems/jvm/jvm.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/exponential_inclusion.h"

namespace allocsim {
namespace {

class JvmScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kCount, kBytesSinceLast, kRegisters };

  JvmScheme(double interval, bool faithful, const JvmTlabConfig& tlab)
      : interval_(interval), faithful_(faithful), tlab_(tlab) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::allocated_bytes, "u / (1 - exp(-u/T)) per sampled object (agents' unsampling)"},
        {"count", Quantity::count, "1 / (1 - exp(-u/T)) per sampled object"},
        {"bytes_since_last", Quantity::allocated_bytes,
         "the thread's bytes since its previous sample, this object included (JFR "
         "ObjectAllocationSample weight; biased per group)"},
    };
    return specs;
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, interval = interval_, faithful = faithful_, tlab = tlab_] {
      return std::make_unique<SamplerRun<JvmSampler>>(trace, JvmSampler(interval, faithful, tlab));
    });
  }

  // The shared LCG draws in trace order across threads, so thread-by-thread replay
  // only reproduces it for one thread; T = 0 samples even empty objects; the TLAB
  // model reports objects that hold no sample point.
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    if (interval_ == 0 || tlab_.enabled() || (faithful_ && trace.thread_count > 1)) return nullptr;
    auto sizes = std::make_shared<const CountedStreams>(JvmSampler::object_streams(trace, index));
    return skip_ahead_runs([&trace, &index, interval = interval_, faithful = faithful_, sizes] {
      return std::make_unique<SkipAheadRun<JvmSampler>>(trace, index, JvmSampler(interval, faithful, sizes));
    });
  }

  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kBytesSinceLast);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double u = static_cast<double>(jvm_object_size(parked_size(rows[o], kBytesSinceLast)));
      const double scale = exponential_unsampling_scale(u, interval_);
      const auto registers = rows[o];
      registers[kBytes] = u * scale;
      registers[kCount] = scale;
      registers[kBytesSinceLast] = observations[o].weight;
    }
  }

  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    return jvm_object_size(trace.requested[i]);
  }

  // bytes and count: independent inclusion with pi = 1 - e^(-u/T) (jvm.h); none
  // through the TLAB paths.
  EstimatorTheory theory(std::size_t estimator) const override {
    if (estimator >= 2 || tlab_.enabled()) return {};
    return per_allocation_theory(this, &JvmScheme::allocation_theory, estimator);
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
    const double u = static_cast<double>(jvm_object_size(trace.requested[i]));
    const double scale = exponential_unsampling_scale(u, interval_);
    return estimator == 0 ? weighted_inclusion_theory(u, interval_, u * scale, u)
                          : weighted_inclusion_theory(u, interval_, scale, 1.0);
  }

  double interval_;
  bool faithful_;
  JvmTlabConfig tlab_;
};

}  // namespace

SchemeDescriptor jvm_scheme() {
  return {
      .name = "jvm",
      .summary = "HotSpot JEP 331 (JVMTI SampledObjectAlloc): per-thread countdown of "
                 "floor(~Exp(T))+1 bytes over object sizes from one shared 48-bit LCG, "
                 "leftover discarded; agents unsample by 1/(1-exp(-u/T)).",
      .source = "openjdk/jdk src/hotspot/share/runtime/threadHeapSampler.cpp (JDK 13+, JDK 17); "
                "JEP 331",
      .parameters = {{"rate",
                      "integer",
                      524288,
                      "JVMTI SetHeapSamplingInterval T in bytes (0: every object); alias \"interval\"",
                      {"interval"}},
                     {"faithful", "boolean", true,
                      "draw with the shared lrand64 state and the table fast_log2 (false: an ideal "
                      "exponential, floor + 1, per thread)"},
                     {"tlab", "integer", 0,
                      "TLAB bytes (-XX:TLABSize with -XX:-ResizeTLAB): replay through HotSpot's TLAB "
                      "paths (refills, outside-TLAB allocations, the sample end); 0: a plain countdown"},
                     {"tlab_max", "integer", 0, "largest TLAB in bytes (G1: half a region); 0: no cap"},
                     {"tlab_reserve", "integer", kJvmTlabReserve,
                      "bytes kept free at a TLAB's end (alignment_reserve: C2's allocation prefetch)"},
                     {"tlab_refill_waste_fraction", "integer", 64,
                      "TLABRefillWasteFraction: a TLAB with more than size/fraction free is kept and "
                      "the object allocated outside it"},
                     {"tlab_waste_increment", "integer", 32, "TLABWasteIncrement in bytes (4 words)"},
                     {"tlab_region", "integer", 0,
                      "G1 heap region bytes: TLABs and outside objects share the current region, a "
                      "refill that does not fit fails (jvm_tlab.h); 0: one contiguous space"},
                     {"tlab_region_used", "integer", 0, "bytes of the current G1 region in use at the start"},
                     {"initial_tlab", "integer", 0, "free bytes of thread 0's TLAB at the start; 0: none"},
                     {"initial_tlab_armed", "boolean", false,
                      "whether that TLAB has a sample end (false: filled before sampling was switched "
                      "on, so objects that fit in it are never sampled)"}},
      .variants = {"Object size: the trace's size rounded up to 8 bytes (MinObjAlignmentInBytes).",
                   "Overflow: discarded (JDK 13+); JDK 11 subtracted it from the next interval when "
                   "smaller. Not modelled.",
                   "faithful=true: one _rnd for all threads, re-seeded from each thread's 32-bit "
                   "address (modelled by a word of its stream) when its sampler is constructed; "
                   "later draws in trace order.",
                   "The JVM emits no weight: bytes / count are the agents' Horvitz-Thompson "
                   "unsampling, bytes_since_last the JFR ObjectAllocationSample weight.",
                   "tlab > 0: the sampler sees objects through the TLAB slow path (jvm_tlab.h): "
                   "outside-TLAB objects are checked before the TLAB's bytes are counted, refills "
                   "count the old TLAB's free tail; one contiguous heap, no garbage collection."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue rate = params["rate"];
        if (byte_count(rate) > 0x7FFFFFFFu) rate.fail("must be at most 2^31 - 1 (a jint)");
        JvmTlabConfig tlab;
        tlab.desired = byte_count(params["tlab"]) / 8 * 8;
        tlab.max = byte_count(params["tlab_max"]) / 8 * 8;
        tlab.reserve = byte_count(params["tlab_reserve"]) / 8 * 8;
        tlab.refill_waste_fraction = params["tlab_refill_waste_fraction"].positive_uint();
        tlab.waste_increment = byte_count(params["tlab_waste_increment"]) / 8 * 8;
        tlab.region = byte_count(params["tlab_region"]) / 8 * 8;
        tlab.region_used = byte_count(params["tlab_region_used"]);
        tlab.initial = byte_count(params["initial_tlab"]);
        tlab.initial_armed = params["initial_tlab_armed"].boolean();
        if (tlab.region_used > tlab.region) params["tlab_region_used"].fail("must not exceed tlab_region");
        if (!tlab.enabled() &&
            (tlab.max > 0 || tlab.region > 0 || tlab.region_used > 0 || tlab.initial > 0 || tlab.initial_armed)) {
          params.fail("tlab_max, tlab_region, tlab_region_used and initial_tlab need tlab (the TLAB bytes) above 0");
        }
        if (tlab.enabled() && tlab.desired <= tlab.reserve) {
          params["tlab"].fail("must exceed tlab_reserve (" + std::to_string(tlab.reserve) + " bytes)");
        }
        return std::make_unique<JvmScheme>(static_cast<double>(byte_count(rate)), params["faithful"].boolean(), tlab);
      },
      .rate = SchemeRate{},
      .family = SamplingFamily::per_allocation_exponential,
      .skip_ahead = true,
      .conformance = jvm_drivers(),
      .estimator_legends = {{"bytes_since_last", "bytes since the thread's last sample (JFR weight)"}},
  };
}

}  // namespace allocsim
