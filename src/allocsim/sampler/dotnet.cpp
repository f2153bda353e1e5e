#include "allocsim/sampler/dotnet.h"

#include <bit>
#include <string>

namespace allocsim {
namespace {

class DotnetScheme final : public Scheme {
 public:
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
        {"bytes", Quantity::allocated_bytes, "s / (1 - q^s) per sampled object (estimator 1)"},
        {"bytes_nb", Quantity::allocated_bytes,
         "s q/p + sum (s - offset): q/p + s - offset per sampled object (estimator 2)"},
        {"count", Quantity::count, "1 / (1 - q^s) per sampled object"},
    };
    return specs;
  }

  std::unique_ptr<SchemeRun> start(const Trace& trace) const override {
    return std::make_unique<SamplerRun<DotnetSampler>>(trace,
                                                       DotnetSampler(rate_, pointer_size_, document_draw_));
  }

  void weigh(const Trace& trace, std::span<const Observation> observations,
             std::span<double> out) const override {
    const double q_over_p = rate_ - 1;
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const Observation& obs = observations[o];
      const double s = static_cast<double>(dotnet_object_size(trace.requested[obs.event], pointer_size_));
      const double inverse_pi = -1.0 / std::expm1(s * log_q_);
      out[3 * o] = s * inverse_pi;
      out[3 * o + 1] = q_over_p + s - static_cast<double>(obs.offset);
      out[3 * o + 2] = inverse_pi;
    }
  }

  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    return dotnet_object_size(trace.requested[i], pointer_size_);
  }

  // Objects are sampled independently with pi = 1 - miss^s. A weight w taken with
  // probability pi: mean pi w, variance w^2 pi (1 - pi). Failed-trials estimator (see
  // dotnet.h), O ~ failures before a success with the draw's per-byte miss, mean mu,
  // variance sigma^2, delta = q/p - mu: E[X] = s + delta pi,
  // Var[X] = sigma^2 pi + (1 - pi) delta (2 s + delta pi).
  bool has_allocation_theory(std::size_t) const override { return true; }
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace,
                                     std::size_t i) const override {
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

 private:
  double rate_;
  std::uint64_t pointer_size_;
  bool document_draw_;
  double log_q_;               // ln(1 - 1/T): the estimators' q
  double log_miss_;            // ln of the sampler's per-byte miss probability
  double failures_mean_;       // miss / (1 - miss)
  double failures_variance_;   // miss / (1 - miss)^2
};

}  // namespace

SchemeDescriptor dotnet_scheme() {
  return {
      .name = "dotnet",
      .summary = ".NET AllocationSampled: per-thread budget floor(-ln(1-u)*102400) of failed "
                 "trials over pointer-aligned object sizes, first success per object (with its "
                 "offset), fresh draw after each sampled object; Horvitz-Thompson and "
                 "failed-trials estimators.",
      .source = "dotnet/runtime gcheaputilities.h, gchelpers.cpp; RandomizedAllocationSampling.md "
                "(seeds/002)",
      .parameters =
          {{"rate", "number", 102400,
            "mean bytes per sampled byte 1/p (fixed at 102400 in the runtime; T >= 1)"},
           {"pointer_size", "integer", 8, "object sizes are rounded up to this (a power of two)"},
           {"draw", "string", "code",
            "code: floor(-ln(1-u) T), per-byte success 1-e^(-1/T); document: "
            "floor(ln(1-u)/ln(1-p)), exactly p = 1/T"}},
      .variants =
          {"draw=code (default, the runtime): floor of an exponential, i.e. geometric failures "
           "with per-byte success 1 - e^(-1/T); the estimators still use the document's q = 1 - 1/T "
           "(relative bias <= ~1/(2T) for bytes and count, about -1/2 byte per sample for "
           "bytes_nb). draw=document: the document's exact geometric with p = 1/T; all three "
           "estimators unbiased.",
           "Estimator 2 is the document's s q/p + u; its confidence interval (negative binomial) "
           "is not part of this scheme.",
           "Not modelled: the runtime's 32-bit xoshiro128++ uniform (caps a budget at ~22.18 T), "
           "allocation-context refills and slow-path redraws (they discard trials independently "
           "of their outcomes, which leaves the distribution unchanged, as the document argues), "
           "and the minimum object size (a 0-byte request stays 0 bytes and is never sampled)."},
      .create =
          [](JsonObject& params) -> std::unique_ptr<Scheme> {
        double rate = 102400;
        std::uint64_t pointer_size = 8;
        bool document_draw = false;
        if (auto v = params.maybe("rate")) {
          rate = v->positive_number();
          if (rate < 1) v->fail("must be >= 1 (a probability 1/T <= 1)");
        }
        if (auto v = params.maybe("pointer_size")) {
          pointer_size = v->positive_uint();
          if (!std::has_single_bit(pointer_size)) v->fail("must be a power of two");
        }
        if (auto v = params.maybe("draw")) {
          const std::string name = v->string();
          if (name == "document") {
            document_draw = true;
          } else if (name != "code") {
            v->fail("unknown draw \"" + name + "\" (known: code, document)");
          }
        }
        return std::make_unique<DotnetScheme>(rate, pointer_size, document_draw);
      },
  };
}

}  // namespace allocsim
