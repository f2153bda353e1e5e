#include "allocsim/sampler/systems/ocaml/ocaml.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

#include <cmath>

namespace allocsim {
namespace {

class OcamlScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kBytesAsWosize, kCount, kRegisters };

  explicit OcamlScheme(double lambda) : lambda_(lambda) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::allocated_bytes, "8 n / lambda per block (words, header included)"},
        {"bytes_as_wosize", Quantity::requested_bytes,
         "the same read as the payload size: over by the header word per block"},
        {"count", Quantity::count, "n / (lambda whsize) per block"},
    };
    return specs;
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs(
        [&trace, lambda = lambda_] { return std::make_unique<SamplerRun<OcamlSampler>>(trace, OcamlSampler(lambda)); });
  }

  // The threads' word prefix sums, shared by the runs.
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    const SizeColumn& requested = trace.requested;
    auto words = std::make_shared<const CountedStreams>(
        CountedStreams::per_thread(index, [&](std::uint64_t i) { return ocaml_whsize(requested[i]); }));
    return skip_ahead_runs([&trace, &index, lambda = lambda_, words] {
      return std::make_unique<SkipAheadRun<OcamlSampler>>(trace, index, OcamlSampler(lambda, words));
    });
  }

  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kCount);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double n = observations[o].weight;
      const double words = static_cast<double>(ocaml_whsize(parked_size(rows[o], kCount)));
      const auto registers = rows[o];
      registers[kBytes] = registers[kBytesAsWosize] = 8 * n / lambda_;
      registers[kCount] = n / (lambda_ * words);
    }
  }

  // The block's bytes, header included: what `bytes` estimates.
  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    return 8 * ocaml_whsize(trace.requested[i]);
  }

  // n ~ Binomial(w, lambda), independent per block: 8 n / lambda has mean 8 w and
  // variance 64 w (1 - lambda) / lambda; n / (lambda w) mean 1, variance
  // (1 - lambda) / (lambda w); P(n = 0) = (1 - lambda)^w.
  EstimatorTheory theory(std::size_t estimator) const override {
    return per_allocation_theory(this, &OcamlScheme::allocation_theory, estimator);
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
    const double w = static_cast<double>(ocaml_whsize(trace.requested[i]));
    const double log_p_none = lambda_ >= 1 ? -INFINITY : w * std::log1p(-lambda_);
    const double q = (1 - lambda_) / lambda_;
    switch (estimator) {
      case 0: return {0.0, 64 * w * q, log_p_none};
      case 1: return {8 * w - static_cast<double>(trace.requested[i]), 64 * w * q, log_p_none};
      default: return {0.0, q / w, log_p_none};
    }
  }

  double lambda_;
};

}  // namespace

SchemeDescriptor ocaml_scheme() {
  return {
      .name = "ocaml",
      .summary = "OCaml statmemprof: each word (header included) a Bernoulli(lambda) trial via "
                 "carried geometric gaps, n ~ Binomial(whsize, lambda) per block; estimate "
                 "n/lambda words.",
      .source = "ocaml runtime/memprof.c (OCaml 5); Jourdan, 'Statistically profiling memory "
                "in OCaml', OCaml Workshop 2016",
      .parameters = {{"sampling_rate", "number", nullptr,
                      "lambda, the probability per word (Gc.Memprof.start ~sampling_rate; "
                      "required, 0 < lambda <= 1)"}},
      .variants = {"Block size: wosize = ceil(bytes / 8) words plus one header word.",
                   "Draws: an exact geometric from the replication's stream; the runtime uses "
                   "xoshiro128+ and a cubic approximation of the log (error ~7e-4), not modelled.",
                   "Minor-heap trigger placement and combined allocations split into "
                   "sub-blocks give the same Binomial(whsize, lambda) per block."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue v = params["sampling_rate"];
        const double lambda = v.probability();
        if (lambda <= 0) v.fail("must be > 0");
        return std::make_unique<OcamlScheme>(lambda);
      },
      .skip_ahead = true,
      .estimator_legends = {{"bytes_as_wosize", "bytes, header words left out"}},
  };
}

}  // namespace allocsim
