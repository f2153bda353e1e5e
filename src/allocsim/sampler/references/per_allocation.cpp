#include "allocsim/sampler/references/per_allocation.h"

#include <cmath>

#include "allocsim/estimate/wald_interval.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

namespace allocsim {
namespace {

class PerAllocationScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kBytesVariance, kCount, kCountVariance, kRegisters };

  explicit PerAllocationScheme(double every) : every_(every) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::requested_bytes, "N * s per sampled allocation", 2},
        {"count", Quantity::count, "N per sampled allocation", 2},
    };
    return specs;
  }

  const std::vector<IntervalSpec>& intervals() const override {
    static const std::vector<IntervalSpec> specs = {
        {"wald", 0, "normal approximation, Horvitz-Thompson variance estimate N (N - 1) s^2"},
        {"wald", 1, "normal approximation, Horvitz-Thompson variance estimate N (N - 1)"},
    };
    return specs;
  }

  // bytes and count keep (estimate, unbiased variance estimate): a Wald interval.
  Interval interval(std::size_t /*interval*/, std::span<const double> registers, double level) const override {
    return wald_interval(registers[0], registers[1], level);
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, every = every_] {
      return std::make_unique<SamplerRun<PerAllocationSampler>>(trace, PerAllocationSampler(every));
    });
  }

  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    return skip_ahead_runs([&trace, &index, every = every_] {
      return std::make_unique<SkipAheadRun<PerAllocationSampler>>(trace, index, PerAllocationSampler(every));
    });
  }

  // Registers: estimate and Horvitz-Thompson variance estimate (1 - pi)/pi^2 y^2 with
  // pi = 1/N, i.e. w^2 (1 - 1/N) for a weight w = N y; its mean (N - 1) y^2 is the
  // variance below.
  void weigh(const Trace&, std::span<const Observation> observations, std::span<double> out) const override {
    const double keep = 1.0 - 1.0 / every_;
    const RegisterRows<kRegisters> rows(out, observations.size());
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double bytes = observations[o].weight;
      const auto registers = rows[o];
      registers[kBytes] = bytes;
      registers[kBytesVariance] = bytes * bytes * keep;
      registers[kCount] = every_;
      registers[kCountVariance] = every_ * every_ * keep;
    }
  }

  // N x with probability 1/N: mean x, variance x^2 (N - 1); x = Z for bytes, 1 for
  // count. ln P(not sampled) = ln(1 - 1/N), whatever the size.
  EstimatorTheory theory(std::size_t estimator) const override {
    return per_allocation_theory(this, &PerAllocationScheme::allocation_theory, estimator);
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
    const double x = estimator == 0 ? static_cast<double>(trace.requested[i]) : 1.0;
    return {0.0, x * x * (every_ - 1.0), std::log1p(-1.0 / every_)};
  }

  double every_;
};

}  // namespace

SchemeDescriptor per_allocation_scheme() {
  return {
      .name = "per-allocation",
      .summary = "Bernoulli sampling of allocations: each allocation sampled with probability 1/N "
                 "(geometric skips per thread), weight N*size; count N per sample.",
      .source = "Bernoulli sampling of allocations, the alternative to per-byte sampling in the "
                "heapprofd (Perfetto docs/design-docs/heapprofd-sampling.md) and Memray "
                "(docs/sampling.rst) documents",
      .parameters = {{"rate", "number", 100,
                      "N: mean allocations between samples, probability 1/N (N >= 1; no real "
                      "system's default)"}},
      .variants = {"A reference design, not one system's code: the documents discuss it only "
                   "to prefer sampling bytes."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue rate = params["rate"];
        if (rate.positive_number() < 1) rate.fail("must be >= 1 (a probability 1/N <= 1)");
        return std::make_unique<PerAllocationScheme>(rate.positive_number());
      },
      .rate = SchemeRate{.unit = RateUnit::allocations},
      .family = SamplingFamily::per_allocation_fixed,
      .skip_ahead = true,
      .advice = AdviceRule{},
  };
}

}  // namespace allocsim
