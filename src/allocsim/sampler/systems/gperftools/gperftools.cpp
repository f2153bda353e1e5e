#include "allocsim/sampler/systems/gperftools/gperftools.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

#include <cmath>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/exponential_inclusion.h"

namespace allocsim {
namespace {

class GperftoolsScheme final : public Scheme {
 public:
  // bytes, count, then (S, C) for each sum-then-unbias estimator.
  enum Register : std::size_t { kBytes, kCount, kBytesSum, kBytesSamples, kCountSum, kCountSamples, kRegisters };

  GperftoolsScheme(std::uint64_t period, bool faithful, std::uint64_t startup_counter)
      : period_(period), faithful_(faithful), startup_counter_(startup_counter) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::requested_bytes,
         "pprof: r / (1 - exp(-r/T)) per sampled object (each is its own line of the heap sample)"},
        {"count", Quantity::count,
         "pprof: 1 / (1 - exp(-r/T)) per sampled object (each is its own line of the heap sample)"},
        {"bytes_sum_then_unbias", Quantity::requested_bytes,
         "S / (1 - exp(-(S/C)/T)) from a group's sampled requested bytes S and samples C (lines summed "
         "per stack before scaling; not what pprof does)",
         2},
        {"count_sum_then_unbias", Quantity::count,
         "C / (1 - exp(-(S/C)/T)) from a group's sampled requested bytes S and samples C (lines summed "
         "per stack before scaling; not what pprof does)",
         2},
    };
    return specs;
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, period = period_, faithful = faithful_, startup = startup_counter_] {
      return std::make_unique<SamplerRun<GperftoolsSampler>>(trace,
                                                             GperftoolsSampler(trace, period, faithful, startup));
    });
  }

  // Registers: bytes, count, then (S, C) twice.
  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kCountSamples);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const std::uint64_t r = parked_size(rows[o], kCountSamples);
      const double scale = inverse_inclusion(r);
      const auto registers = rows[o];
      registers[kBytes] = static_cast<double>(r) * scale;
      registers[kCount] = scale;
      registers[kBytesSum] = registers[kCountSum] = static_cast<double>(r);
      registers[kBytesSamples] = registers[kCountSamples] = 1.0;
    }
  }

  // Per-stack scaling by the stack's average sampled size (the *_sum_then_unbias variants).
  double finalize(std::size_t estimator, std::span<const double> registers) const override {
    if (estimator < 2) return registers[0];
    const double bytes = registers[0], samples = registers[1];
    if (samples == 0) return 0.0;
    const double scale = exponential_unsampling_scale(bytes / samples, static_cast<double>(period_));
    return (estimator == 2 ? bytes : samples) * scale;
  }

  std::uint64_t unsampled_start() const override { return startup_counter_; }

  // Independent sampling with pi = 1 - e^(-k/T), k the counted size; the per-sample
  // weight w divides by 1 - e^(-r/T): mean pi w, variance w^2 pi (1 - pi).
  // (Only without the start-up counter: it makes the first 16 MiB depend on each other.)
  EstimatorTheory theory(std::size_t estimator) const override {
    if (estimator >= 2 || startup_counter_ != 0) return {};
    return per_allocation_theory(this, &GperftoolsScheme::allocation_theory, estimator);
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
    const std::uint64_t r = trace.requested[i];
    const double log_p_none = -static_cast<double>(gperftools_counted_size(trace, i)) / static_cast<double>(period_);
    const double pi = -std::expm1(log_p_none);
    const double w = (estimator == 0 ? static_cast<double>(r) : 1.0) * inverse_inclusion(r);
    const double truth = estimator == 0 ? static_cast<double>(r) : 1.0;
    return {pi * w - truth, w * w * pi * (1 - pi), log_p_none};
  }

  // 1 / (1 - e^(-r/T)): pprof's scale for a stack whose samples all have size r.
  double inverse_inclusion(std::uint64_t r) const {
    return exponential_unsampling_scale(static_cast<double>(r), static_cast<double>(period_));
  }

  std::uint64_t period_;
  bool faithful_;
  std::uint64_t startup_counter_;
};

}  // namespace

SchemeDescriptor gperftools_scheme() {
  return {
      .name = "gperftools",
      .summary = "gperftools 2.10 tcmalloc: per-thread counter trunc(Exp(T)) decremented by the "
                 "size-class size (requested above 256 KiB), sampled when it is below the size, "
                 "leftover discarded; pprof scales by 1/(1-exp(-r/T)) of the requested size.",
      .source = "gperftools 2.10 src/sampler.h, src/sampler.cc, src/tcmalloc.cc; pprof heap "
                "profile scaling",
      .parameters = {{"rate", "integer", 524288, "TCMALLOC_SAMPLE_PARAMETER T in bytes (T >= 1)"},
                     {"faithful", "boolean", true,
                      "draw intervals with the 48-bit LCG and 26-bit quantised log (false: ideal exponential)"},
                     {"startup_counter", "integer", kGperftoolsStartupCounter,
                      "thread 0's first counter: 16 MiB, the 'off' value the main thread starts with when "
                      "tcmalloc's first malloc precedes the flag's initialisation; 0 = a fresh draw"}},
      .variants = {"startup_counter=16777216 (default, measured with the Debian 2.10 shared library): the "
                   "main thread samples nothing in its first 16 MiB and always samples the allocation "
                   "crossing it; startup_counter=0: the design (a fresh draw).",
                   "Counted size: the size class for requests up to 256 KiB, the request above (not "
                   "r + 1 as in google/tcmalloc); the sampler's pi = 1 - e^(-a/T) while pprof divides "
                   "by 1 - e^(-r/T), so estimates are high by about a/r for small requests.",
                   "Counter: trunc(-T ln(q/2^26)), sampled iff counter < k; no kIntervalOffset.",
                   "Estimators bytes/count: pprof's, which scales each line of the heap sample by its "
                   "own average size, and tcmalloc writes every sampled object as a line of its own "
                   "(MallocExtension::GetHeapSample); bytes_sum_then_unbias/count_sum_then_unbias: a "
                   "stack's lines summed first and scaled by their average requested size, which on a "
                   "stack of mixed sizes is biased low.",
                   "Size classes come from the trace's allocated column (the conformance driver "
                   "records tc_nallocx); without it the counted size is the request."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        return std::make_unique<GperftoolsScheme>(positive_byte_count(params["rate"]), params["faithful"].boolean(),
                                                  params["startup_counter"].uint());
      },
      .rate = SchemeRate{},
      .family = SamplingFamily::per_allocation_exponential,
      .profile_formats = {"gperftools heap_v2"},
      .conformance = {gperftools_driver()},
  };
}

}  // namespace allocsim
