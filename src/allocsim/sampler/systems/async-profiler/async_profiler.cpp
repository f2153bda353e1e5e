#include "allocsim/sampler/systems/async-profiler/async_profiler.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/exponential_inclusion.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"
#include "allocsim/sampler/systems/jfr/jfr.h"
#include "allocsim/sampler/systems/jvm/jvm.h"

namespace allocsim {
namespace {

class AsyncProfilerScheme final : public Scheme {
 public:
  enum class Mode { alloc, nativemem, tlab };
  // alloc: bytes, count_raw, bytes_ht; nativemem and tlab: bytes, count_raw.
  enum Register : std::size_t { kBytes, kCountRaw, kBytesHt };

  AsyncProfilerScheme(Mode mode, std::uint64_t interval, const JvmTlabConfig& tlab)
      : mode_(mode), interval_(interval), tlab_(tlab) {
    if (mode == Mode::alloc) {
      estimators_ = {
          {"bytes", Quantity::allocated_bytes,
           "max(u, T) per sample (async-profiler's _total_size, shown with --total)"},
          {"count_raw", Quantity::count,
           "1 per sample: the samples the flame graph counts by default (without --total)"},
          {"bytes_ht", Quantity::allocated_bytes,
           "u / (1 - exp(-u/T)) per sample: the Horvitz-Thompson reference, unbiased (not async-profiler's)"},
      };
    } else if (mode == Mode::tlab) {
      estimators_ = {
          {"bytes", Quantity::allocated_bytes,
           "the event's value per sample, unscaled: the new TLAB's size, or the outside object's size (shown "
           "with --total)"},
          {"count_raw", Quantity::count,
           "1 per sample: the samples the flame graph counts by default (without --total)"},
      };
    } else {
      estimators_ = {
          {"bytes", Quantity::requested_bytes, "the malloc's own size per sample, unscaled"},
          {"count_raw", Quantity::count, "1 per sample: the samples counted"},
      };
    }
  }

  const std::vector<EstimatorSpec>& estimators() const override { return estimators_; }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    if (mode_ == Mode::alloc) {
      return streaming_runs([&trace, interval = static_cast<double>(interval_)] {
        return std::make_unique<SamplerRun<JvmSampler>>(trace, JvmSampler(interval, false));
      });
    }
    if (mode_ == Mode::tlab) {
      return streaming_runs([&trace, tlab = tlab_, interval = interval_] {
        return std::make_unique<SamplerRun<AsyncProfilerTlabSampler>>(trace, AsyncProfilerTlabSampler(tlab, interval));
      });
    }
    return streaming_runs([&trace, interval = interval_] {
      return std::make_unique<SamplerRun<NativememSampler>>(trace, NativememSampler(interval));
    });
  }

  // alloc: the JVM's per-thread skip-ahead (not for T = 0, which samples empty
  // objects too); nativemem: the process-wide stream (not for T <= 1: every call);
  // tlab: none (the TLABs' state is replayed object by object).
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    if (mode_ == Mode::tlab) return nullptr;
    if (mode_ == Mode::alloc) {
      if (interval_ == 0) return nullptr;
      auto sizes = std::make_shared<const CountedStreams>(JvmSampler::object_streams(trace, index));
      return skip_ahead_runs([&trace, &index, interval = static_cast<double>(interval_), sizes] {
        return std::make_unique<SkipAheadRun<JvmSampler>>(trace, index, JvmSampler(interval, false, sizes));
      });
    }
    if (interval_ <= 1) return nullptr;
    auto stream = std::make_shared<const CountedStreams>(NativememSampler::process_stream(trace, index));
    return skip_ahead_runs([&trace, &index, interval = interval_, stream] {
      return std::make_unique<SkipAheadRun<NativememSampler>>(trace, index, NativememSampler(interval, stream));
    });
  }

  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<> rows(out, observations.size(), estimators_.size());
    const double interval = static_cast<double>(interval_);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const auto registers = rows[o];
      const double size = static_cast<double>(allocated_size(trace, observations[o].event));
      registers[kCountRaw] = 1;
      if (mode_ == Mode::tlab) {
        registers[kBytes] = observations[o].weight;  // the TLAB's or the outside object's size
        continue;
      }
      if (mode_ == Mode::nativemem) {
        registers[kBytes] = size;
        continue;
      }
      registers[kBytes] = std::max(size, interval);
      registers[kBytesHt] = size * exponential_unsampling_scale(size, interval);
    }
  }

  // alloc and tlab: the JVM's object size (rounded up to 8); nativemem: the malloc's request.
  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    return mode_ == Mode::nativemem ? trace.requested[i] : jvm_object_size(trace.requested[i]);
  }

  // alloc: independent inclusion, pi = 1 - e^(-u/T) (jvm.h), for every estimator.
  // nativemem: each allocation's marginal under the random phase, pi = min(1, s/T);
  // the group's bias is their sum, its variance and P(>= 1 sample) only for a
  // group of one allocation (or T <= 1, where everything is sampled).
  // tlab: none (inclusion follows each thread's TLAB state).
  EstimatorTheory theory(std::size_t estimator) const override {
    if (mode_ == Mode::tlab) return {};
    EstimatorTheory theory = per_allocation_theory(this, &AsyncProfilerScheme::allocation_theory, estimator);
    if (mode_ == Mode::nativemem && interval_ > 1) {
      theory.group = [](const GroupTotals& truth, const AllocationTheory& sums) {
        TheoryValues values;
        values.bias = sums.bias;
        if (truth.count == 1) {
          values.var = sums.variance;
          values.p_any_sample = -std::expm1(sums.log_p_none);
        }
        return values;
      };
    }
    return theory;
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
    const double size = static_cast<double>(allocated_size(trace, i));
    const double interval = static_cast<double>(interval_);
    if (mode_ == Mode::nativemem) {
      const double pi = interval_ <= 1 ? 1.0 : std::min(1.0, size / interval);
      const double weight = estimator == kBytes ? size : 1.0;
      return {pi * weight - weight, weight * weight * pi * (1 - pi), std::log1p(-pi)};
    }
    switch (estimator) {
      case kBytes: return weighted_inclusion_theory(size, interval, std::max(size, interval), size);
      case kCountRaw: return weighted_inclusion_theory(size, interval, 1.0, 1.0);
      default:
        return weighted_inclusion_theory(size, interval, size * exponential_unsampling_scale(size, interval), size);
    }
  }

  Mode mode_;
  std::uint64_t interval_;
  JvmTlabConfig tlab_;  // tlab mode only
  std::vector<EstimatorSpec> estimators_;
};

}  // namespace

SchemeDescriptor async_profiler_scheme() {
  return {
      .name = "async-profiler",
      .summary = "async-profiler's allocation profiles: -e alloc (JVMTI JEP 331 at T, each sample "
                 "worth max(size, T): biased down to -37% at s = T), tlab (-e alloc --tlab, or JDK < 11: "
                 "TLAB refills and outside-TLAB objects through one process-wide byte counter, each sample "
                 "worth the TLAB's or the object's size, unscaled: totals about V/T of the truth for T above "
                 "the TLAB size V) or nativemem (the same counter over malloc sizes, each sample worth its own "
                 "size: s min(1, s/T) expected). Flame graphs count samples (count_raw) unless --total.",
      .source = "async-profiler/async-profiler b583d82c2aa9 (2026-08-06): src/objectSampler.cpp "
                "recordAllocation, src/allocTracer.cpp trapHandler, src/mallocTracer.cpp recordMalloc, "
                "src/engine.h updateCounter, src/arguments.h DEFAULT_ALLOC_INTERVAL, src/profiler.cpp "
                "selectAllocEngine, docs/ProfilingModes.md",
      .parameters = {{"mode", "string", "alloc",
                      "\"alloc\": -e alloc on JDK 11+ (JVMTI sampler, weight max(size, T)); \"tlab\": -e alloc "
                      "--tlab or on JDK < 11 (TLAB-refill and outside-TLAB events through the global counter, "
                      "weight the TLAB's or object's size); \"nativemem\": the global malloc byte counter "
                      "(weight the malloc's size)"},
                     {"interval",
                      "integer",
                      524287,
                      "T in bytes. As shipped: alloc --alloc, absent or 0 meaning DEFAULT_ALLOC_INTERVAL = "
                      "524287 (here 0 samples every object); tlab --alloc, absent meaning 0 = every event (give "
                      "0 to match); nativemem 0 = every malloc alone, 524288 in `all` mode (<= 1: every "
                      "event); alias \"rate\"",
                      {"rate"}},
                     {"tlab", "integer", kJfrDefaultTlab,
                      "tlab mode: TLAB bytes, fixed (as -XX:TLABSize with -XX:-ResizeTLAB; the JVM adapts it per "
                      "thread)"},
                     {"tlab_max", "integer", kJfrDefaultTlabMax,
                      "tlab mode: largest TLAB in bytes (G1: half a region, 1 MiB with 2 MiB regions): a larger "
                      "object goes outside; 0: none"},
                     {"tlab_reserve", "integer", kJvmTlabReserve,
                      "tlab mode: alignment_reserve() in bytes (576 on x86-64 with C2)"}},
      .variants = {"alloc: HotSpot's sampler modelled as jvm with faithful=false (an ideal exponential "
                   "per thread, objects rounded up to 8 bytes); the shared LCG and table log are in "
                   "scheme jvm. interval 0 samples every object here; async-profiler turns --alloc 0 into "
                   "524287.",
                   "nativemem and tlab: the counter's starting value is uniform on 0..T-1, drawn per "
                   "replication (the real one is 0 at the profiler's start, somewhere in the program's "
                   "allocations), so results average over the phase. Their estimators are bytes (each "
                   "sample's own value, unscaled: the malloc's size; the TLAB's or outside object's size) and "
                   "count_raw; nativemem's bytes is biased by s/T - 1 below T, tlab's total by about V/T - 1 "
                   "above the TLAB size V.",
                   "tlab: jfr's TLAB model (fixed size, one contiguous heap, no GC within the trace, every "
                   "thread starting without a TLAB); HotSpot resizes TLABs per thread, so each thread's "
                   "profile is scaled by its own V/T. Streaming replay only.",
                   "Not modelled: --live, the OpenJ9 j9ObjectSampler path, frees (nativemem's leak mode)."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        using Mode = AsyncProfilerScheme::Mode;
        const JsonValue mode = params["mode"];
        Mode m = Mode::alloc;
        if (mode.string() == "nativemem") {
          m = Mode::nativemem;
        } else if (mode.string() == "tlab") {
          m = Mode::tlab;
        } else if (mode.string() != "alloc") {
          mode.fail("must be \"alloc\", \"tlab\" or \"nativemem\", got \"" + mode.string() + "\"");
        }
        const JsonValue interval = params["interval"];
        const std::uint64_t t = byte_count(interval);
        if (m == Mode::alloc && t > 0x7FFFFFFFu) interval.fail("must be at most 2^31 - 1 in alloc mode (a jint)");
        if (t > (std::uint64_t{1} << 62)) interval.fail("must be <= 2^62");
        JvmTlabConfig tlab;  // read in every mode (each declared key is read), used in tlab mode
        tlab.desired = byte_count(params["tlab"]) / 8 * 8;
        tlab.max = byte_count(params["tlab_max"]) / 8 * 8;
        tlab.reserve = byte_count(params["tlab_reserve"]) / 8 * 8;
        if (tlab.desired <= tlab.reserve) {
          params["tlab"].fail("must exceed tlab_reserve (" + std::to_string(tlab.reserve) + " bytes)");
        }
        if (tlab.max > 0 && tlab.max <= tlab.reserve) params["tlab_max"].fail("must be 0 or exceed tlab_reserve");
        return std::make_unique<AsyncProfilerScheme>(m, t, tlab);
      },
      .rate = SchemeRate{"interval"},
      .skip_ahead = true,
  };
}

}  // namespace allocsim
