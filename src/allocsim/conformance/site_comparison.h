#pragma once
// Compares what K independent runs of a real sampler did at each site with what
// allocsim's model predicts (model_moments.h), with tests whose false-alarm rates
// are stated:
//   - sampled count: the exact two-sided test of the count pooled over the K runs
//     against the K-fold convolution of the model's per-run distribution
//     (count_distribution.h: Poisson-binomial where the model samples allocations
//     independently, its Monte Carlo histogram otherwise). A normal approximation
//     fails a correct model far too often on sites with few samples: 2 samples in 12
//     runs of a site the model expects 0.015 per run of is z = 4.2, yet happens with
//     probability 1.4%. z = (mean - mu) / sqrt(var / K) is still reported (and feeds
//     chi^2);
//   - variance of the count: z = (s^2 - var) / sqrt(kappa4 / K + 2 var^2 / (K - 1)),
//     the variance of the sample variance for any distribution with fourth cumulant
//     kappa4; only from kMinRunsForVarianceTest runs on, as s^2 is far from normal
//     for fewer runs of a skewed count (plus the same for the model's s^2 over M
//     Monte Carlo replications);
//   - the tool's estimate: z = (mean estimate - model mean) / sqrt(model var / K)
//     (+ model var / M for a Monte Carlo model); where the model has no variance, a
//     difference up to the site's `rounding` passes (the tool's integer output);
//   - over the plan's sites: chi^2 = sum of the mean-count z^2 on (sites) degrees
//     of freedom; the per-size parts of a site (`part`) are left out, as they
//     compose the site's own count and are correlated with it.
// The verdict fails when any two-sided p-value is below alpha / m (Bonferroni over
// the m tests), so a correct model fails with probability at most alpha.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/conformance/model_moments.h"

namespace allocsim {

inline constexpr std::size_t kMinRunsForVarianceTest = 30;

struct SiteObservations {
  std::string name;
  std::vector<double> counts;     // sampled allocations, one per run
  std::vector<double> estimates;  // the tool's estimate, one per run (empty: none)
  double truth = 0;               // what the tool's estimate targets (live)
  // The most the tool's integer output can move the mean estimate: each per-stack
  // number it writes is truncated or rounded by less than 1 unit, and the site's
  // allocations fall in one stack record per size.
  double rounding = 0;
  bool part = false;  // a per-size part of a site: not in chi^2
};

struct TestResult {
  std::string name;  // "count", "count_var", "estimate", "chi2"
  std::string site;  // empty for the chi2 over all sites
  double statistic = 0;
  double p_value = 1;
  bool failed = false;
};

struct SiteRow {
  std::string site;
  double allocations = 0;
  double model_count = 0, observed_count = 0, se_observed_count = 0, z_count = 0;
  double model_count_var = 0, observed_count_var = 0;
  std::optional<double> z_count_var;
  double model_p = 0, observed_p = 0;  // per allocation: mean count / allocations
  double count_p = 1;                  // the exact test's p-value
  double truth = 0;
  double model_estimate = 0, model_estimate_sd = 0;
  std::optional<double> observed_estimate, se_observed_estimate, z_estimate;
};

struct Comparison {
  std::vector<SiteRow> rows;
  std::vector<TestResult> tests;
  double alpha = 0;
  double threshold = 0;  // alpha / m
  bool passed = true;
};

// Sites are in model.sites order; model.replications (with its closed_form_* flags)
// says which moments carry Monte Carlo error. Every site's model needs its
// count_distribution.
Comparison compare_sites(const std::vector<SiteObservations>& observed, const ModelMoments& model, double alpha);

}  // namespace allocsim
