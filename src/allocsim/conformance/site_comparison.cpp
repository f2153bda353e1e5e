#include "allocsim/conformance/site_comparison.h"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdint>

namespace allocsim {
namespace {

double mean_of(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}

double variance_of(const std::vector<double>& x) {
  const double m = mean_of(x);
  double s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return x.size() > 1 ? s / static_cast<double>(x.size() - 1) : 0.0;
}

double two_sided_normal(double z) {
  return 2 * boost::math::cdf(boost::math::complement(boost::math::normal(), std::fabs(z)));
}

// A z statistic against a model variance; a variance of 0 means the model allows
// only its mean (any other value fails outright).
TestResult z_test(std::string name, std::string site, double difference, double variance) {
  TestResult t{std::move(name), std::move(site), 0, 1, false};
  if (variance <= 0) {
    t.p_value = std::fabs(difference) < 1e-9 ? 1.0 : 0.0;
    t.statistic = t.p_value == 1.0 ? 0.0 : INFINITY;
    return t;
  }
  t.statistic = difference / std::sqrt(variance);
  t.p_value = two_sided_normal(t.statistic);
  return t;
}

}  // namespace

Comparison compare_sites(const std::vector<SiteObservations>& observed, const ModelMoments& model, double alpha) {
  Comparison out;
  out.alpha = alpha;
  double chi2 = 0;
  std::size_t chi2_terms = 0;
  // 1 / M for moments from M Monte Carlo replications, 0 for closed forms.
  const double per_replication = model.replications > 0 ? 1.0 / static_cast<double>(model.replications) : 0.0;
  const double count_error = model.closed_form_counts ? 0.0 : per_replication;
  const double estimate_error = model.closed_form_estimates ? 0.0 : per_replication;
  for (std::size_t s = 0; s < observed.size(); ++s) {
    const SiteObservations& o = observed[s];
    const SiteMoments& m = model.sites[s];
    const double runs = static_cast<double>(o.counts.size());
    SiteRow row;
    row.site = o.name;
    row.allocations = m.allocations;
    row.model_count = m.count_mean;
    row.observed_count = mean_of(o.counts);
    row.observed_count_var = variance_of(o.counts);
    row.se_observed_count = std::sqrt(row.observed_count_var / runs);
    row.model_count_var = m.count_var;
    row.model_p = m.count_mean / m.allocations;
    row.observed_p = row.observed_count / m.allocations;

    TestResult count =
        z_test("count", o.name, row.observed_count - m.count_mean, m.count_var / runs + m.count_var * count_error);
    row.z_count = count.statistic;
    if (m.count_var > 0 && !o.part) {
      chi2 += count.statistic * count.statistic;
      ++chi2_terms;
    }
    const auto pooled = static_cast<std::uint64_t>(std::llround(row.observed_count * runs));
    row.count_p = two_sided_p_value(pooled_distribution(m.count_distribution, o.counts.size()), pooled);
    count.p_value = row.count_p;
    out.tests.push_back(count);

    if (o.counts.size() >= kMinRunsForVarianceTest) {
      // Var(s^2) = kappa4 / n + 2 var^2 / (n - 1), for the K runs and the M replications.
      double var_of_variance = m.count_kappa4 / runs + 2 * m.count_var * m.count_var / (runs - 1);
      if (count_error > 0) var_of_variance += (m.count_kappa4 + 2 * m.count_var * m.count_var) * count_error;
      TestResult spread = z_test("count_var", o.name, row.observed_count_var - m.count_var, var_of_variance);
      row.z_count_var = spread.statistic;
      out.tests.push_back(spread);
    }

    row.truth = o.truth;
    row.model_estimate = m.estimate_mean;
    row.model_estimate_sd = std::sqrt(m.estimate_var);
    if (!o.estimates.empty()) {
      row.observed_estimate = mean_of(o.estimates);
      row.se_observed_estimate = std::sqrt(variance_of(o.estimates) / runs);
      TestResult estimate = z_test("estimate", o.name, *row.observed_estimate - m.estimate_mean,
                                   m.estimate_var / runs + m.estimate_var * estimate_error);
      // Where the model has no variance, the tool's integer output (less than 1 unit
      // per stack record, o.rounding in all) is the only difference allowed.
      if (m.estimate_var <= 0 && std::fabs(*row.observed_estimate - m.estimate_mean) < o.rounding) {
        estimate.p_value = 1;
      }
      row.z_estimate = estimate.statistic;
      out.tests.push_back(estimate);
    }
    out.rows.push_back(row);
  }
  if (chi2_terms > 0) {
    const boost::math::chi_squared_distribution<double> d(static_cast<double>(chi2_terms));
    out.tests.push_back({"chi2", "", chi2, boost::math::cdf(boost::math::complement(d, chi2)), false});
  }
  out.threshold = alpha / static_cast<double>(out.tests.size());
  for (TestResult& t : out.tests) {
    t.failed = t.p_value < out.threshold;
    if (t.failed) out.passed = false;
  }
  return out;
}

}  // namespace allocsim
