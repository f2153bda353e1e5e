#include "allocsim/sampler/systems/async-profiler/async_profiler.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/exponential_inclusion.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"
#include "allocsim/sampler/systems/jvm/jvm.h"

namespace allocsim {
namespace {

class AsyncProfilerScheme final : public Scheme {
 public:
  enum class Mode { alloc, nativemem };
  // alloc: bytes, count_raw, bytes_ht; nativemem: bytes, count_raw.
  enum Register : std::size_t { kBytes, kCountRaw, kBytesHt };

  AsyncProfilerScheme(Mode mode, std::uint64_t interval) : mode_(mode), interval_(interval) {
    if (mode == Mode::alloc) {
      estimators_ = {
          {"bytes", Quantity::allocated_bytes,
           "max(u, T) per sample (async-profiler's _total_size, shown with --total)"},
          {"count_raw", Quantity::count,
           "1 per sample: the samples the flame graph counts by default (without --total)"},
          {"bytes_ht", Quantity::allocated_bytes,
           "u / (1 - exp(-u/T)) per sample: the Horvitz-Thompson reference, unbiased (not async-profiler's)"},
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
    return streaming_runs([&trace, interval = interval_] {
      return std::make_unique<SamplerRun<NativememSampler>>(trace, NativememSampler(interval));
    });
  }

  // alloc: the JVM's per-thread skip-ahead (not for T = 0, which samples empty
  // objects too); nativemem: the process-wide stream (not for T <= 1: every call).
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    if (mode_ == Mode::alloc) {
      if (interval_ == 0) return nullptr;
      const SizeColumn& requested = trace.requested;
      auto sizes = std::make_shared<const CountedStreams>(
          CountedStreams::per_thread(index, [&](std::uint64_t i) { return jvm_object_size(requested[i]); }));
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
      if (mode_ == Mode::nativemem) {
        registers[kBytes] = size;
        continue;
      }
      registers[kBytes] = std::max(size, interval);
      registers[kBytesHt] = size * exponential_unsampling_scale(size, interval);
    }
  }

  // alloc: the JVM's object size (rounded up to 8); nativemem: the malloc's request.
  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    return mode_ == Mode::alloc ? jvm_object_size(trace.requested[i]) : trace.requested[i];
  }

  // alloc: independent inclusion, pi = 1 - e^(-u/T) (jvm.h), for every estimator.
  // nativemem: each allocation's marginal under the random phase, pi = min(1, s/T);
  // the group's bias is their sum, its variance and P(>= 1 sample) only for a
  // group of one allocation (or T <= 1, where everything is sampled).
  EstimatorTheory theory(std::size_t estimator) const override {
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
  std::vector<EstimatorSpec> estimators_;
};

}  // namespace

SchemeDescriptor async_profiler_scheme() {
  return {
      .name = "async-profiler",
      .summary = "async-profiler's allocation profiles: -e alloc (JVMTI JEP 331 at T, each sample "
                 "worth max(size, T): biased down to -37% at s = T) or nativemem (one process-wide "
                 "byte counter firing at each multiple of T, each sample worth its own size: "
                 "s min(1, s/T) expected).",
      .source = "async-profiler/async-profiler b583d82 (2026-08): src/objectSampler.cpp, "
                "src/mallocTracer.cpp, src/engine.h updateCounter, src/arguments.h "
                "DEFAULT_ALLOC_INTERVAL",
      .parameters = {{"mode", "string", "alloc",
                      "\"alloc\": -e alloc on JDK 11+ (JVMTI sampler, weight max(size, T)); \"nativemem\": "
                      "the global malloc byte counter (weight the malloc's size)"},
                     {"interval",
                      "integer",
                      524287,
                      "T in bytes: --alloc (DEFAULT_ALLOC_INTERVAL = 524287; 0: every object) or the "
                      "nativemem interval (async-profiler's own: 0, every malloc, alone; 524288 in `all` "
                      "mode; <= 1: every malloc); alias \"rate\"",
                      {"rate"}}},
      .variants = {"alloc: HotSpot's sampler modelled as jvm with faithful=false (an ideal exponential "
                   "per thread, objects rounded up to 8 bytes); the shared LCG and table log are in "
                   "scheme jvm.",
                   "nativemem: the counter's starting value is uniform on 0..T-1, drawn per replication "
                   "(the real one is 0 at the profiler's start, somewhere in the program's allocations), "
                   "so results average over the phase.",
                   "Not modelled: tlab mode (src/allocTracer.cpp: the same global stride over TLAB and "
                   "outside-TLAB sizes, each sample worth the TLAB size), alloc on JDK < 11 (falls back "
                   "to tlab), --live, the OpenJ9 j9ObjectSampler path, frees (nativemem's leak mode)."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue mode = params["mode"];
        if (mode.string() != "alloc" && mode.string() != "nativemem") {
          mode.fail("must be \"alloc\" or \"nativemem\", got \"" + mode.string() + "\"");
        }
        const JsonValue interval = params["interval"];
        const std::uint64_t t = byte_count(interval);
        const bool alloc = mode.string() == "alloc";
        if (alloc && t > 0x7FFFFFFFu) interval.fail("must be at most 2^31 - 1 in alloc mode (a jint)");
        if (t > (std::uint64_t{1} << 62)) interval.fail("must be <= 2^62");
        return std::make_unique<AsyncProfilerScheme>(
            alloc ? AsyncProfilerScheme::Mode::alloc : AsyncProfilerScheme::Mode::nativemem, t);
      },
      .rate = SchemeRate{"interval"},
      .skip_ahead = true,
  };
}

}  // namespace allocsim
