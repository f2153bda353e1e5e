#include "allocsim/sampler/systems/dotnet/dotnet.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

#include <bit>
#include <string>

#include "allocsim/estimate/bytes_interval.h"
#include "allocsim/estimate/wald_interval.h"
#include "allocsim/json/byte_size.h"

namespace allocsim {
namespace {

class DotnetScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kBytesVariance, kSamples, kTailBytes, kCount, kCountVariance, kRegisters };

  DotnetScheme(double rate, std::uint64_t pointer_size, bool document_draw)
      : rate_(rate),
        pointer_size_(pointer_size),
        document_draw_(document_draw),
        log_q_(std::log1p(-1.0 / rate)),
        log_miss_(document_draw ? log_q_ : -1.0 / rate),
        failures_mean_(-std::exp(log_miss_) / std::expm1(log_miss_)),
        failures_variance_(failures_mean_ / -std::expm1(log_miss_)) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::allocated_bytes, "s / (1 - q^s) per sampled object (estimator 1)", 2},
        {"bytes_nb", Quantity::allocated_bytes,
         "s q/p + u from the group's samples s and tail bytes u = sum (size - offset) (estimator 2)", 2},
        {"count", Quantity::count, "1 / (1 - q^s) per sampled object", 2},
    };
    return specs;
  }

  const std::vector<IntervalSpec>& intervals() const override {
    static const std::vector<IntervalSpec> specs = {
        {"wald", 0, "normal approximation, variance estimate w^2 (1 - pi) per sampled object"},
        {"nb-exact", 1, "the document's negative binomial interval, exact quantiles"},
        {"nb-camp-paulson", 1, "the document's negative binomial interval, Camp-Paulson quantiles"},
        {"nb-exact-corrected", 1,
         "exact, with the boundary correction (lower bound from s - 1 samples, upper from s + 1)"},
        {"nb-camp-paulson-corrected", 1, "Camp-Paulson, with the boundary correction"},
        {"wald", 2, "normal approximation, variance estimate w^2 (1 - pi) per sampled object"},
    };
    return specs;
  }

  // Intervals 1-4 are bytes_interval() (bytes_interval.h) on the registers (s, u) of
  // bytes_nb; the others are Wald intervals on (estimate, variance estimate).
  // s = 0 without the boundary correction: bytes_interval rejects it (a sample-aligned
  // window without samples is empty), so the answer is what the estimate gives,
  // [u, u] = [0, 0], which misses every non-empty group.
  Interval interval(std::size_t interval, std::span<const double> registers, double level) const override {
    if (interval == 0 || interval == 5) return wald_interval(registers[0], registers[1], level);
    const std::int64_t samples = std::llround(registers[0]);
    const std::int64_t tail_bytes = std::llround(registers[1]);
    const bool corrected = interval >= 3;
    if (samples == 0 && !corrected) return {registers[1], registers[1]};
    const interval::BytesInterval b = interval::bytes_interval(
        {.samples = samples,
         .tail_bytes = tail_bytes,
         .p = 1.0 / rate_,
         .level = level,
         .method = interval % 2 == 1 ? interval::IntervalMethod::exact : interval::IntervalMethod::camp_paulson,
         .boundary_correction = corrected});
    return {b.lower, b.upper};
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, rate = rate_, pointer_size = pointer_size_, document_draw = document_draw_] {
      return std::make_unique<SamplerRun<DotnetSampler>>(trace, DotnetSampler(rate, pointer_size, document_draw));
    });
  }

  // The threads' object-size prefix sums, shared by the runs.
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    auto objects = std::make_shared<const CountedStreams>(DotnetSampler::object_streams(trace, index, pointer_size_));
    return skip_ahead_runs(
        [&trace, &index, rate = rate_, pointer_size = pointer_size_, document_draw = document_draw_, objects] {
          return std::make_unique<SkipAheadRun<DotnetSampler>>(
              trace, index, DotnetSampler(rate, pointer_size, document_draw, objects));
        });
  }

  // Registers: bytes and its variance estimate; bytes_nb's samples and tail bytes;
  // count and its variance estimate. A weight w taken with the sampler's true
  // probability pi = 1 - miss^s has variance w^2 pi (1 - pi), estimated without
  // bias by w^2 (1 - pi) per sampled object (w divides by the document's
  // 1 - q^s; under the code's draw pi differs from it by ~1/(2T) relative).
  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kCountVariance);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const Observation& obs = observations[o];
      const double s = static_cast<double>(dotnet_object_size(parked_size(rows[o], kCountVariance), pointer_size_));
      const double inverse_pi = -1.0 / std::expm1(s * log_q_);
      const double p_none = std::exp(s * log_miss_);
      const double bytes = s * inverse_pi;
      const auto registers = rows[o];
      registers[kBytes] = bytes;
      registers[kBytesVariance] = bytes * bytes * p_none;
      registers[kSamples] = 1.0;
      registers[kTailBytes] = s - static_cast<double>(obs.offset);
      registers[kCount] = inverse_pi;
      registers[kCountVariance] = inverse_pi * inverse_pi * p_none;
    }
  }

  // bytes_nb = s q/p + u (linear in its registers, so its theory is unchanged);
  // the others: their estimate register.
  double finalize(std::size_t estimator, std::span<const double> registers) const override {
    return estimator == 1 ? registers[0] * (rate_ - 1) + registers[1] : registers[0];
  }

  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    return dotnet_object_size(trace.requested[i], pointer_size_);
  }

  // Objects are sampled independently with pi = 1 - miss^s. A weight w taken with
  // probability pi: mean pi w, variance w^2 pi (1 - pi). Failed-trials estimator (see
  // dotnet.h), O ~ failures before a success with the draw's per-byte miss, mean mu,
  // variance sigma^2, delta = q/p - mu: E[X] = s + delta pi,
  // Var[X] = sigma^2 pi + (1 - pi) delta (2 s + delta pi).
  EstimatorTheory theory(std::size_t estimator) const override {
    return per_allocation_theory(this, &DotnetScheme::allocation_theory, estimator);
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
    const double s = static_cast<double>(dotnet_object_size(trace.requested[i], pointer_size_));
    if (s == 0) return {estimator == 2 ? -1.0 : 0.0, 0.0, 0.0};  // never sampled
    const double log_p_none = s * log_miss_;
    const double pi = -std::expm1(log_p_none);
    if (estimator == 1) {
      const double delta = (rate_ - 1) - failures_mean_;
      return {delta * pi, failures_variance_ * pi + (1 - pi) * delta * (2 * s + delta * pi), log_p_none};
    }
    const double inverse_pi_assumed = -1.0 / std::expm1(s * log_q_);
    const double w = estimator == 0 ? s * inverse_pi_assumed : inverse_pi_assumed;
    const double truth = estimator == 0 ? s : 1.0;
    return {pi * w - truth, w * w * pi * (1 - pi), log_p_none};
  }

  double rate_;
  std::uint64_t pointer_size_;
  bool document_draw_;
  double log_q_;              // ln(1 - 1/T): the estimators' q
  double log_miss_;           // ln of the sampler's per-byte miss probability
  double failures_mean_;      // miss / (1 - miss)
  double failures_variance_;  // miss / (1 - miss)^2
};

}  // namespace

SchemeDescriptor dotnet_scheme() {
  return {
      .name = "dotnet",
      .summary = ".NET AllocationSampled: per-thread budget floor(-ln(1-u)*102400) of failed "
                 "trials over pointer-aligned object sizes, first success per object (with its "
                 "offset), fresh draw after each sampled object; Horvitz-Thompson and "
                 "failed-trials estimators.",
      .source = "dotnet/runtime gcheaputilities.h, gchelpers.cpp; "
                "docs/design/features/RandomizedAllocationSampling.md",
      .parameters = {{"rate", "number", kDotnetSamplingMean,
                      "mean bytes per sampled byte 1/p (fixed at 102400 in the runtime; T > 1)"},
                     {"pointer_size", "integer", 8, "object sizes are rounded up to this (a power of two)"},
                     {"draw", "string", "code",
                      "code: floor(-ln(1-u) T), per-byte success 1-e^(-1/T); document: "
                      "floor(ln(1-u)/ln(1-p)), exactly p = 1/T"}},
      .variants = {"draw=code (default, the runtime): floor of an exponential, i.e. geometric failures "
                   "with per-byte success 1 - e^(-1/T); the estimators still use the document's q = 1 - 1/T "
                   "(relative bias <= ~1/(2T) for bytes and count, about -1/2 byte per sample for "
                   "bytes_nb). draw=document: the document's exact geometric with p = 1/T; all three "
                   "estimators unbiased.",
                   "Estimator 2 is the document's s q/p + u with its negative binomial interval "
                   "(nb-exact, nb-camp-paulson, and both with the boundary correction), taken per group "
                   "with p = 1/T; the document derives it for one thread's window, so it holds for the "
                   "total of a one-thread trace (its end is not on a sample: use the correction).",
                   "Not modelled: the runtime's 32-bit xoshiro128++ uniform (caps a budget at ~22.18 T), "
                   "allocation-context refills and slow-path redraws (they discard trials independently "
                   "of their outcomes, which leaves the distribution unchanged, as the document argues), "
                   "and the minimum object size (a 0-byte request stays 0 bytes and is never sampled)."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue rate = params["rate"];
        // The negative binomial intervals need q = 1 - 1/T > 0 (bytes_interval.h).
        if (positive_byte_amount(rate) <= 1) {
          rate.fail("must be > 1 (a probability 1/T < 1: the intervals need q = 1 - 1/T > 0)");
        }
        const JsonValue pointer_size = params["pointer_size"];
        if (!std::has_single_bit(pointer_size.positive_uint())) pointer_size.fail("must be a power of two");
        const JsonValue draw = params["draw"];
        if (draw.string() != "code" && draw.string() != "document") {
          draw.fail("unknown draw \"" + draw.string() + "\" (known: code, document)");
        }
        return std::make_unique<DotnetScheme>(positive_byte_amount(rate), pointer_size.positive_uint(),
                                              draw.string() == "document");
      },
      .rate = SchemeRate{},
      .skip_ahead = true,
      // The negative binomial intervals need T > 1 (above): advised from 2 bytes.
      // The runtime's mean is a constant (no setting changes it).
      .advice = AdviceRule{.least_interval = 2, .fixed_interval = kDotnetSamplingMean},
      .estimator_legends = {{"bytes_nb", "bytes, estimate 2 (s·q/p + u)"}},
  };
}

}  // namespace allocsim
