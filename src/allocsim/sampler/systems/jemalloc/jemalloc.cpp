#include "allocsim/sampler/systems/jemalloc/jemalloc.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

#include <cmath>
#include <string>

#include "allocsim/estimate/wald_interval.h"
#include "allocsim/json/byte_size.h"

namespace allocsim {
namespace {

// How a sampled allocation of size class Z is weighted.
enum class JemallocWeight {
  code,         // round(Z / (1 - e^(-Z/R))) bytes, round(8 / (1 - e^(-Z/R))) / 8 allocations
  exponential,  // Z / (1 - e^(-Z/R)) and 1 / (1 - e^(-Z/R)) unrounded (the document's jeprof)
  geometric,    // Horvitz-Thompson with the true pi = 1 - (1 - 1/R)^Z (the document's framework)
};

class JemallocScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kBytesVariance, kCount, kCountVariance, kSampledBytes, kSamples, kRegisters };

  JemallocScheme(double rate, JemallocWeight weight)
      : rate_(rate), log_miss_(std::log1p(-1.0 / rate)), weight_(weight) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::allocated_bytes,
         "Z / (1 - exp(-Z/R)) per sampled allocation (size class Z; unbias-then-sum)", 2},
        {"count", Quantity::count, "1 / (1 - exp(-Z/R)) per sampled allocation, in eighths", 2},
        {"bytes_sum_then_unbias", Quantity::allocated_bytes,
         "jeprof on raw counts: S / (1 - exp(-(S/C)/R)) from a group's sampled bytes S and "
         "samples C (biased for mixed sizes)",
         2},
    };
    return specs;
  }

  const std::vector<IntervalSpec>& intervals() const override {
    static const std::vector<IntervalSpec> specs = {
        {"wald", 0, "normal approximation, variance estimate w^2 (1 - pi) per sampled allocation"},
        {"wald", 1, "normal approximation, variance estimate w^2 (1 - pi) per sampled allocation"},
    };
    return specs;
  }

  // bytes and count keep (estimate, unbiased variance estimate): a Wald interval.
  Interval interval(std::size_t /*interval*/, std::span<const double> registers, double level) const override {
    return wald_interval(registers[0], registers[1], level);
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, rate = rate_] {
      return std::make_unique<SamplerRun<JemallocSampler>>(trace, JemallocSampler(trace, rate));
    });
  }

  // The threads' usable-size prefix sums, shared by the runs.
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    auto usable = std::make_shared<const CountedStreams>(JemallocSampler::usable_streams(trace, index));
    return skip_ahead_runs([&trace, &index, rate = rate_, usable] {
      return std::make_unique<SkipAheadRun<JemallocSampler>>(trace, index, JemallocSampler(rate, usable));
    });
  }

  // Registers: bytes and count, each with its variance estimate, then the
  // sum-then-unbias pair (sampled bytes, samples). A weight w taken with the true
  // probability pi = 1 - (1 - 1/R)^Z has variance w^2 pi (1 - pi), which
  // w^2 (1 - pi) per sampled allocation estimates without bias whatever w is (the
  // code's rounded weights divide by 1 - e^(-Z/R), not by pi; the estimate is then
  // the variance of what the code reports, around its slightly biased mean).
  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kSampledBytes);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const std::uint64_t z = jemalloc_usable_size(parked_size(rows[o], kSampledBytes));
      const double p_none = std::exp(static_cast<double>(z) * log_miss_);  // 1 - pi
      const double bytes = byte_weight(z), count = count_weight(z);
      const auto registers = rows[o];
      registers[kBytes] = bytes;
      registers[kBytesVariance] = bytes * bytes * p_none;
      registers[kCount] = count;
      registers[kCountVariance] = count * count * p_none;
      registers[kSampledBytes] = static_cast<double>(z);
      registers[kSamples] = 1.0;
    }
  }

  // bytes and count: their estimate register. bytes_sum_then_unbias: jeprof's
  // AdjustSamples, scaling by the inverse inclusion probability of the group's
  // average sampled size.
  double finalize(std::size_t estimator, std::span<const double> registers) const override {
    if (estimator < 2) return registers[0];
    const double bytes = registers[0], samples = registers[1];
    if (samples == 0) return 0.0;
    return bytes / -std::expm1(-(bytes / samples) / rate_);
  }

  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    return jemalloc_usable_size(trace.requested[i]);
  }

  // Allocations are sampled independently with pi = 1 - (1 - 1/R)^Z: a weight w
  // taken with probability pi has mean pi w and variance w^2 pi (1 - pi).
  EstimatorTheory theory(std::size_t estimator) const override {
    if (estimator >= 2) return {};
    return per_allocation_theory(this, &JemallocScheme::allocation_theory, estimator);
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
    const std::uint64_t z = jemalloc_usable_size(trace.requested[i]);
    const double log_p_none = static_cast<double>(z) * log_miss_;
    const double pi = -std::expm1(log_p_none);
    const double w = estimator == 0 ? byte_weight(z) : count_weight(z);
    const double truth = estimator == 0 ? static_cast<double>(z) : 1.0;
    return {pi * w - truth, w * w * pi * (1 - pi), log_p_none};
  }

  // The inclusion probability the weights divide by.
  double assumed_inclusion(std::uint64_t z) const {
    const double zd = static_cast<double>(z);
    return weight_ == JemallocWeight::geometric ? -std::expm1(zd * log_miss_) : -std::expm1(-zd / rate_);
  }
  double byte_weight(std::uint64_t z) const {
    const double w = static_cast<double>(z) / assumed_inclusion(z);
    return weight_ == JemallocWeight::code ? std::round(w) : w;
  }
  // jemalloc keeps counts as integers in units of the smallest class (8).
  double count_weight(std::uint64_t z) const {
    constexpr double shift = 1 << kJemallocLgTinyMin;
    const double w = 1.0 / assumed_inclusion(z);
    return weight_ == JemallocWeight::code ? std::round(shift * w) / shift : w;
  }

  double rate_;
  double log_miss_;  // ln(1 - 1/R)
  JemallocWeight weight_;
};

}  // namespace

SchemeDescriptor jemalloc_scheme() {
  return {
      .name = "jemalloc",
      .summary = "jemalloc heap profiling: per-thread geometric(1/R) wait counted down over "
                 "size-class (usable) sizes, at most one sample per allocation, leftover "
                 "discarded; weights Z/(1-exp(-Z/R)) per size class.",
      .source = "jemalloc src/prof.c, src/prof_data.c, src/sc.c (295e489); "
                "doc_internal/PROFILING_INTERNALS.md",
      .parameters = {{"rate", "number", 524288, "mean bytes between sampled bytes R = 2^lg_prof_sample (R >= 1)"},
                     {"weight", "string", "code",
                      "code | exponential | geometric: how a sampled size class Z is weighted"}},
      .variants = {"weight=code (default, the code with prof_unbias:true): per-size-class weights "
                   "round(Z/(1-e^(-Z/R))) bytes and round(8/(1-e^(-Z/R)))/8 allocations, which jeprof "
                   "reproduces after prof_do_unbias's dump-time inversion.",
                   "weight=exponential (the document: 'jeprof unbiases by dividing by 1 - e^(-Z/R)'): "
                   "the same without integer rounding.",
                   "weight=geometric (the document's framework): Horvitz-Thompson with the sampler's "
                   "true inclusion probability 1-(1-1/R)^Z; exactly unbiased.",
                   "Estimator bytes_sum_then_unbias: the historical jeprof/pprof consumer (raw dumps, "
                   "prof_unbias:false or jemalloc < 5.3): unbias by each group's average sampled size "
                   "(PR #1897).",
                   "Not modelled: the per-thread 64-bit LCG (its 53-bit uniform has the same "
                   "distribution as the uniform used here), redraws in reentrant states, and "
                   "jemalloc's restriction of R to powers of two."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue rate = params["rate"];
        if (positive_byte_amount(rate) < 1) rate.fail("must be >= 1 (a probability 1/R <= 1)");
        const JsonValue weight = params["weight"];
        const std::string name = weight.string();
        if (name != "code" && name != "exponential" && name != "geometric") {
          weight.fail("unknown weight \"" + name + "\" (known: code, exponential, geometric)");
        }
        return std::make_unique<JemallocScheme>(positive_byte_amount(rate),
                                                name == "exponential" ? JemallocWeight::exponential
                                                : name == "geometric" ? JemallocWeight::geometric
                                                                      : JemallocWeight::code);
      },
      .rate = SchemeRate{},
      .family = SamplingFamily::per_allocation_exponential,
      .skip_ahead = true,
      // opt.lg_prof_sample sets R = 2^lg_prof_sample: powers of two only.
      .advice =
          AdviceRule{.settable_at_most = [](double interval) { return std::exp2(std::floor(std::log2(interval))); }},
      .profile_formats = {"jemalloc heap_v2"},
      .conformance = {jemalloc_driver()},
  };
}

}  // namespace allocsim
