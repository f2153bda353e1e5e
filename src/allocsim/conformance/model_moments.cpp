#include "allocsim/conformance/model_moments.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "allocsim/engine/replication_rows.h"
#include "allocsim/engine/scheme_replay.h"

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

// The stream of the Monte Carlo replications.
constexpr std::uint64_t kModelStream = 0xC0FF0E;

// Runs blocks of replications; a replication's row holds, per site, the count of
// sampled allocations (live ones only if asked) and then, per site, the estimate
// over its live allocations (finalize applied per site).
class SiteReplications {
 public:
  SiteReplications(const Scheme& scheme, const Trace& trace, const ModelRequest& request)
      : scheme_(scheme), trace_(trace), request_(request), replay_(scheme, trace),
        register_count_(scheme.estimators().at(request.estimator).registers),
        first_register_(replay_.first_register(request.estimator)),
        site_registers_(trace.stack_count * register_count_) {}

  ReplicationRows run_block(const StreamKey& first, std::uint64_t count) {
    const std::size_t sites = trace_.stack_count;
    ReplicationRows rows{2 * sites, {}};
    rows.values.reserve(count * rows.width);
    StreamKey key = first;
    for (std::uint64_t r = 0; r < count; ++r, ++key.replication) {
      replay_.replay(key);
      const std::span<double> row = rows.add_row();
      std::fill(site_registers_.begin(), site_registers_.end(), 0.0);
      const auto& observations = replay_.observations();
      for (std::size_t o = 0; o < observations.size(); ++o) {
        const std::size_t i = observations[o].event;
        const std::size_t site = trace_.stack[i];
        const bool live = trace_.live_at_end(i);
        if (live || !request_.count_live_only) row[site] += 1;
        if (!live) continue;
        const std::span<const double> registers = replay_.registers(o).subspan(first_register_, register_count_);
        for (std::size_t j = 0; j < register_count_; ++j) site_registers_[site * register_count_ + j] += registers[j];
      }
      for (std::size_t site = 0; site < sites; ++site) {
        const std::span<const double> registers(&site_registers_[site * register_count_], register_count_);
        row[sites + site] = register_count_ == 1 ? registers[0] : scheme_.finalize(request_.estimator, registers);
      }
    }
    return rows;
  }

 private:
  const Scheme& scheme_;
  const Trace& trace_;
  const ModelRequest& request_;
  SchemeReplay replay_;
  std::size_t register_count_;  // the requested estimator's
  std::size_t first_register_;
  std::vector<double> site_registers_;  // [site][register]
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

  // Monte Carlo for the rest: per replication, row [site counts..., site estimates...].
  const ReplicationRange range{{request.seed, kModelStream, 0}, request.replications};
  const std::vector<PowerSums> sums = accumulate_columns<PowerSums>(
      range, 2 * sites, [&] { return std::make_unique<SiteReplications>(scheme, trace, request); }, request.threads);
  out.replications = request.replications;
  for (std::size_t site = 0; site < sites; ++site) {
    SiteMoments& s = out.sites[site];
    const PowerSums& counts = sums[site];
    const PowerSums& estimates = sums[sites + site];
    if (!out.closed_form_counts) {
      s.count_mean = counts.mean();
      s.count_var = counts.variance();
      s.count_kappa4 = counts.kappa4();
    }
    if (!out.closed_form_estimates) {
      s.estimate_mean = estimates.mean();
      s.estimate_var = estimates.variance();
    }
  }
  return out;
}

}  // namespace allocsim
