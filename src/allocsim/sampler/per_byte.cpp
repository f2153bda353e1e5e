#include "allocsim/sampler/per_byte.h"

#include <cmath>

#include "allocsim/estimate/wald_interval.h"
#include "allocsim/stats/count_theory.h"

namespace allocsim {
namespace {

class PerByteScheme final : public Scheme {
 public:
  explicit PerByteScheme(double rate) : rate_(rate) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::requested_bytes, "T * sampled bytes", 2},
        {"count", Quantity::count, "1 / (1 - (1 - 1/T)^s) per sampled allocation", 2},
    };
    return specs;
  }

  // Registers: (estimate, unbiased variance estimate) for both estimators. For T*n
  // with n ~ Binomial(S, 1/T), E[(T - 1) T n] = S (T - 1) = Var; for the
  // Horvitz-Thompson count, (1 - pi)/pi^2 per sampled allocation.
  const std::vector<IntervalSpec>& intervals() const override {
    static const std::vector<IntervalSpec> specs = {
        {"wald", 0, "normal approximation from the variance estimate (T - 1) T n"},
        {"wald", 1, "normal approximation from the Horvitz-Thompson variance estimate"},
    };
    return specs;
  }

  Interval interval(std::size_t j, std::span<const double> registers, double level) const override {
    (void)j;
    return wald_interval(registers[0], registers[1], level);
  }

  std::unique_ptr<SchemeRun> start(const Trace& trace) const override {
    return std::make_unique<SamplerRun<PerByteSampler>>(trace, PerByteSampler(rate_));
  }

  void weigh(const Trace& trace, std::span<const Observation> observations,
             std::span<double> out) const override {
    const double log_miss = std::log1p(-1.0 / rate_);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const Observation& obs = observations[o];
      const double s = static_cast<double>(trace.requested[obs.event]);
      const double pi = rate_ == 1.0 ? 1.0 : -std::expm1(s * log_miss);
      double* registers = &out[4 * o];
      registers[0] = rate_ * obs.samples;
      registers[1] = (rate_ - 1.0) * rate_ * obs.samples;
      registers[2] = 1.0 / pi;
      registers[3] = (1.0 - pi) / (pi * pi);
    }
  }

  // The count estimator is Horvitz-Thompson with pi = 1 - (1 - 1/T)^s: variance
  // (1 - pi)/pi per allocation; a zero-size allocation is never sampled (bias -1).
  bool has_allocation_theory(std::size_t estimator) const override { return estimator == 1; }
  AllocationTheory allocation_theory(std::size_t, const Trace& trace, std::size_t i) const override {
    const double s = static_cast<double>(trace.requested[i]);
    if (s == 0) return {-1.0, 0.0, 0.0};
    if (rate_ == 1.0) return {0.0, 0.0, -INFINITY};
    const double log_miss = s * std::log1p(-1.0 / rate_);
    return {0.0, std::exp(log_miss) / -std::expm1(log_miss), log_miss};
  }

  TheoryValues theory(std::size_t estimator, const GroupTotals& truth,
                      const AllocationTheory& sums) const override {
    if (estimator == 0) {
      return binomial_scaled_count_theory(static_cast<std::uint64_t>(truth.requested_bytes),
                                          1.0 / rate_, rate_);
    }
    return Scheme::theory(estimator, truth, sums);
  }

 private:
  double rate_;
};

}  // namespace

SchemeDescriptor per_byte_scheme() {
  return {
      .name = "per-byte",
      .summary = "Exact reference: an independent Bernoulli(1/T) trial for every requested byte; "
                 "estimate T * sampled bytes. Slow (one random number per byte).",
      .source = "heapprofd design document (seeds/000) 'Conceptual motivation'; Memray "
                "documentation (seeds/004) 'Bernoulli process'",
      .parameters = {{"rate", "number", 4096, "inverse per-byte probability T (T >= 1)"}},
      .variants = {"The definition both documents start from; no real profiler runs it."},
      .create =
          [](JsonObject& params) -> std::unique_ptr<Scheme> {
        double rate = 4096;
        if (auto v = params.maybe("rate")) {
          rate = v->positive_number();
          if (rate < 1) v->fail("must be >= 1 (a probability 1/T <= 1)");
        }
        return std::make_unique<PerByteScheme>(rate);
      },
  };
}

}  // namespace allocsim
