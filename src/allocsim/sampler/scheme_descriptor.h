#pragma once
// Everything allocsim knows about one scheme, declared once beside its code (the
// system's folder): its name and sources, its parameters and defaults, and what the
// layers above ask of it without naming it: how it chooses samples (profile/), whether
// it has a skip-ahead replay (the shard cost), which parameter is its rate and in
// what unit (evaluate, the shard cost), whether and how `advise` sets it, and how
// `conformance` drives the real system.
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/design/design_objective.h"
#include "allocsim/json/json_reader.h"
#include "allocsim/sampler/conformance_system.h"
#include "allocsim/sampler/scheme.h"
#include "allocsim/sampler/scheme_parameters.h"

namespace allocsim {

// How a scheme chooses its samples, as far as an interval on one profile entry needs
// it (profile/sampling_model.h holds the formulas):
enum class SamplingFamily {
  none,                        // deterministic, or sizes designed from the trace: no entry model
  per_allocation_exponential,  // at most one sample per allocation, p(s) = 1 - exp(-s/T)
  poisson_bytes,               // leftover carried: Poisson(B/T) samples in B bytes
  per_allocation_fixed,        // each allocation with probability 1/T whatever its size
};

enum class RateUnit { bytes, allocations };

// The parameter that sets the mean interval T between samples.
struct SchemeRate {
  std::string parameter = "rate";  // a declared parameter; its aliases are read too
  RateUnit unit = RateUnit::bytes;
};

// How `allocsim advise` sets the scheme for a mean interval between samples.
struct AdviceRule {
  // The smallest interval the scheme accepts (.NET's 1/T must stay below 1).
  double least_interval = 1;
  // The scheme's parameters for a mean interval over a trace of `trace_bytes`, with
  // the stack targets when the user gave them; empty: {rate parameter: interval}.
  std::function<nlohmann::json(double interval, double trace_bytes, const std::optional<StackObjective>& stacks)>
      parameters = {};
  // Its sample sizes are designed from the trace itself (no fixed P(>= 1 sample) curve).
  bool designed_from_trace = false;
  // The largest interval the real system accepts at or below `interval` (jemalloc:
  // a power of two, 2^lg_prof_sample); empty: any whole number.
  std::function<double(double interval)> settable_at_most = {};
  // The real system samples at this interval only (the .NET runtime's 102400 B):
  // `advise` says whether it meets the targets instead of choosing an interval.
  std::optional<double> fixed_interval = {};
};

// Chart-legend words for an estimator name this system alone uses (names several
// systems share are worded in estimator_legends.cpp).
struct EstimatorLegend {
  std::string estimator;  // as in its EstimatorSpec, without a window prefix
  std::string words;      // "bytes, estimate 2 (s·q/p + u)"
};

struct SchemeDescriptor {
  std::string name;
  std::string summary;
  std::string source;  // the design document / code it models
  std::vector<ParameterInfo> parameters;
  std::vector<std::string> variants;  // where the real code and the document differ
  // Reads the scheme's parameters (the caller finishes the object).
  std::function<std::unique_ptr<Scheme>(SchemeParameters& params)> create;
  std::optional<SchemeRate> rate = {};  // none: no mean interval (ocaml's lambda, a design's samples)
  SamplingFamily family = SamplingFamily::none;
  bool skip_ahead = false;                // Scheme::prepare gives skip-ahead runs (checked for every scheme)
  std::optional<AdviceRule> advice = {};  // none: `advise` does not consider it
  // The heap profile formats this system writes, as profile/ names them ("pprof",
  // "jemalloc heap_v2", "gperftools heap_v2"): how a profile read is given its model.
  std::vector<std::string> profile_formats = {};
  // The drivers of the real system that `allocsim conformance` runs against this
  // scheme (the registry fills in their scheme, and their rate_parameter if empty).
  std::vector<ConformanceSystem> conformance = {};
  std::vector<EstimatorLegend> estimator_legends = {};

  // The declared parameter `rate` names; nullptr without a rate.
  const ParameterInfo* rate_parameter() const { return rate ? find_parameter(parameters, rate->parameter) : nullptr; }
};

}  // namespace allocsim
