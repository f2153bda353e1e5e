#include "allocsim/sampler/systems/dd-trace-php/dd_trace_php.h"

#include <boost/math/distributions/poisson.hpp>

#include <cmath>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/exponential_inclusion.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"
#include "allocsim/util/error.h"

namespace allocsim {

double ddtrace_php_samples_expected(std::uint64_t s, std::uint64_t n, double distance) {
  if (s == 0) throw InputError("ddtrace_php_samples_expected: the size must be at least 1 byte");
  const boost::math::poisson_distribution<> gap(distance);
  // P(K = k), k = 1, 2, ...: K = 1 when N <= s, K = k when (k-1) s < N <= k s; up to
  // where the tail is below double precision.
  std::vector<double> p_k = {0.0};
  double below = 0;
  for (std::uint64_t k = 1;; ++k) {
    const double at = static_cast<double>(k) * static_cast<double>(s);
    const double cdf = boost::math::cdf(gap, at);
    p_k.push_back(cdf - below);
    below = cdf;
    if (boost::math::cdf(boost::math::complement(gap, at)) < 1e-18) break;
    if (k > 1000000) throw InputError("ddtrace_php_samples_expected: s is too small next to the distance");
  }
  // u_m = P(a sample at allocation m), a renewal at 0.
  std::vector<double> u(n + 1, 0.0);
  u[0] = 1;
  double expected = 0;
  for (std::uint64_t m = 1; m <= n; ++m) {
    for (std::uint64_t k = 1; k < p_k.size() && k <= m; ++k) u[m] += p_k[k] * u[m - k];
    expected += u[m];
  }
  return expected;
}

namespace {

class DdTracePhpScheme final : public Scheme {
 public:
  enum Register : std::size_t {
    kBytesSum,
    kBytesSamples,
    kCountSum,
    kCountSamples,
    kBytesPerSample,
    kSamples,
    kRegisters
  };

  explicit DdTracePhpScheme(double distance) : distance_(distance) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::requested_bytes,
         "libdatadog's Poisson upscaling per aggregated sample: S / (1 - exp(-(S/C)/D)) from the group's "
         "sampled bytes S and samples C",
         2},
        {"count", Quantity::count, "C / (1 - exp(-(S/C)/D)), the same upscaling of the samples", 2},
        {"bytes_ht", Quantity::requested_bytes,
         "s / (1 - exp(-s/D)) per sample: the upscaling per allocation (the inclusion is still not "
         "exponential)"},
        {"count_raw", Quantity::count, "samples, not upscaled"},
    };
    return specs;
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, distance = distance_] {
      return std::make_unique<SamplerRun<DdTracePhpSampler>>(trace, DdTracePhpSampler(distance));
    });
  }

  // The threads' requested-byte streams, shared by the runs.
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    auto requested = std::make_shared<const CountedStreams>(CountedStreams::requested(index));
    return skip_ahead_runs([&trace, &index, distance = distance_, requested] {
      return std::make_unique<SkipAheadRun<DdTracePhpSampler>>(trace, index, DdTracePhpSampler(distance, requested));
    });
  }

  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kSamples);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double s = static_cast<double>(parked_size(rows[o], kSamples));
      const auto registers = rows[o];
      registers[kBytesSum] = registers[kCountSum] = s;
      registers[kBytesSamples] = registers[kCountSamples] = 1.0;
      registers[kBytesPerSample] = s * exponential_unsampling_scale(s, distance_);
      registers[kSamples] = 1.0;
    }
  }

  // UpscalingInfo::Poisson: scale = 1 / (1 - exp(-(sum/count)/D)) on the group.
  double finalize(std::size_t estimator, std::span<const double> registers) const override {
    if (estimator >= 2) return registers[0];
    const double bytes = registers[0], samples = registers[1];
    if (samples == 0) return 0.0;
    return (estimator == 0 ? bytes : samples) * exponential_unsampling_scale(bytes / samples, distance_);
  }

 private:
  double distance_;
};

}  // namespace

SchemeDescriptor dd_trace_php_scheme() {
  return {
      .name = "dd-trace-php",
      .summary = "Datadog PHP profiler: a per-thread byte countdown drawn from Poisson(D), D = 4 MiB (a "
                 "near-fixed stride), leftover discarded; each aggregated sample upscaled by "
                 "1/(1-exp(-(sum/count)/D)) as if the gaps were exponential.",
      .source = "DataDog/dd-trace-php 93f7b2d profiling/src/allocation/mod.rs; DataDog/libdatadog "
                "libdd-profiling/src/internal/upscaling.rs (UpscalingInfo::Poisson)",
      .parameters = {{"rate",
                      "integer",
                      kDdTracePhpDistance,
                      "sampling distance D in bytes, the Poisson mean (DEFAULT_ALLOCATION_SAMPLING_INTERVAL); "
                      "alias \"sampling_distance\"",
                      {"sampling_distance"}}},
      .variants = {"Poisson draws by exact transformed rejection (random/poisson_draw.h), not rand_distr's "
                   "own algorithm: the same distribution.",
                   "bytes / count: the upscaling of one aggregated sample, exact when a group is one stack "
                   "with one label set."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue rate = params["rate"];
        if (positive_byte_count(rate) > (std::uint64_t{1} << 53)) rate.fail("must be at most 2^53");
        return std::make_unique<DdTracePhpScheme>(static_cast<double>(positive_byte_count(rate)));
      },
      .rate = SchemeRate{},
      .skip_ahead = true,
  };
}

}  // namespace allocsim
