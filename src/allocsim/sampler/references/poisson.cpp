#include "allocsim/sampler/references/poisson.h"

#include <cmath>

#include "allocsim/estimate/count_theory.h"
#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/byte_rate_scheme.h"
#include "allocsim/sampler/sampler_runs.h"

namespace allocsim {
namespace {

class PoissonScheme final : public ByteRateScheme {
 public:
  using ByteRateScheme::ByteRateScheme;

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs(
        [&trace, rate = rate_] { return std::make_unique<SamplerRun<PoissonSampler>>(trace, PoissonSampler(rate)); });
  }

  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    return skip_ahead_runs([&trace, &index, rate = rate_] {
      return std::make_unique<SkipAheadRun<PoissonSampler>>(trace, index, PoissonSampler(rate));
    });
  }

 protected:
  // n ~ Poisson(S/T) for a group of S bytes (poisson.h).
  TheoryValues bytes_theory(const GroupTotals& truth) const override {
    return poisson_scaled_count_theory(truth.requested_bytes / rate_, rate_);
  }
  double log_p_none(double size) const override { return -size / rate_; }
  // n ~ Poisson(s/T): E[T^2 n] = T s = Var(T n).
  double bytes_variance_estimate(std::uint32_t samples) const override { return rate_ * rate_ * samples; }
};

}  // namespace

SchemeDescriptor poisson_scheme() {
  return {
      .name = "poisson",
      .summary = "Idealised Poisson-process sampler: continuous Exp(T) gaps counted down over "
                 "requested bytes per thread, several samples per allocation, estimate T*n.",
      .source = "Perfetto docs/design-docs/heapprofd-sampling.md, 'Implementation' step 3",
      .parameters = {{"rate", "number", 4096, "mean bytes between sample points (T >= 1)"}},
      .variants = {"Ideal continuous gaps; the discrete floor(Exp)+1 gaps of the real heapprofd "
                   "code are the `heapprofd` scheme."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        // Below one byte, each byte would draw many points: a 1 MiB allocation at
        // T = 1e-9 draws 10^15 of them (the replay would not end), and no profiler
        // samples more often than every byte.
        const JsonValue rate = params["rate"];
        const double bytes = positive_byte_amount(rate);
        if (bytes < 1) rate.fail("must be >= 1 (at most one sample point per byte on average)");
        return std::make_unique<PoissonScheme>(bytes);
      },
      .rate = SchemeRate{},
      .family = SamplingFamily::poisson_bytes,
      .skip_ahead = true,
  };
}

}  // namespace allocsim
