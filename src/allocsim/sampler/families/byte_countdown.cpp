#include "allocsim/sampler/families/byte_countdown.h"

#include <cmath>

#include "allocsim/estimate/wald_interval.h"
#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

namespace allocsim {
namespace {

class ByteCountdownScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kBytesVariance, kCount, kCountVariance, kCountRaw, kRegisters };

  explicit ByteCountdownScheme(const ByteCountdownConfig& config)
      : config_(config), mark_probability_(-std::expm1(-1.0 / config.rate)) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::requested_bytes, "T * samples; the true size for pass-through allocations", 2},
        {"count", Quantity::count, "1 / (1 - exp(-s/T)) per sampled allocation, 1 for pass-through (Horvitz-Thompson)",
         2},
        {"count_raw", Quantity::count, "1 per sampled allocation: the raw count the profile reports"},
    };
    return specs;
  }

  const std::vector<IntervalSpec>& intervals() const override {
    static const std::vector<IntervalSpec> specs = {
        {"wald", 0, "normal approximation, variance estimate T^2 (1 - p') n per allocation below the cutoff"},
        {"wald", 1, "normal approximation, Horvitz-Thompson variance estimate (1 - pi) / pi^2"},
    };
    return specs;
  }

  // bytes and count keep (estimate, unbiased variance estimate): a Wald interval.
  Interval interval(std::size_t /*interval*/, std::span<const double> registers, double level) const override {
    return wald_interval(registers[0], registers[1], level);
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, config = config_] {
      return seeded(config, std::make_unique<SamplerRun<ByteCountdownSampler>>(
                                trace, ByteCountdownSampler(config.rate, config.passthrough_from, config.per_thread)));
    });
  }

  // Skip-ahead's prefix sums, shared by the runs.
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    auto streams = std::make_shared<const ByteCountdownStreams>(
        make_byte_countdown_streams(trace, index, config_.passthrough_from, config_.per_thread));
    return skip_ahead_runs([&trace, &index, config = config_, streams] {
      return seeded(
          config,
          std::make_unique<SkipAheadRun<ByteCountdownSampler>>(
              trace, index, ByteCountdownSampler(config.rate, config.passthrough_from, config.per_thread, streams)));
    });
  }

  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const double T = config_.rate;
    const double p = mark_probability_;
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kCountRaw);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const Observation& obs = observations[o];
      const std::uint64_t s = parked_size(rows[o], kCountRaw);
      const auto registers = rows[o];
      registers[kCountRaw] = 1.0;
      if (passes_through(s)) {  // recorded exactly: weight s, count 1, no variance
        registers[kBytes] = obs.weight;
        registers[kBytesVariance] = 0.0;
        registers[kCount] = 1.0;
        registers[kCountVariance] = 0.0;
        continue;
      }
      // n ~ Binomial(s, p'): E[T^2 (1 - p') n] = T^2 s p' (1 - p') = Var(T n); obs.weight
      // is T n (uncapped n).
      registers[kBytes] = obs.weight;
      registers[kBytesVariance] = T * (1.0 - p) * obs.weight;
      // Horvitz-Thompson: 1/pi taken with probability pi has variance (1 - pi)/pi,
      // estimated without bias by (1 - pi)/pi^2 per sampled allocation.
      const double pi = inclusion(s);
      registers[kCount] = 1.0 / pi;
      registers[kCountVariance] = (1.0 - pi) / (pi * pi);
    }
  }

  // Allocations are sampled independently (Binomial(s, p') points each, see the
  // header), so per-allocation theory is exact. With pi = 1 - e^(-s/T):
  //   bytes:     bias s (T p' - 1), variance T^2 s p' (1 - p')
  //   count:     bias 0,            variance (1 - pi) / pi
  //   count_raw: bias pi - 1,       variance pi (1 - pi)
  // Pass-through allocations are always recorded exactly; size 0 never is.
  EstimatorTheory theory(std::size_t estimator) const override {
    return per_allocation_theory(this, &ByteCountdownScheme::allocation_theory, estimator);
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
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

  static std::unique_ptr<SchemeRun> seeded(const ByteCountdownConfig& config, std::unique_ptr<SchemeRun> run) {
    if (!config.same_sequence) return run;
    return std::make_unique<SameSequenceRun>(std::move(run));
  }
  bool passes_through(std::uint64_t s) const { return s >= config_.passthrough_from; }
  std::uint64_t recorded_whole_from() const override { return config_.passthrough_from; }
  // P(at least one sample point in s bytes) = 1 - (1 - p')^s = 1 - e^(-s/T).
  double inclusion(std::uint64_t s) const { return -std::expm1(-static_cast<double>(s) / config_.rate); }

  ByteCountdownConfig config_;
  double mark_probability_;  // p' = 1 - e^(-1/T)
};

}  // namespace

std::unique_ptr<Scheme> make_byte_countdown_scheme(const ByteCountdownConfig& config) {
  return std::make_unique<ByteCountdownScheme>(config);
}

double read_countdown_rate(SchemeParameters& params) {
  const JsonValue v = params["rate"];
  const double rate = static_cast<double>(positive_byte_count(v));
  if (rate > kMaxCountdownRate) v.fail("must be <= 2^53");
  return rate;
}

}  // namespace allocsim
