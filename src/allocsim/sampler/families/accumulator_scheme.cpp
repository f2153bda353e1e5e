#include "allocsim/sampler/families/accumulator_scheme.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/accumulator_sampler.h"
#include "allocsim/sampler/families/exponential_inclusion.h"
#include "allocsim/sampler/families/second_layer.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

namespace allocsim {
namespace {

// Estimators of the accumulator schemes (accumulator_sampler.h), all on requested
// bytes, each divided by the second layer's keep probability q (1 by default):
//   bytes          = T n (what the observers get)                   unbiased
//   bytes_ht       = s / (1 - e^(-s/T)) per sampled allocation      unbiased (libdatadog#2344)
//   count          = 1 / (1 - e^(-s/T)) per sampled allocation      unbiased
//   count_raw      = 1 per sampled allocation (one event)           biased: q pi - 1
//   bytes_max      = max(s, T) per sampled allocation (Seastar)      biased: pi max(s, T) - s
//   bytes_own_size = s per sampled allocation, unscaled (ART, Firefox markers)  biased: (pi - 1) s
// and, with q < 1, bytes_one_layer = T n not divided by q (biased by the factor q).
// pi = 1 - e^(-s/T).
std::vector<EstimatorSpec> accumulator_estimators(bool two_layers) {
  std::vector<EstimatorSpec> specs = {
      {"bytes", Quantity::requested_bytes, "T * samples (the weight the code reports)"},
      {"bytes_ht", Quantity::requested_bytes, "s / (1 - exp(-s/T)) per sampled allocation"},
      {"count", Quantity::count, "1 / (1 - exp(-s/T)) per sampled allocation"},
      {"count_raw", Quantity::count, "1 per sampled allocation (events, not an estimate)"},
      {"bytes_max", Quantity::requested_bytes, "max(s, T) per sampled allocation (Seastar's weight)"},
      {"bytes_own_size", Quantity::requested_bytes,
       "s per sampled allocation, unscaled (ART Java heap, Firefox native-allocation markers)"},
  };
  if (two_layers) {
    specs.push_back({"bytes_one_layer", Quantity::requested_bytes,
                     "T * samples without dividing by the second layer's keep probability"});
  }
  return specs;
}

// A weight w given to an allocation kept with probability p (log_p_none = ln(1 - p)).
AllocationTheory kept_weight_theory(double p, double log_p_none, double w, double truth) {
  return {p * w - truth, w * w * p * (1 - p), log_p_none};
}

class AccumulatorScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kBytesHt, kCount, kCountRaw, kBytesMax, kBytesOwnSize, kBytesOneLayer };

  AccumulatorScheme(std::int64_t period, double keep)
      : period_(period), keep_(keep), estimators_(accumulator_estimators(keep < 1)) {}

  const std::vector<EstimatorSpec>& estimators() const override { return estimators_; }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, period = period_, keep = keep_] {
      return with_second_layer(std::make_unique<SamplerRun<AccumulatorSampler>>(trace, AccumulatorSampler(period)),
                               keep);
    });
  }

  // The threads' requested-byte streams, shared by the runs.
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    auto requested = std::make_shared<const CountedStreams>(CountedStreams::requested(index));
    return skip_ahead_runs([&trace, &index, period = period_, keep = keep_, requested] {
      return with_second_layer(
          std::make_unique<SkipAheadRun<AccumulatorSampler>>(trace, index, AccumulatorSampler(period, requested)),
          keep);
    });
  }

  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const double T = static_cast<double>(period_);
    // One register per estimator (all linear), bytes_one_layer only with keep < 1.
    const RegisterRows<> rows(out, observations.size(), estimators_.size());
    park_requested_sizes(trace, observations, rows, kBytes);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double s = static_cast<double>(parked_size(rows[o], kBytes));
      const double scale = exponential_unsampling_scale(s, T);
      const auto registers = rows[o];
      registers[kBytes] = observations[o].weight / keep_;
      registers[kBytesHt] = s * scale / keep_;
      registers[kCount] = scale / keep_;
      registers[kCountRaw] = 1.0;
      registers[kBytesMax] = std::max(s, T) / keep_;
      registers[kBytesOwnSize] = s / keep_;
      if (registers.size() > kBytesOneLayer) registers[kBytesOneLayer] = observations[o].weight;
    }
  }

  // Continuous model (accumulator_sampler.h): allocations independent, sampled with
  // pi = 1 - e^(-s/T) and then kept with q; T n has mean s and variance
  // V = T^2 accumulator_count_variance(s/T), so T n 1{kept} / q has mean s and
  // second moment (V + s^2) / q, and T n 1{kept} mean q s, second moment q (V + s^2).
  EstimatorTheory theory(std::size_t estimator) const override {
    return per_allocation_theory(this, &AccumulatorScheme::allocation_theory, estimator);
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
    const double s = static_cast<double>(trace.requested[i]);
    const double T = static_cast<double>(period_);
    const double q = keep_;
    const double pi = -std::expm1(-s / T);
    const double p = q * pi;
    const double log_p_none = q == 1 ? -s / T : std::log1p(-p);
    const double second = T * T * accumulator_count_variance(s / T) + s * s;  // E[(T n)^2]
    switch (estimator) {
      case 0: return {0.0, second / q - s * s, log_p_none};
      case 1: return kept_weight_theory(p, log_p_none, s / p, s);
      case 2: return kept_weight_theory(p, log_p_none, 1 / p, 1.0);
      case 3: return kept_weight_theory(p, log_p_none, 1.0, 1.0);
      case 4: return kept_weight_theory(p, log_p_none, std::max(s, T) / q, s);
      case 5: return kept_weight_theory(p, log_p_none, s / q, s);
      default: return {(q - 1) * s, q * second - q * q * s * s, log_p_none};
    }
  }

  std::int64_t period_;
  double keep_;
  std::vector<EstimatorSpec> estimators_;
};

}  // namespace

std::unique_ptr<Scheme> create_accumulator(SchemeParameters& params) {
  const JsonValue rate = params["rate"];
  const std::uint64_t period = positive_byte_count(rate);
  if (period > (std::uint64_t{1} << 40)) rate.fail("must be at most 2^40");
  const JsonValue keep = params["keep"];
  if (keep.probability() <= 0) keep.fail("must be > 0");
  return std::make_unique<AccumulatorScheme>(static_cast<std::int64_t>(period), keep.probability());
}

const ParameterInfo kAccumulatorKeepParameter = {
    "keep", "number", 1.0,
    "probability that a second sampling layer (a profiler or exporter downstream) keeps each "
    "sampled allocation; estimators divide by it, except bytes_one_layer"};

const char* const kAccumulatorVariant =
    "Continuous-model theory: T*samples is unbiased with variance T s for s < T but at most "
    "~1.6 T^2 for s >> T (floor(acc/T) samples are deterministic); the truncated intervals "
    "(mean ~T - 1/2) add +1/(2T) relative.";
const char* const kAccumulatorEstimatorVariant =
    "bytes_ht / count: per-allocation Horvitz-Thompson (libdatadog PR #2344's proposal), same "
    "mean, different variance; count_raw: one per sampled allocation, what 'objects' columns "
    "show when each event counts 1; bytes_max (Seastar's max(s, T)) and bytes_own_size (ART's "
    "unscaled size) are other systems' weights on this sampler.";

}  // namespace allocsim
