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
    if (out.closed_form_counts) count_theory = t.allocations(trace);
  }
  const EstimatorTheory estimate_theory = scheme.theory(request.estimator);
  out.closed_form_estimates = estimate_theory.per_allocation();
  const std::vector<AllocationTheory> allocation_theory =
      out.closed_form_estimates ? estimate_theory.allocations(trace) : std::vector<AllocationTheory>{};
  for (std::size_t i = 0; i < trace.size(); ++i) {
    SiteMoments& s = out.sites[trace.stack[i]];
    const bool live = trace.live_at_end(i);
    if (out.closed_form_counts && (live || !request.count_live_only)) {
      const double pi = -std::expm1(count_theory[i].log_p_none);
      const double v = pi * (1 - pi);
      s.count_mean += pi;
      s.count_var += v;
      s.count_kappa4 += v * (1 - 6 * v);
    }
    if (out.closed_form_estimates && live) {
      const AllocationTheory& t = allocation_theory[i];
      s.estimate_mean += t.bias + truth_of(scheme, spec.quantity, trace, i);
      s.estimate_var += t.variance;
    }
  }
  if (out.closed_form_counts && out.closed_form_estimates) return out;

  // Monte Carlo for the rest.
  std::size_t width = 0, offset = 0;
  for (std::size_t e = 0; e < estimators.size(); ++e) {
    if (e == request.estimator) offset = width;
    width += estimators[e].registers;
  }
  const std::size_t registers = spec.registers;
  std::vector<PowerSums> counts(sites), estimates(sites);
  std::vector<double> site_counts(sites), site_registers(sites * registers), contributions;
  std::vector<Observation> observations;
  auto run = scheme.start(trace);
  for (std::uint64_t r = 0; r < request.replications; ++r) {
    observations.clear();
    run->replay({request.seed, 0xC0FF0E, r}, observations);
    contributions.assign(observations.size() * width, 0.0);
    scheme.weigh(trace, observations, contributions);
    std::fill(site_counts.begin(), site_counts.end(), 0.0);
    std::fill(site_registers.begin(), site_registers.end(), 0.0);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const std::size_t i = observations[o].event;
      const std::size_t site = trace.stack[i];
      const bool live = trace.live_at_end(i);
      if (live || !request.count_live_only) site_counts[site] += 1;
      if (!live) continue;
      for (std::size_t j = 0; j < registers; ++j) site_registers[site * registers + j] += contributions[o * width + offset + j];
    }
    for (std::size_t site = 0; site < sites; ++site) {
      counts[site].add(site_counts[site]);
      const std::span<const double> regs(&site_registers[site * registers], registers);
      estimates[site].add(registers == 1 ? regs[0] : scheme.finalize(request.estimator, regs));
    }
  }
  out.replications = request.replications;
  for (std::size_t site = 0; site < sites; ++site) {
    SiteMoments& s = out.sites[site];
    if (!out.closed_form_counts) {
      s.count_mean = counts[site].mean();
      s.count_var = counts[site].variance();
      s.count_kappa4 = counts[site].kappa4();
    }
    if (!out.closed_form_estimates) {
      s.estimate_mean = estimates[site].mean();
      s.estimate_var = estimates[site].variance();
    }
  }
  return out;
}

}  // namespace allocsim
