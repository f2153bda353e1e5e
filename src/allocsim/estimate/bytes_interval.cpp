#include "allocsim/estimate/bytes_interval.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "allocsim/estimate/camp_paulson.h"
#include "allocsim/util/error.h"

namespace allocsim::interval {
namespace {

constexpr std::int64_t kMaxSamples = std::int64_t{1} << 52;

void validate(const BytesIntervalRequest& request) {
  if (request.samples < 0 || request.samples > kMaxSamples) {
    throw InputError("samples must be in [0, 2^52], got " + std::to_string(request.samples));
  }
  if (request.tail_bytes < request.samples) {
    throw InputError("tail bytes (" + std::to_string(request.tail_bytes) +
                     ") must be at least the number of samples (" + std::to_string(request.samples) +
                     "): each sample covers >= 1 byte");
  }
  if (request.samples == 0 && request.tail_bytes != 0) {
    throw InputError("tail bytes must be 0 when there are no samples");
  }
  require_open_probability(request.p, "sampling probability p");
  require_open_probability(request.level, "confidence level");
  if (request.samples == 0 && !request.boundary_correction) {
    throw InputError("0 samples needs boundary correction: a window that starts and ends at sample "
                     "events and holds none is empty");
  }
}

// A quantile of the failures before the `samples`-th success; with 0 samples
// there are 0 failures.
double failure_quantile(const BytesIntervalRequest& request, std::int64_t samples, double tail_probability,
                        bool upper_tail) {
  if (samples == 0) return 0.0;
  const NegativeBinomial failures(samples, request.p);
  if (request.method == IntervalMethod::exact) {
    return upper_tail ? quantile_complement(failures, tail_probability, request.rounding)
                      : quantile(failures, tail_probability, request.rounding);
  }
  return upper_tail ? camp_paulson_quantile_complement(failures, tail_probability, request.rounding)
                    : camp_paulson_quantile(failures, tail_probability, request.rounding);
}

}  // namespace

const char* method_name(IntervalMethod method) { return method == IntervalMethod::exact ? "exact" : "camp-paulson"; }

BytesInterval bytes_interval(const BytesIntervalRequest& request) {
  validate(request);
  const double tail_probability = (1.0 - request.level) / 2.0;
  const std::int64_t shift = request.boundary_correction ? 1 : 0;
  const double u = static_cast<double>(request.tail_bytes);
  const double s = static_cast<double>(request.samples);
  // With 0 samples the corrected lower bound uses 0 samples, not -1. The
  // real-valued quantile can lie in (-1, 0); N is never below u.
  const std::int64_t lower_samples = std::max<std::int64_t>(request.samples - shift, 0);
  const double low_failures = std::max(0.0, failure_quantile(request, lower_samples, tail_probability, false));
  const double high_failures = failure_quantile(request, request.samples + shift, tail_probability, true);
  const BytesInterval interval{s * (1.0 - request.p) / request.p + u, low_failures + u, high_failures + u};
  if (!std::isfinite(interval.estimate) || !std::isfinite(interval.upper)) {
    throw InputError("bytes interval overflows a double: p is too small");
  }
  return interval;
}

}  // namespace allocsim::interval
