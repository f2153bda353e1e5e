#include "allocsim/sampler/references/per_byte.h"

#include <cmath>

#include "allocsim/estimate/count_theory.h"
#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/byte_rate_scheme.h"
#include "allocsim/sampler/sampler_runs.h"

namespace allocsim {
namespace {

class PerByteScheme final : public ByteRateScheme {
 public:
  using ByteRateScheme::ByteRateScheme;

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs(
        [&trace, rate = rate_] { return std::make_unique<SamplerRun<PerByteSampler>>(trace, PerByteSampler(rate)); });
  }

 protected:
  // n ~ Binomial(S, 1/T) for a group of S bytes.
  TheoryValues bytes_theory(const GroupTotals& truth) const override {
    return binomial_scaled_count_theory(static_cast<std::uint64_t>(truth.requested_bytes), 1.0 / rate_, rate_);
  }
  double log_p_none(double size) const override { return rate_ == 1.0 ? -INFINITY : size * std::log1p(-1.0 / rate_); }
  // n ~ Binomial(s, 1/T): E[(T - 1) T n] = s (T - 1) = Var(T n).
  double bytes_variance_estimate(std::uint32_t samples) const override { return (rate_ - 1.0) * rate_ * samples; }
};

}  // namespace

SchemeDescriptor per_byte_scheme() {
  return {
      .name = "per-byte",
      .summary = "Exact reference: an independent Bernoulli(1/T) trial for every requested byte; "
                 "estimate T * sampled bytes. Slow (one random number per byte).",
      .source = "Perfetto docs/design-docs/heapprofd-sampling.md 'Conceptual motivation'; "
                "Memray docs/sampling.rst (PR #94) 'Bernoulli process'",
      .parameters = {{"rate", "number", 4096, "inverse per-byte probability T (T >= 1)"}},
      .variants = {"The definition both documents start from; no real profiler runs it."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue rate = params["rate"];
        if (positive_byte_amount(rate) < 1) rate.fail("must be >= 1 (a probability 1/T <= 1)");
        return std::make_unique<PerByteScheme>(positive_byte_amount(rate));
      },
      .rate = SchemeRate{},
      .family = SamplingFamily::poisson_bytes,
  };
}

}  // namespace allocsim
