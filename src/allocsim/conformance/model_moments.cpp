#include "allocsim/conformance/model_moments.h"

#include <cmath>

namespace allocsim {
namespace {

double truth_of(const Scheme& scheme, Quantity quantity, const Trace& trace, std::size_t i) {
  switch (quantity) {
    case Quantity::requested_bytes: return static_cast<double>(trace.requested[i]);
    case Quantity::allocated_bytes: return static_cast<double>(scheme.allocated_size(trace, i));
    case Quantity::count: return 1.0;
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

}  // namespace

void replay_totals(const Scheme& scheme, SchemeRun& run, const Trace& trace, const ModelRequest& request,
                   const StreamKey& key, std::vector<Observation>& observations, ReplayTotals& totals) {
  const auto& estimators = scheme.estimators();
  std::size_t width = 0, offset = 0;
  for (std::size_t e = 0; e < estimators.size(); ++e) {
    if (e == request.estimator) offset = width;
    width += estimators[e].registers;
  }
  const std::size_t registers = estimators.at(request.estimator).registers;
  const std::size_t sites = trace.stack_count;
  observations.clear();
  run.replay(key, observations);
  std::vector<double> contributions(observations.size() * width, 0.0), site_registers(sites * registers, 0.0);
  scheme.weigh(trace, observations, contributions);
  totals.counts.assign(sites, 0.0);
  totals.estimates.assign(sites, 0.0);
  for (std::size_t o = 0; o < observations.size(); ++o) {
    const std::size_t i = observations[o].event;
    const std::size_t site = trace.stack[i];
    const bool live = trace.live_at_end(i);
    if (live || !request.count_live_only) totals.counts[site] += 1;
    if (!live) continue;
    for (std::size_t j = 0; j < registers; ++j) site_registers[site * registers + j] += contributions[o * width + offset + j];
  }
  for (std::size_t site = 0; site < sites; ++site) {
    const std::span<const double> regs(&site_registers[site * registers], registers);
    totals.estimates[site] = registers == 1 ? regs[0] : scheme.finalize(request.estimator, regs);
  }
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
  std::size_t theory_estimator = estimators.size();
  for (std::size_t e = 0; e < estimators.size(); ++e) {
    if (scheme.has_allocation_theory(e)) {
      theory_estimator = e;
      break;
    }
  }
  out.closed_form_counts = theory_estimator < estimators.size();
  out.closed_form_estimates = scheme.has_allocation_theory(request.estimator);
  std::vector<std::vector<double>> inclusion(out.closed_form_counts ? sites : 0);  // pi_i per site
  for (std::size_t i = 0; i < trace.size(); ++i) {
    SiteMoments& s = out.sites[trace.stack[i]];
    const bool live = trace.live_at_end(i);
    if (out.closed_form_counts && (live || !request.count_live_only)) {
      const double pi = -std::expm1(scheme.allocation_theory(theory_estimator, trace, i).log_p_none);
      const double v = pi * (1 - pi);
      s.count_mean += pi;
      s.count_var += v;
      s.count_kappa4 += v * (1 - 6 * v);
      inclusion[trace.stack[i]].push_back(pi);
    }
    if (out.closed_form_estimates && live) {
      const AllocationTheory t = scheme.allocation_theory(request.estimator, trace, i);
      s.estimate_mean += t.bias + truth_of(scheme, spec.quantity, trace, i);
      s.estimate_var += t.variance;
    }
  }
  for (std::size_t site = 0; site < inclusion.size(); ++site) {
    out.sites[site].count_distribution = poisson_binomial(inclusion[site]);
  }
  if (out.closed_form_counts && out.closed_form_estimates) return out;

  // Monte Carlo for the rest.
  std::vector<PowerSums> counts(sites), estimates(sites);
  std::vector<std::vector<double>> count_draws(out.closed_form_counts ? 0 : sites);
  std::vector<Observation> observations;
  ReplayTotals totals;
  auto run = scheme.start(trace);
  for (std::uint64_t r = 0; r < request.replications; ++r) {
    replay_totals(scheme, *run, trace, request, {request.seed, 0xC0FF0E, r}, observations, totals);
    for (std::size_t site = 0; site < sites; ++site) {
      counts[site].add(totals.counts[site]);
      if (!out.closed_form_counts) count_draws[site].push_back(totals.counts[site]);
      estimates[site].add(totals.estimates[site]);
    }
  }
  out.replications = request.replications;
  for (std::size_t site = 0; site < sites; ++site) {
    SiteMoments& s = out.sites[site];
    if (!out.closed_form_counts) {
      s.count_mean = counts[site].mean();
      s.count_var = counts[site].variance();
      s.count_kappa4 = counts[site].kappa4();
      s.count_distribution = empirical_distribution(count_draws[site]);
    }
    if (!out.closed_form_estimates) {
      s.estimate_mean = estimates[site].mean();
      s.estimate_var = estimates[site].variance();
    }
  }
  return out;
}

}  // namespace allocsim
