#pragma once
// What allocsim's model of a system predicts for each site of a replayed plan: the
// mean, variance, fourth cumulant and whole distribution of the number of sampled
// allocations per run, and the mean and variance of one estimator over the site's live
// allocations.
//
// Closed forms where the scheme samples allocations independently
// (EstimatorTheory::allocations): with pi_i = 1 - exp(log_p_none_i) the count is a sum of
// independent Bernoulli(pi_i), whose cumulants add:
//   mean = sum pi_i, var = sum pi_i (1 - pi_i), kappa4 = sum pi_i (1 - pi_i) (1 - 6 pi_i (1 - pi_i)),
// and its distribution is the Poisson-binomial of the pi_i;
// the estimate has mean sum (bias_i + truth_i) and variance sum variance_i. Otherwise
// Monte Carlo: `replications` replays of the scheme on the trace (finalize applied
// per site, so non-linear estimators such as per-stack scaling work too), whose
// histogram is then the count's distribution.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/conformance/count_distribution.h"
#include "allocsim/engine/scheme_replay.h"
#include "allocsim/sampler/scheme.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

struct SiteMoments {
  double count_mean = 0, count_var = 0, count_kappa4 = 0;
  CountDistribution count_distribution;  // per run
  double estimate_mean = 0, estimate_var = 0;
  // Truth of the site: every allocation, and the live ones the estimate targets.
  double allocations = 0;
  double live_count = 0, live_requested = 0, live_allocated = 0;
};

struct ModelRequest {
  std::size_t estimator = 0;     // index into scheme.estimators()
  bool count_live_only = false;  // the tool lists only live sampled allocations
  std::uint64_t replications = 4000;
  std::uint64_t seed = 1;
  unsigned threads = 1;  // Monte Carlo worker threads; the result does not depend on it
};

struct ModelMoments {
  std::vector<SiteMoments> sites;  // indexed by the trace's stack id
  bool closed_form_counts = false;
  bool closed_form_estimates = false;
  std::uint64_t replications = 0;  // Monte Carlo replications (0 when all closed form)
};

// One replay of the scheme under `key`: per site (the trace's stack id), the sampled
// count (freed allocations too unless request.count_live_only) and the request's
// estimator over the live ones; the replay's observations stay in `replay`.
struct ReplayTotals {
  std::vector<double> counts, estimates;
};
void replay_totals(SchemeReplay& replay, const Trace& trace, const ModelRequest& request, const StreamKey& key,
                   ReplayTotals& totals);

ModelMoments model_moments(const Scheme& scheme, const Trace& trace, const ModelRequest& request);

}  // namespace allocsim
