#pragma once
// The .NET document's confidence interval for the bytes allocated on a thread,
// from s sample events and their tail bytes u (RandomizedAllocationSampling.md,
// "Estimation Approach 2: Estimating failed trials").
//
// Derivation. Each sampled byte is a successful trial; u_i = size_i - offset_i
// counts that byte plus the untried bytes after it in the same object. In a
// window that starts right after a sample event and ends with the s-th one,
// every allocated byte is either a failed trial or one of the u bytes, so
//     N = F + u,   F ~ NegativeBinomial(s, p)  (failures before the s-th success).
// The document's point estimate is E[F] + u = s q/p + u, and its interval
// (step 3) is [low_failures + u, high_failures + u] with
//     CDF(low_failures) = (1-C)/2,   CDF(high_failures) = C + (1-C)/2 = (1+C)/2.
// Here low_failures = quantile((1-C)/2) and high_failures =
// quantile_complement((1-C)/2), both under the chosen QuantileRounding; with
// the default `up` each end is inclusive and each tail holds at most (1-C)/2.
//
// Boundary correction ("Compensating for bytes allocated on a thread in between
// events"): if the window does not start at a sample event the first sample's
// failures partly precede it, so N - u is at least NegativeBinomial(s-1);
// bytes after the last event are failures not yet ended by a success, so N - u
// is at most NegativeBinomial(s+1). The lower bound therefore uses s-1 samples
// and the upper bound s+1; u and the estimate are unchanged.
//
// s = 0: a window aligned on sample events that holds none is empty, so s = 0
// without boundary correction is rejected (InputError) rather than answered
// [0, 0]. With the correction the lower bound uses 0 samples (0 failures, so
// lower = u = 0) and the upper bound the geometric (s = 1) quantile: how many
// bytes could pass without a single sample.
//
// Inputs: 0 <= s, s <= u (each u_i >= 1; u = 0 when s = 0), 0 < p < 1,
// 0 < level < 1; anything else is an InputError. Results are finite doubles;
// failure counts beyond 2^52 are the real-valued quantiles (negative_binomial.h).
#include <cstdint>

#include "allocsim/estimate/negative_binomial.h"

namespace allocsim::interval {

enum class IntervalMethod { exact, camp_paulson };

struct BytesIntervalRequest {
  std::int64_t samples = 0;     // s, sample events in the window
  std::int64_t tail_bytes = 0;  // u, sum of size_i - offset_i
  double p = 1.0 / 102400.0;    // per-byte sampling probability
  double level = 0.95;          // C, the interval's coverage
  IntervalMethod method = IntervalMethod::exact;
  bool boundary_correction = false;
  QuantileRounding rounding = QuantileRounding::up;
};

struct BytesInterval {
  double estimate;  // s q/p + u
  double lower;
  double upper;
};

BytesInterval bytes_interval(const BytesIntervalRequest& request);

// "exact" / "camp-paulson", the names the CLI uses.
const char* method_name(IntervalMethod method);

}  // namespace allocsim::interval
