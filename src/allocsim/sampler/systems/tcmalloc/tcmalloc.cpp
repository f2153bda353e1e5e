#include "allocsim/sampler/systems/tcmalloc/tcmalloc.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

#include <cmath>

#include "allocsim/estimate/wald_interval.h"
#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/systems/tcmalloc/tcmalloc_size_classes.h"

namespace allocsim {
namespace {

// StackTraceTable::AddTrace: the sample's bytes rounded half up, then the nearest
// whole number of objects of size a (integer division after adding a/2).
std::uint64_t rounded_count(double weight, std::uint64_t k, std::uint64_t a) {
  const auto bytes = static_cast<std::uint64_t>(weight * static_cast<double>(a) / static_cast<double>(k) + 0.5);
  return (bytes + a / 2) / a;
}

struct CountMoments {
  double mean = 0;  // E[count 1{sampled}]
  double mean_square = 0;
};

// Moments of the rounded count of one allocation when its sampled byte is at
// position f in {1, ..., k} with P(f <= x) = 1 - e^(-x/T) (integer gaps, steady
// counter). count(f) = rounded_count(T + k - f) is non-increasing in f and spans
// round(T/k) .. round(T/k + 1) only, so E[count] = sum_c P(count >= c) has a handful
// of terms: P(count >= c) = P(f <= x_c), x_c the last f with count(f) >= c.
CountMoments rounded_count_moments(double period, std::uint64_t k, std::uint64_t a) {
  auto count_at = [&](std::uint64_t f) { return rounded_count(period + static_cast<double>(k - f), k, a); };
  auto p_position_at_most = [&](std::uint64_t x) { return -std::expm1(-static_cast<double>(x) / period); };
  const std::uint64_t lowest = count_at(k), highest = count_at(1);
  const double pi = p_position_at_most(k);
  CountMoments m;
  m.mean = static_cast<double>(lowest) * pi;
  m.mean_square = static_cast<double>(lowest) * static_cast<double>(lowest) * pi;
  for (std::uint64_t c = lowest + 1; c <= highest; ++c) {
    std::uint64_t lo = 1, hi = k;  // count_at(lo) >= c > count_at(hi + 1): find the last f
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo + 1) / 2;
      if (count_at(mid) >= c)
        lo = mid;
      else
        hi = mid - 1;
    }
    const double p = p_position_at_most(lo);
    m.mean += p;
    m.mean_square += static_cast<double>(2 * c - 1) * p;  // c^2 - (c-1)^2
  }
  return m;
}

class TcmallocScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kBytesVariance, kCount, kCountVariance, kRegisters };

  TcmallocScheme(std::uint64_t period, bool faithful, bool round_counts, bool correct_size)
      : period_(period), faithful_(faithful), round_counts_(round_counts), correct_size_(correct_size) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::allocated_bytes, "W a / (r + 1) per sampled allocation, W = T + k - f", 2},
        {"count", Quantity::count, "W / (r + 1) per sampled allocation", 2},
    };
    return specs;
  }

  const std::vector<IntervalSpec>& intervals() const override {
    static const std::vector<IntervalSpec> specs = {
        {"wald", 0, "normal approximation, variance estimate (T a / k)^2 per sampled allocation"},
        {"wald", 1, "normal approximation, variance estimate (T / k)^2 per sampled allocation"},
    };
    return specs;
  }

  // bytes and count keep (estimate, variance estimate): a Wald interval.
  Interval interval(std::size_t /*interval*/, std::span<const double> registers, double level) const override {
    return wald_interval(registers[0], registers[1], level);
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, period = period_, faithful = faithful_] {
      return std::make_unique<SamplerRun<TcmallocSampler>>(trace, TcmallocSampler(period, faithful));
    });
  }

  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    return skip_ahead_runs([&trace, &index, period = period_, faithful = faithful_] {
      return std::make_unique<SkipAheadRun<TcmallocSampler>>(trace, index, TcmallocSampler(period, faithful));
    });
  }

  // Registers: bytes and its variance estimate, count and its variance estimate.
  // Var[W 1{sampled}] = T^2 pi (tcmalloc.h), and T^2 per sampled allocation has
  // exactly that mean, so (T/k)^2 (count) and (T a/k)^2 (bytes) per sample are
  // unbiased in the continuous model (T = 1: always sampled with W = k, 0). With
  // round_counts they are the unrounded variance, an approximation (the rounding
  // changes it by at most a few percent for k << T).
  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const double T = static_cast<double>(period_);
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kCountVariance);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const Observation& obs = observations[o];
      const std::uint64_t r = parked_size(rows[o], kCountVariance);
      const std::uint64_t a = tcmalloc_allocated_size(r);
      const double k = static_cast<double>(r + 1);
      const double count_variance = period_ == 1 ? 0.0 : T * T / (k * k);
      const double unit = bytes_per_counted_allocation(r);
      const auto registers = rows[o];
      if (round_counts_) {
        const double count = static_cast<double>(rounded_count(obs.weight, r + 1, a));
        registers[kBytes] = count * static_cast<double>(a);
        registers[kCount] = count;
      } else {
        registers[kBytes] = obs.weight * unit / k;
        registers[kCount] = obs.weight / k;
      }
      registers[kBytesVariance] = count_variance * unit * unit;
      registers[kCountVariance] = count_variance;
    }
  }

  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    return tcmalloc_allocated_size(trace.requested[i]);
  }

  // Unrounded: the continuous model, unbiased with Var[W 1{sampled}] = T^2 pi (see
  // tcmalloc.h), scaled by a/k (bytes) or 1/k (count). Rounded: exact moments of the
  // rounded count under integer gaps. T = 1 samples every allocation with W = k.
  EstimatorTheory theory(std::size_t estimator) const override {
    return per_allocation_theory(this, &TcmallocScheme::allocation_theory, estimator);
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
    const std::uint64_t r = trace.requested[i];
    const double k = static_cast<double>(r + 1);
    const double a = static_cast<double>(tcmalloc_allocated_size(r));
    const double scale = estimator == 0 ? bytes_per_counted_allocation(r) : 1.0;  // bytes = scale * count
    // E[count] = 1, so the bytes estimate's mean is `scale`: a when corrected,
    // k = r + 1 (bias k - a) when not.
    const double bias = estimator == 0 ? scale - a : 0.0;
    if (period_ == 1) return {bias, 0.0, -INFINITY};  // always sampled, W = k: exact
    const double T = static_cast<double>(period_);
    const double log_p_none = -k / T;
    if (!round_counts_) return {bias, scale * scale / (k * k) * T * T * -std::expm1(log_p_none), log_p_none};
    const CountMoments m = rounded_count_moments(T, r + 1, tcmalloc_allocated_size(r));
    return {scale * (m.mean - 1), scale * scale * (m.mean_square - m.mean * m.mean), log_p_none};
  }

  // What one estimated allocation of request r counts as in the bytes estimate: its
  // allocated size a (the document's a/(r+1) correction), or, uncorrected, the
  // r + 1 bytes the counter advanced by (W itself read as bytes).
  double bytes_per_counted_allocation(std::uint64_t r) const {
    return correct_size_ ? static_cast<double>(tcmalloc_allocated_size(r)) : static_cast<double>(r + 1);
  }

  std::uint64_t period_;
  bool faithful_;
  bool round_counts_;
  bool correct_size_;
};

}  // namespace

SchemeDescriptor tcmalloc_scheme() {
  return {
      .name = "tcmalloc",
      .summary = "tcmalloc: per-thread counter of floor(Exp(T)) - 1 bytes decremented by "
                 "requested+1, sampled when it would go negative, leftover discarded; weight "
                 "W = T + k - f, estimates W a/(r+1) bytes and W/(r+1) allocations.",
      .source = "tcmalloc sampler.cc, sampler.h, stack_trace_table.cc, size_classes.cc; "
                "docs/sampling.md 'Detailed treatment of weighting' (google/tcmalloc)",
      .parameters = {{"rate", "integer", 2097152, "profile sampling interval T in bytes (T >= 1; 1 samples all)"},
                     {"faithful", "boolean", true,
                      "draw intervals with tcmalloc's 48-bit LCG and 26-bit quantised log (false: ideal "
                      "exponential)"},
                     {"round_counts", "boolean", false,
                      "round each sample's bytes and count to integers as the heap profile does"},
                     {"size_correction", "boolean", true,
                      "scale each sample's weight W by a/(r+1) to estimate allocated bytes (false: report "
                      "W, the requested+1 bytes the counter saw, as bytes)"}},
      .variants = {"Draw: the document says the interval is the ceiling of an exponential and sampling "
                   "fires when the counter reaches zero; the code floors it, subtracts kIntervalOffset = 1 "
                   "(clamped at 0) and samples when the counter would go negative. Both faithful settings "
                   "model the code's rounding.",
                   "faithful=true (default, the code): per-thread lrand64 LCG (seeded per replication "
                   "from the thread's stream, stepped 20 times) with q = top 26 bits + 1, interval "
                   "trunc(-T ln(q/2^26)) <= 18 T. faithful=false: an ideal exponential from a 53-bit "
                   "uniform.",
                   "round_counts=false (default): the document's and MallocHook's W a/(r+1) and "
                   "W/(r+1). round_counts=true: the profile's StackTraceTable::AddTrace rounding per "
                   "sample (bytes half up, count to the nearest integer, bytes = count * a), biased for "
                   "k near or above T (-13.5% at k = 2T, +2.6% at k = T).",
                   "size_correction=false: a consumer that reads the sampling weight W as bytes, "
                   "without the document's a/(r+1) correction: biased by (r+1)/a - 1 per allocation "
                   "(-75% for 1-byte requests, 8-byte class), and 0 only where a = r + 1.",
                   "Size classes: the default x86-64 table (8 KiB pages, 16-byte new alignment); requests "
                   "above 256 KiB get whole pages."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const bool round_counts = params["round_counts"].boolean();
        const JsonValue size_correction = params["size_correction"];
        // The profile's rounding works in whole objects of the allocated size.
        if (!size_correction.boolean() && round_counts) size_correction.fail("round_counts needs size_correction");
        return std::make_unique<TcmallocScheme>(positive_byte_count(params["rate"]), params["faithful"].boolean(),
                                                round_counts, size_correction.boolean());
      },
      .rate = SchemeRate{},
      .family = SamplingFamily::per_allocation_exponential,
      .skip_ahead = true,
      .advice = AdviceRule{},
      .profile_formats = {"tcmalloc heapz_v2"},
  };
}

}  // namespace allocsim
