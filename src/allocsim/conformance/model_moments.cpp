#include "allocsim/conformance/model_moments.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "allocsim/engine/replication_rows.h"
#include "allocsim/engine/scheme_replay.h"
#include "allocsim/random/stream_purpose.h"

namespace allocsim {
namespace {

double truth_of(const Scheme& scheme, Quantity quantity, const Trace& trace, std::size_t i) {
  switch (quantity) {
    case Quantity::requested_bytes: return static_cast<double>(trace.requested[i]);
    case Quantity::allocated_bytes: return static_cast<double>(scheme.allocated_size(trace, i));
    case Quantity::count: return 1.0;
    case Quantity::net_allocated_bytes:
      return trace.live_at_end(i) ? static_cast<double>(scheme.allocated_size(trace, i)) : 0.0;
  }
  return 0.0;
}

// Running sums of powers, for mean, variance and fourth cumulant.
struct PowerSums {
  double n = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;
  void add(double x) {
    n += 1;
    s1 += x;
    s2 += x * x;
    s3 += x * x * x;
    s4 += x * x * x * x;
  }
  double mean() const { return s1 / n; }
  double variance() const { return (s2 - s1 * s1 / n) / (n - 1); }
  // Central moment estimates m2, m4 give kappa4 ~ m4 - 3 m2^2 (bias O(1/n)).
  double kappa4() const {
    const double m = mean();
    const double m2 = s2 / n - m * m;
    const double m4 = s4 / n - 4 * m * s3 / n + 6 * m * m * s2 / n - 3 * m * m * m * m;
    return m4 - 3 * m2 * m2;
  }
};

// The stream of the Monte Carlo replications.
constexpr std::uint64_t kModelStream = stream_of(StreamPurpose::conformance_model);

// Runs blocks of replications; a replication's row holds, per site, the count of
// sampled allocations (live ones only if asked) and then, per site, the estimate
// over its live allocations (replay_totals).
class SiteReplications {
 public:
  SiteReplications(const Scheme& scheme, const Trace& trace, const ModelRequest& request)
      : trace_(trace), request_(request), replay_(scheme, trace) {}

  ReplicationRows run_block(const StreamKey& first, std::uint64_t count) {
    const std::size_t sites = trace_.stack_count;
    ReplicationRows rows{2 * sites, {}};
    rows.values.reserve(count * rows.width);
    StreamKey key = first;
    for (std::uint64_t r = 0; r < count; ++r, ++key.replication) {
      replay_totals(replay_, trace_, request_, key, totals_);
      const std::span<double> row = rows.add_row();
      std::copy(totals_.counts.begin(), totals_.counts.end(), row.begin());
      std::copy(totals_.estimates.begin(), totals_.estimates.end(), row.begin() + static_cast<std::ptrdiff_t>(sites));
    }
    return rows;
  }

 private:
  const Trace& trace_;
  const ModelRequest& request_;
  SchemeReplay replay_;
  ReplayTotals totals_;
};

// A Monte Carlo column: its power sums and, for the count's exact test, its values.
struct SiteColumn {
  PowerSums sums;
  std::vector<double> values;
  void add(double x) {
    sums.add(x);
    values.push_back(x);
  }
};

}  // namespace

void replay_totals(SchemeReplay& replay, const Trace& trace, const ModelRequest& request, const StreamKey& key,
                   ReplayTotals& totals) {
  const std::size_t sites = trace.stack_count;
  replay.replay(key);
  const auto& observations = replay.observations();
  totals.counts.assign(sites, 0.0);
  for (const Observation& o : observations) {
    if (!request.count_live_only || trace.live_at_end(o.event)) totals.counts[trace.stack[o.event]] += 1;
  }
  replay.group_estimates(
      request.estimator, sites,
      [&](std::size_t o) {
        const std::size_t i = observations[o].event;
        return trace.live_at_end(i) ? std::size_t{trace.stack[i]} : sites;
      },
      totals.estimates);
}

ModelMoments model_moments(const Scheme& scheme, const Trace& trace, const ModelRequest& request) {
  const auto& estimators = scheme.estimators();
  const EstimatorSpec& spec = estimators.at(request.estimator);
  const std::size_t sites = trace.stack_count;
  ModelMoments out;
  out.sites.resize(sites);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    SiteMoments& s = out.sites[trace.stack[i]];
    s.allocations += 1;
    if (!trace.live_at_end(i)) continue;
    s.live_count += 1;
    s.live_requested += static_cast<double>(trace.requested[i]);
    s.live_allocated += static_cast<double>(scheme.allocated_size(trace, i));
  }

  // Closed forms: the count needs any estimator with per-allocation theory (its
  // log_p_none), the estimate needs the requested one's.
  out.closed_form_counts = false;
  std::vector<AllocationTheory> count_theory;
  for (std::size_t e = 0; e < estimators.size() && !out.closed_form_counts; ++e) {
    const EstimatorTheory t = scheme.theory(e);
    out.closed_form_counts = t.per_allocation();
    if (out.closed_form_counts) count_theory = t.all_allocations(trace);
  }
  const EstimatorTheory estimate_theory = scheme.theory(request.estimator);
  out.closed_form_estimates = estimate_theory.per_allocation();
  const std::vector<AllocationTheory> allocation_theory =
      out.closed_form_estimates ? estimate_theory.all_allocations(trace) : std::vector<AllocationTheory>{};
  std::vector<std::vector<double>> inclusion(out.closed_form_counts ? sites : 0);  // pi_i per site
  for (std::size_t i = 0; i < trace.size(); ++i) {
    SiteMoments& s = out.sites[trace.stack[i]];
    const bool live = trace.live_at_end(i);
    if (out.closed_form_counts && (live || !request.count_live_only)) {
      const double pi = -std::expm1(count_theory[i].log_p_none);
      const double v = pi * (1 - pi);
      s.count_mean += pi;
      s.count_var += v;
      s.count_kappa4 += v * (1 - 6 * v);
      inclusion[trace.stack[i]].push_back(pi);
    }
    if (out.closed_form_estimates && live) {
      const AllocationTheory& t = allocation_theory[i];
      s.estimate_mean += t.bias + truth_of(scheme, spec.quantity, trace, i);
      s.estimate_var += t.variance;
    }
  }
  for (std::size_t site = 0; site < inclusion.size(); ++site) {
    out.sites[site].count_distribution = poisson_binomial(inclusion[site]);
  }
  if (out.closed_form_counts && out.closed_form_estimates) return out;

  // Monte Carlo for the rest: per replication, row [site counts..., site estimates...].
  const ReplicationRange range{{request.seed, kModelStream, 0}, request.replications};
  const std::vector<SiteColumn> columns = accumulate_columns<SiteColumn>(
      range, 2 * sites, [&] { return std::make_unique<SiteReplications>(scheme, trace, request); }, request.threads);
  out.replications = request.replications;
  for (std::size_t site = 0; site < sites; ++site) {
    SiteMoments& s = out.sites[site];
    const PowerSums& counts = columns[site].sums;
    const PowerSums& estimates = columns[sites + site].sums;
    if (!out.closed_form_counts) {
      s.count_mean = counts.mean();
      s.count_var = counts.variance();
      s.count_kappa4 = counts.kappa4();
      s.count_distribution = empirical_distribution(columns[site].values);
    }
    if (!out.closed_form_estimates) {
      s.estimate_mean = estimates.mean();
      s.estimate_var = estimates.variance();
    }
  }
  return out;
}

}  // namespace allocsim
