#include "allocsim/sampler/poisson.h"

#include <cmath>

#include "allocsim/estimate/wald_interval.h"
#include "allocsim/stats/count_theory.h"

namespace allocsim {
namespace {

class PoissonScheme final : public Scheme {
 public:
  explicit PoissonScheme(double rate) : rate_(rate) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::requested_bytes, "T * samples per sampled allocation", 2},
        {"count", Quantity::count, "1 / (1 - exp(-s/T)) per sampled allocation", 2},
    };
    return specs;
  }

  // Registers: (estimate, unbiased variance estimate) for both estimators. For
  // T*n with n ~ Poisson(S/T), E[T^2 n] = T*S = Var; for the Horvitz-Thompson count,
  // (1 - pi)/pi^2 per sampled allocation.
  const std::vector<IntervalSpec>& intervals() const override {
    static const std::vector<IntervalSpec> specs = {
        {"wald", 0, "normal approximation from the variance estimate T^2 n"},
        {"wald", 1, "normal approximation from the Horvitz-Thompson variance estimate"},
    };
    return specs;
  }

  Interval interval(std::size_t j, std::span<const double> registers, double level) const override {
    (void)j;
    return wald_interval(registers[0], registers[1], level);
  }

  std::unique_ptr<SchemeRun> start(const Trace& trace) const override {
    return std::make_unique<SamplerRun<PoissonSampler>>(trace, PoissonSampler(rate_));
  }

  std::unique_ptr<SchemeRun> start_skip_ahead(const Trace& trace, const ThreadIndex& index) const override {
    return std::make_unique<SkipAheadRun<PoissonSampler>>(trace, index, PoissonSampler(rate_));
  }

  void weigh(const Trace& trace, std::span<const Observation> observations,
             std::span<double> out) const override {
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const Observation& obs = observations[o];
      const double s = static_cast<double>(trace.requested[obs.event]);
      const double pi = -std::expm1(-s / rate_);
      double* registers = &out[4 * o];
      registers[0] = rate_ * obs.samples;
      registers[1] = rate_ * rate_ * obs.samples;
      registers[2] = 1.0 / pi;
      registers[3] = (1.0 - pi) / (pi * pi);
    }
  }

  // The count estimator is Horvitz-Thompson with P(sampled) = 1 - e^(-s/T): its
  // contribution 1/pi with probability pi has variance (1 - pi)/pi = 1/(e^(s/T) - 1).
  // A zero-size allocation is never sampled and is missed (bias -1).
  bool has_allocation_theory(std::size_t estimator) const override { return estimator == 1; }
  AllocationTheory allocation_theory(std::size_t, const Trace& trace, std::size_t i) const override {
    const double s = static_cast<double>(trace.requested[i]);
    if (s == 0) return {-1.0, 0.0, 0.0};
    return {0.0, 1.0 / std::expm1(s / rate_), -s / rate_};
  }

  TheoryValues theory(std::size_t estimator, const GroupTotals& truth,
                      const AllocationTheory& sums) const override {
    if (estimator == 0) return poisson_scaled_count_theory(truth.requested_bytes / rate_, rate_);
    return Scheme::theory(estimator, truth, sums);
  }

 private:
  double rate_;
};

}  // namespace

SchemeDescriptor poisson_scheme() {
  return {
      .name = "poisson",
      .summary = "Idealised Poisson-process sampler: continuous Exp(T) gaps counted down over "
                 "requested bytes per thread, several samples per allocation, estimate T*n.",
      .source = "heapprofd design document (seeds/000), 'Implementation' step 3",
      .parameters = {{"rate", "number", 4096, "mean bytes between sample points (T)"}},
      .variants = {"Ideal continuous gaps; the discrete floor(Exp)+1 gaps of the real heapprofd "
                   "code are the `heapprofd` scheme."},
      .create =
          [](JsonObject& params) -> std::unique_ptr<Scheme> {
        double rate = 4096;
        if (auto v = params.maybe("rate")) rate = v->positive_number();
        return std::make_unique<PoissonScheme>(rate);
      },
  };
}

}  // namespace allocsim
