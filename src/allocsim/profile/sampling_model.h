#pragma once
// How a profiler chose its samples, as far as an entry's interval needs it.
//
//   per_allocation_exponential  A countdown of exponential(T) bytes; an allocation of
//       s bytes is sampled at most once, with probability p(s) = 1 - exp(-s/T), the
//       leftover discarded (Go, jemalloc, gperftools, tcmalloc, the JVM, V8). The
//       samples of a record of n objects of size s are Binomial(n, p(s)).
//   poisson_bytes  A countdown carried over allocations, several samples per
//       allocation (heapprofd, Memray, the Poisson reference): the samples in B bytes
//       are Poisson(B/T).
//   per_allocation_fixed  Each allocation sampled with probability 1/T whatever its
//       size (Bernoulli sampling of allocations): Binomial(n, 1/T).
// Any of them may record allocations of at least `recorded_whole_from` bytes whole,
// outside the sampling (heapprofd's and Memray's pass-through): such an allocation is
// certain to appear, as one sample weighing its size, and its bytes take no part in
// the byte-rate model's Poisson(B/T).
#include <cmath>
#include <string>
#include <string_view>
#include <utility>

namespace allocsim {
class Scheme;
}

namespace allocsim::profile {

enum class ModelKind { per_allocation_exponential, poisson_bytes, per_allocation_fixed };

struct SamplingModel {
  ModelKind kind = ModelKind::per_allocation_exponential;
  double rate = 0;                        // T: mean bytes between samples, or allocations for per_allocation_fixed
  std::string system{};                   // the scheme's name, as in `allocsim schemes`
  double recorded_whole_from = INFINITY;  // bytes; pass-through (Scheme::recorded_whole_from)
  double unsampled_start = 0;             // bytes the first thread allocates unseen (Scheme::unsampled_start)
};

// Whether an allocation of `size` bytes is recorded whole (pass-through).
inline bool recorded_whole(const SamplingModel& model, double size) { return size >= model.recorded_whole_from; }

// Probability that one allocation of `size` bytes gets at least one sample.
double sample_probability(const SamplingModel& model, double size);

// Whether such an allocation is sampled for certain, so that its count is its number
// of objects exactly: recorded whole, or a per-allocation trial within 1e-15 of 1.
// Never under the byte-rate Poisson model otherwise: its count stays random.
bool certain_to_be_sampled(const SamplingModel& model, double size);

// Expected samples per true byte of a record of objects of `size` bytes: p(s)/s for
// the per-allocation models, 1/T for the byte-rate one. Its inverse scales samples
// to the unbiased bytes estimate (Go's and jeprof's k s / (1 - exp(-s/T))).
double samples_per_byte(const SamplingModel& model, double size);

// Probability that a record of `objects` allocations of `size` bytes has no sample:
// for the byte-rate models exp(-objects * size / T) whatever the size.
double probability_no_sample(const SamplingModel& model, double objects, double size);

// True bytes (objects for per_allocation_fixed, times `size`) a record needs to
// appear with probability `chance`: T ln(1/(1 - chance)) for the byte-rate models.
double detection_limit_bytes(const SamplingModel& model, double chance, double size);

// The model of a scheme of `allocsim schemes`; InputError naming `where` for a
// scheme without one (deterministic or size-class-dependent designs).
SamplingModel model_for_scheme(std::string_view scheme, double rate, const std::string& where);
// `model` with what `scheme`, as created, records outside its sampling: its
// pass-through (Scheme::recorded_whole_from) and its unseen start
// (Scheme::unsampled_start).
SamplingModel with_pass_through(SamplingModel model, const Scheme& scheme);

// The model of the system that writes heap profiles of `format` ("pprof", "jemalloc
// heap_v2", "gperftools heap_v2": SchemeDescriptor::profile_formats) at `rate`, with
// what that system, as it ships, records outside its sampling (with_pass_through).
SamplingModel model_for_profile_format(std::string_view format, double rate);

// The model of a profile that records every allocation (gperftools' or jemalloc's
// "@ heapprofile", Go at MemProfileRate 1): p = 1, each entry's interval a point.
// `system` names who wrote it.
inline SamplingModel unsampled_model(std::string system) {
  return {ModelKind::per_allocation_fixed, 1.0, std::move(system)};
}
inline bool is_unsampled(const SamplingModel& model) {
  return model.kind == ModelKind::per_allocation_fixed && model.rate == 1.0;
}

// The rate as the system's setting reads: "rate 512 KiB" (bytes between samples),
// "rate 1 in 100 allocations", or "every allocation recorded".
std::string rate_words(const SamplingModel& model);

std::string model_name(ModelKind kind);  // "binomial (p = 1 - exp(-s/T))", ...
// The model in words: model_name, and the pass-through size when there is one.
std::string model_description(const SamplingModel& model);

}  // namespace allocsim::profile
