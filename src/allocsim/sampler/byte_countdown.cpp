#include "allocsim/sampler/byte_countdown.h"

#include <cmath>

namespace allocsim {
namespace {

class ByteCountdownScheme final : public Scheme {
 public:
  explicit ByteCountdownScheme(const ByteCountdownConfig& config)
      : config_(config), mark_probability_(-std::expm1(-1.0 / config.rate)) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::requested_bytes, "T * samples; the true size for pass-through allocations"},
        {"count", Quantity::count,
         "1 / (1 - exp(-s/T)) per sampled allocation, 1 for pass-through (Horvitz-Thompson)"},
        {"count_raw", Quantity::count, "1 per sampled allocation: the raw count the profile reports"},
    };
    return specs;
  }

  std::unique_ptr<SchemeRun> start(const Trace& trace) const override {
    return std::make_unique<SamplerRun<ByteCountdownSampler>>(
        trace, ByteCountdownSampler(config_.rate, config_.passthrough_from, config_.per_thread));
  }

  void weigh(const Trace& trace, std::span<const Observation> observations,
             std::span<double> out) const override {
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const Observation& obs = observations[o];
      const std::uint64_t s = trace.requested[obs.event];
      out[3 * o] = obs.weight;
      out[3 * o + 1] = passes_through(s) ? 1.0 : 1.0 / inclusion(s);
      out[3 * o + 2] = 1.0;
    }
  }

  // Allocations are sampled independently (Binomial(s, p') points each, see the
  // header), so per-allocation theory is exact. With pi = 1 - e^(-s/T):
  //   bytes:     bias s (T p' - 1), variance T^2 s p' (1 - p')
  //   count:     bias 0,            variance (1 - pi) / pi
  //   count_raw: bias pi - 1,       variance pi (1 - pi)
  // Pass-through allocations are always recorded exactly; size 0 never is.
  bool has_allocation_theory(std::size_t) const override { return true; }
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace,
                                     std::size_t i) const override {
    const std::uint64_t size = trace.requested[i];
    if (passes_through(size)) return {0.0, 0.0, -INFINITY};
    if (size == 0) return {estimator == 0 ? 0.0 : -1.0, 0.0, 0.0};
    const double s = static_cast<double>(size);
    const double T = config_.rate;
    const double p = mark_probability_;
    const double pi = inclusion(size);
    const double log_none = -s / T;
    switch (estimator) {
      case 0: return {s * (T * p - 1.0), T * T * s * p * (1.0 - p), log_none};
      case 1: return {0.0, 1.0 / std::expm1(s / T), log_none};
      default: return {pi - 1.0, pi * std::exp(log_none), log_none};
    }
  }

 private:
  bool passes_through(std::uint64_t s) const { return s >= config_.passthrough_from; }
  // P(at least one sample point in s bytes) = 1 - (1 - p')^s = 1 - e^(-s/T).
  double inclusion(std::uint64_t s) const {
    return -std::expm1(-static_cast<double>(s) / config_.rate);
  }

  ByteCountdownConfig config_;
  double mark_probability_;  // p' = 1 - e^(-1/T)
};

}  // namespace

std::unique_ptr<Scheme> make_byte_countdown_scheme(const ByteCountdownConfig& config) {
  return std::make_unique<ByteCountdownScheme>(config);
}

double read_countdown_rate(JsonObject& params, double default_rate) {
  auto v = params.maybe("rate");
  if (!v) return default_rate;
  const double rate = static_cast<double>(v->positive_uint());
  if (rate > kMaxCountdownRate) v->fail("must be <= 2^53");
  return rate;
}

}  // namespace allocsim
