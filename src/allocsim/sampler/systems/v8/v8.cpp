#include "allocsim/sampler/systems/v8/v8.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

#include <cmath>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/exponential_inclusion.h"

namespace allocsim {

// ScaleSample (sampling-heap-profiler.cc) on one (node, size) entry's raw count:
// the rounded count, and the bytes it stands for.
std::pair<double, double> v8_scale_sample(double count, double bytes, double rate) {
  if (count == 0) return {0, 0};
  const double size = bytes / count;
  const double scaled = std::floor(count * exponential_unsampling_scale(size, rate) + 0.5);
  return {scaled, scaled * size};
}

namespace {

class V8Scheme final : public Scheme {
 public:
  // bytes, count, then the raw (bytes, count) of each ScaleSample estimator.
  enum Register : std::size_t {
    kBytes,
    kCount,
    kRawBytes,
    kRawCount,
    kRawBytesForCount,
    kRawCountForCount,
    kRegisters
  };

  explicit V8Scheme(double rate) : rate_(rate) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::requested_bytes, "s / (1 - exp(-s/T)) per sample, unrounded"},
        {"count", Quantity::count, "1 / (1 - exp(-s/T)) per sample, unrounded"},
        {"bytes_rounded", Quantity::requested_bytes,
         "ScaleSample on the group's raw (count, bytes): size x round(count / (1 - exp(-size/T)))", 2},
        {"count_rounded", Quantity::count, "round(count / (1 - exp(-size/T))) of the same call", 2},
    };
    return specs;
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs(
        [&trace, rate = rate_] { return std::make_unique<SamplerRun<V8Sampler>>(trace, V8Sampler(rate)); });
  }

  // The threads' requested-byte streams, shared by the runs.
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    auto requested = std::make_shared<const CountedStreams>(CountedStreams::requested(index));
    return skip_ahead_runs([&trace, &index, rate = rate_, requested] {
      return std::make_unique<SkipAheadRun<V8Sampler>>(trace, index, V8Sampler(rate, requested));
    });
  }

  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kRawCountForCount);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double s = static_cast<double>(parked_size(rows[o], kRawCountForCount));
      const double scale = exponential_unsampling_scale(s, rate_);
      const auto registers = rows[o];
      registers[kBytes] = s * scale;
      registers[kCount] = scale;
      registers[kRawBytes] = registers[kRawBytesForCount] = s;
      registers[kRawCount] = registers[kRawCountForCount] = 1.0;
    }
  }

  double finalize(std::size_t estimator, std::span<const double> registers) const override {
    if (estimator < 2) return registers[0];
    const auto [count, bytes] = v8_scale_sample(registers[1], registers[0], rate_);
    return estimator == 2 ? bytes : count;
  }

  // pi = 1 - e^(-s/T), right to O(1/T) (v8.h); the step is at least 8 bytes, so
  // objects below 8 bytes are only sampled after a decremented step.
  EstimatorTheory theory(std::size_t estimator) const override {
    if (estimator >= 2) return {};
    return per_allocation_theory(this, &V8Scheme::allocation_theory, estimator);
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
    const double s = static_cast<double>(trace.requested[i]);
    const double scale = exponential_unsampling_scale(s, rate_);
    return estimator == 0 ? weighted_inclusion_theory(s, rate_, s * scale, s)
                          : weighted_inclusion_theory(s, rate_, scale, 1.0);
  }

  double rate_;
};

}  // namespace

SchemeDescriptor v8_scheme() {
  return {
      .name = "v8",
      .summary = "V8 SamplingHeapProfiler: steps of trunc(Exp(rate)) >= 8 bytes, the object "
                 "reaching the step is sampled, leftover discarded; ScaleSample rounds "
                 "count/(1-exp(-size/rate)) half up per (node, size).",
      .source = "v8 src/profiler/sampling-heap-profiler.cc (SampleObject, ScaleSample)",
      .parameters = {{"rate", "integer", 524288,
                      "sample_interval in bytes (StartSamplingHeapProfiler and Node default "
                      "512 KiB; DevTools HeapProfiler.startSampling 32768)"}},
      .variants = {"Countdown per thread, first-success reading of the allocation observer "
                   "(its overshoot handling unverified).",
                   "bytes / count: unrounded Horvitz-Thompson; bytes_rounded / count_rounded: "
                   "ScaleSample's half-up rounding applied to the whole group (exact when the "
                   "group is one (node, size) entry).",
                   "Not modelled: samples removed when the object is collected (the live "
                   "window here uses the trace's frees)."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue rate = params["rate"];
        if (positive_byte_count(rate) > 0x7FFFFFFFu) rate.fail("must be at most 2^31 - 1");
        return std::make_unique<V8Scheme>(static_cast<double>(positive_byte_count(rate)));
      },
      .rate = SchemeRate{},
      .family = SamplingFamily::per_allocation_exponential,
      .skip_ahead = true,
      .profile_formats = {"v8 pprof"},
      .estimator_legends = {{"bytes_rounded", "bytes, rounded per record"},
                            {"count_rounded", "count, rounded per record"}},
  };
}

}  // namespace allocsim
