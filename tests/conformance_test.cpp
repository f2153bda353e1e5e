// The conformance plumbing: plan and trace, driver output, model moments, the site
// tests and the command's input errors. (The real drivers run in ./test.sh.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "allocsim/conformance/conformance_report.h"
#include "allocsim/conformance/count_distribution.h"
#include "allocsim/conformance/driver_output.h"
#include "allocsim/conformance/model_moments.h"
#include "allocsim/conformance/plan.h"
#include "allocsim/conformance/site_comparison.h"
#include "allocsim/conformance/system.h"
#include "allocsim/conformance/verdict_simulation.h"
#include "allocsim/util/error.h"
#include "test_support.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

TEST(ConformancePlan, TraceFollowsThePlan) {
  Plan plan;
  plan.rate = 1024;
  plan.sites = {{"a", 3, false, {10, 20}}, {"b", 2, true, {30}}};
  EXPECT_EQ(encode_plan(plan), "rate 1024\nsite a 3 0 10 20\nsite b 2 1 30\n");
  const Trace trace = plan_trace(plan, {{10, 16}, {20, 32}, {30, 32}});
  EXPECT_EQ(trace.requested, (std::vector<std::uint64_t>{10, 20, 10, 30, 30}));
  EXPECT_EQ(trace.allocated, (std::vector<std::uint64_t>{16, 32, 16, 32, 32}));
  EXPECT_EQ(trace.stack, (std::vector<std::uint32_t>{0, 0, 0, 1, 1}));
  EXPECT_EQ(trace.stack_names, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(trace.live_at_end(2));
  EXPECT_EQ(trace.free_time[3], trace.time[3] + 1);  // freed right after
  EXPECT_LT(trace.free_time[3], trace.time[4]);
  EXPECT_FALSE(plan_trace(plan).has_allocated_sizes());
  const Trace split = plan_trace(plan, {}, true);  // a site of several sizes splits, one of one does not
  EXPECT_EQ(split.stack_names, (std::vector<std::string>{"a:10", "a:20", "b"}));
  EXPECT_EQ(split.stack, (std::vector<std::uint32_t>{0, 1, 0, 2, 2}));
  EXPECT_THROW(plan_trace(plan, {{10, 16}}), InputError);
}

// The standard plan keeps 56792 blocks live at scale 1 (72 unscaled): scale 18 fits
// the drivers' table of 2^20 blocks, scale 20 (1.1 million) does not.
TEST(ConformancePlan, ScaleIsBoundedByTheLiveBlockTable) {
  EXPECT_EQ(standard_plan(4096, 18).sites[1].count, 900000u);
  EXPECT_THROW(standard_plan(4096, 20), InputError);
  EXPECT_THROW(standard_plan(4096, 0), InputError);
}

// Driver meta values become model parameters only when they are numbers in range.
TEST(ConformanceSystems, MetaValuesAreChecked) {
  const ConformanceSystem* gperftools = find_conformance_system("gperftools");
  ASSERT_NE(gperftools, nullptr);
  nlohmann::json parameters = nlohmann::json::object();
  gperftools->from_meta(parameters, {{"allocated_before_plan", "74952"}});
  EXPECT_EQ(parameters["startup_counter"], (std::uint64_t{16} << 20) - 74952);
  EXPECT_THROW(gperftools->from_meta(parameters, {{"allocated_before_plan", "many"}}), InputError);
  EXPECT_THROW(gperftools->from_meta(parameters, {{"allocated_before_plan", "16777217"}}), InputError);
  const ConformanceSystem* go = find_conformance_system("go");
  ASSERT_NE(go, nullptr);
  EXPECT_NO_THROW(go->from_meta(parameters, {{"rate_at_main", "524288"}}));
  EXPECT_THROW(go->from_meta(parameters, {{"rate_at_main", "131072"}}), InputError);
  EXPECT_THROW(go->from_meta(parameters, {}), InputError);
}

TEST(ConformancePlan, StandardPlanScalesAllButStartup) {
  const Plan plan = standard_plan(4096, 0.01);
  ASSERT_EQ(plan.sites.front().name, "startup");
  EXPECT_EQ(plan.sites.front().count, 72u);
  for (const PlanSite& site : plan.sites) {
    EXPECT_GE(site.count, 1u) << site.name;
    if (site.name == "marker") {
      EXPECT_EQ(site.sizes, std::vector<std::uint64_t>{4096});
    }
    if (site.name == "small") {
      EXPECT_EQ(site.count, 500u);
    }
  }
}

std::string write_file(const testing::ScratchDirectory& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

TEST(ConformanceDriverOutput, ReadsRecordsAndRejectsBadLines) {
  const testing::ScratchDirectory dir;
  const std::string good = write_file(dir, "good.csv",
                                      "meta,version,5.3.0\nsample,small,24,32,1\nsample,freed,200,208,0\n"
                                      "profile,small,9,288\nestimate,small,10,320\nsize,24,32\n");
  const DriverRun run = read_driver_output(good);
  EXPECT_EQ(run.meta.at("version"), "5.3.0");
  ASSERT_EQ(run.samples.size(), 2u);
  EXPECT_EQ(run.samples[1].usable, 208u);
  EXPECT_FALSE(run.samples[1].live);
  EXPECT_EQ(run.profile.at(0).bytes, 288);
  EXPECT_EQ(run.estimates.at(0).objects, 10);
  EXPECT_EQ(run.sizes.at(24), 32u);
  const std::string bad = write_file(dir, "bad.csv", "meta,version,1\nsample,small,24x,32,1\n");
  try {
    read_driver_output(bad);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_driver_output(write_file(dir, "bad2.csv", "what,1\n")), InputError);
}

// Monte Carlo moments against the closed form: gperftools with a start-up counter
// of 1 byte always samples the first allocation and then runs like startup_counter
// = 0, whose counts have closed forms. Within kSigmas standard errors: mean se = sqrt(var / M),
// variance se ~ sqrt((kappa4 + 2 var^2) / M).
TEST(ConformanceModelMoments, MonteCarloAgreesWithClosedForm) {
  Plan plan;
  plan.rate = 4096;
  plan.sites = {{"first", 1, false, {100}}, {"rest", 300, false, {24, 1000, 5000}}, {"gone", 100, true, {2000}}};
  const Trace trace = plan_trace(plan);
  const auto closed = testing::create_scheme("gperftools", {{"rate", 4096}, {"startup_counter", 0}});
  const auto startup = testing::create_scheme("gperftools", {{"rate", 4096}, {"startup_counter", 1}});
  ModelRequest request;
  request.estimator = 0;
  request.replications = 20000;
  const ModelMoments exact = model_moments(*closed, trace, request);
  const ModelMoments mc = model_moments(*startup, trace, request);
  ASSERT_TRUE(exact.closed_form_counts && exact.closed_form_estimates);
  ASSERT_FALSE(mc.closed_form_counts || mc.closed_form_estimates);
  EXPECT_EQ(mc.sites[0].count_mean, 1.0);
  EXPECT_EQ(mc.sites[0].count_var, 0.0);
  for (std::size_t s = 1; s < 3; ++s) {
    const SiteMoments& e = exact.sites[s];
    const SiteMoments& m = mc.sites[s];
    const double M = static_cast<double>(request.replications);
    EXPECT_TRUE(testing::within_sigmas(m.count_mean, e.count_mean, testing::mean_standard_error(e.count_var, M))) << s;
    EXPECT_TRUE(testing::within_sigmas(m.count_var, e.count_var,
                                       std::sqrt((e.count_kappa4 + 2 * e.count_var * e.count_var) / M)))
        << s;
    // Plus 1e-9 for rounding where the estimate has no sampling error.
    EXPECT_TRUE(testing::within_sigmas(m.estimate_mean, e.estimate_mean,
                                       testing::mean_standard_error(e.estimate_var, M) + 1e-9 / testing::kSigmas))
        << s;
  }
  EXPECT_EQ(exact.sites[2].live_count, 0);  // the freed site has no live truth
  EXPECT_EQ(exact.sites[2].estimate_mean, 0);
  EXPECT_GT(exact.sites[2].count_mean, 0);  // but its allocations are sampled
}

// A model site of `n` allocations sampled independently with probability p.
SiteMoments binomial_site(std::size_t n, double p) {
  SiteMoments m;
  m.allocations = static_cast<double>(n);
  m.count_mean = static_cast<double>(n) * p;
  m.count_var = m.count_mean * (1 - p);
  m.count_kappa4 = m.count_var * (1 - 6 * p * (1 - p));  // n p q (1 - 6 p q)
  m.count_distribution = poisson_binomial(std::vector<double>(n, p));
  return m;
}

// Site tests on counts drawn from known binomials: the right model passes, a shifted
// mean or an inflated variance fails.
TEST(ConformanceSiteComparison, DetectsShiftedMeanAndVariance) {
  ModelMoments model;
  model.sites = {binomial_site(100, 0.1)};
  std::mt19937_64 rng(42);
  auto observe = [&](auto draw) {
    SiteObservations o;
    o.name = "s";
    for (int r = 0; r < 400; ++r) o.counts.push_back(draw());
    return compare_sites({o}, model, 1e-3);
  };
  std::binomial_distribution<int> right(100, 0.1), shifted(100, 0.13), wide(200, 0.05);
  std::bernoulli_distribution coin(0.5);
  const Comparison ok = observe([&] { return right(rng); });
  EXPECT_TRUE(ok.passed);
  EXPECT_EQ(ok.tests.size(), 3u);  // exact count, variance, chi2
  EXPECT_FALSE(observe([&] { return shifted(rng); }).passed);
  // floor(Binomial(200, 0.05) / 2) shifted by -5 or +5, plus 5: mean 9.75 (the
  // integer halving loses 0.25), variance 2.44 + 25 = 27.4 against the model's 9.
  const Comparison spread = observe([&] { return wide(rng) / 2 + (coin(rng) ? 5 : -5) + 5; });
  EXPECT_FALSE(spread.passed);
  bool variance_failed = false;
  for (const TestResult& t : spread.tests) variance_failed |= t.name == "count_var" && t.failed;
  EXPECT_TRUE(variance_failed);
}

// A site with too few runs for the variance test and a tool that writes no estimate
// prints "-" in those cells, never nan; the values that exist print as numbers.
TEST(ConformanceVerdictTable, MissingValuesPrintAsADash) {
  ConformanceSystem system;
  system.name = "raw-tool";
  ConformanceResult result;
  result.system = &system;
  result.counts.assign(3, {1.0});
  SiteRow row;
  row.site = "small";
  row.allocations = 10;
  row.model_count = 1.0;
  row.observed_count = 1.25;
  row.z_count = 0.5;
  row.observed_p = 0.125;
  result.comparison.rows = {row};
  const std::string table = verdict_table(result);
  EXPECT_EQ(table.find("nan"), std::string::npos) << table;
  const std::string line = table.substr(table.find("small"));
  EXPECT_NE(line.find("0.50        -  0.12500        -        -"), std::string::npos) << table;
  row.z_count_var = 1.5;
  row.truth = 100;
  row.observed_estimate = 90;
  row.z_estimate = -2;
  result.comparison.rows = {row};
  EXPECT_NE(verdict_table(result).find("1.50  0.12500   -10.0%    -2.00"), std::string::npos) << verdict_table(result);
}

// The exact pooled p-value: 0 samples in 2 runs of 10 allocations at p = 0.05 is
// 2 (1 - p)^20 (the lower tail, doubled).
TEST(ConformanceSiteComparison, ExactPooledPValue) {
  ModelMoments model;
  model.sites = {binomial_site(10, 0.05)};
  SiteObservations o{"s", {0, 0}, {}, 0};
  EXPECT_NEAR(compare_sites({o}, model, 1e-3).rows[0].count_p, 2 * std::pow(0.95, 20), 1e-12);
}

// The rare row that made the normal approximation flaky: 125 allocations at p =
// 1.22e-4 (16 bytes at T = 128 KiB), 12 runs, mean 0.183 pooled. 2 samples were z =
// 4.2 (p = 2.6e-5, a failure at 1e-3 / 19); exactly, P(S >= 2) = 1 - e^-m (1 + m) to
// within the Poisson approximation of the binomial (relative error ~ p).
TEST(ConformanceSiteComparison, RareRowsUseTheExactTail) {
  const double p = -std::expm1(-16.0 / 131072);
  ModelMoments model;
  model.sites = {binomial_site(125, p)};
  SiteObservations o{"mixed:16", {1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {}, 0};
  const Comparison c = compare_sites({o}, model, 1e-3);
  const double m = 12 * 125 * p;
  EXPECT_NEAR(c.rows[0].count_p, 2 * (1 - std::exp(-m) * (1 + m)), 1e-3 * c.rows[0].count_p);
  EXPECT_GT(c.rows[0].z_count, 4.0);
  ASSERT_EQ(c.tests[0].name, "count");
  EXPECT_FALSE(c.tests[0].failed);
}

// Distributions: the Poisson-binomial's mean and variance are sum pi and
// sum pi (1 - pi); pooling K runs convolves; an empirical histogram is the counts'
// frequencies; a count outside the support has p-value 0.
TEST(ConformanceCountDistribution, MomentsPoolingAndTails) {
  const std::vector<double> pi = {0.1, 0.5, 0.9, 0.3};
  const CountDistribution one = poisson_binomial(pi);
  auto moments = [](const CountDistribution& d) {
    double mean = 0, second = 0;
    for (std::size_t k = 0; k < d.probability.size(); ++k) {
      const double x = static_cast<double>(d.first + k);
      mean += x * d.probability[k];
      second += x * x * d.probability[k];
    }
    return std::pair{mean, second - mean * mean};
  };
  EXPECT_NEAR(moments(one).first, 1.8, 1e-12);
  EXPECT_NEAR(moments(one).second, 0.09 + 0.25 + 0.09 + 0.21, 1e-12);
  const CountDistribution pooled = pooled_distribution(one, 7);
  EXPECT_NEAR(moments(pooled).first, 7 * 1.8, 1e-9);
  EXPECT_NEAR(moments(pooled).second, 7 * 0.64, 1e-9);
  EXPECT_NEAR(pooled.probability.back(), std::pow(0.1 * 0.5 * 0.9 * 0.3, 7), 1e-20);
  EXPECT_EQ(two_sided_p_value(pooled, 29), 0.0);
  EXPECT_EQ(two_sided_p_value(one, 2), 1.0);
  const std::vector<double> counts = {3, 5, 5, 4};
  const CountDistribution empirical = empirical_distribution(counts);
  EXPECT_EQ(empirical.first, 3u);
  EXPECT_EQ(empirical.probability, (std::vector<double>{0.25, 0.25, 0.5}));
  EXPECT_EQ(two_sided_p_value(empirical, 2), 0.0);
  EXPECT_DOUBLE_EQ(two_sided_p_value(empirical, 3), 0.5);
}

// The estimate's z-test, and sites the model gives no variance: a site that can
// never be sampled passes with no samples and fails with one.
TEST(ConformanceSiteComparison, EstimatesAndDegenerateSites) {
  ModelMoments model;
  SiteMoments sampled = binomial_site(100, 0.1);
  sampled.estimate_mean = 1000;
  sampled.estimate_var = 100 * 100;  // sd 100 per run
  SiteMoments never = binomial_site(50, 0);
  model.sites = {sampled, never};
  auto compare = [&](double estimate_shift, double never_count) {
    SiteObservations a{"a", {}, {}, 1000}, b{"b", {}, {}, 0};
    for (int r = 0; r < 100; ++r) {
      a.counts.push_back(r % 2 == 0 ? 7 : 13);
      a.estimates.push_back(1000 + estimate_shift + (r % 2 == 0 ? -100 : 100));
      b.counts.push_back(r == 0 ? never_count : 0);
    }
    return compare_sites({a, b}, model, 1e-3);
  };
  EXPECT_TRUE(compare(0, 0).passed);
  // Mean estimate 1000 + 50: z = 50 / (100 / sqrt(100)) = 5, p = 5.7e-7 < 1e-3 / 6.
  const Comparison shifted = compare(50, 0);
  EXPECT_FALSE(shifted.passed);
  ASSERT_TRUE(shifted.rows[0].z_estimate.has_value());
  EXPECT_NEAR(*shifted.rows[0].z_estimate, 5.0, 1e-9);
  EXPECT_FALSE(compare(0, 1).passed);
}

// A site the model gives no estimate variance: the tool's integer output may differ
// by less than 1 unit per stack record (rounding = the site's sizes), not more.
TEST(ConformanceSiteComparison, ZeroVarianceEstimateAllowsRoundingOnly) {
  ModelMoments model;
  SiteMoments m = binomial_site(10, 0);
  m.estimate_mean = 100;
  model.sites = {m};
  auto passes = [&](double estimate, double rounding) {
    SiteObservations o{"s", {0, 0}, {estimate, estimate}, 100, rounding};
    return compare_sites({o}, model, 1e-3).passed;
  };
  EXPECT_TRUE(passes(100.9, 1));
  EXPECT_FALSE(passes(101.1, 1));
  EXPECT_TRUE(passes(101.5, 2));
}

// Monte Carlo moments from M replications: the mean count's z uses var/K + var/M;
// per-size parts stay out of chi^2.
TEST(ConformanceSiteComparison, MonteCarloErrorAndChiSquareTerms) {
  ModelMoments model;
  SiteMoments m;
  m.allocations = 100;
  m.count_mean = 10;
  m.count_var = 9;
  model.sites = {m, m};
  model.replications = 100;  // as many as runs: the variance of the difference doubles
  SiteObservations site{"s", {}, {}, 0}, part{"s:1", {}, {}, 0, 0, true};
  for (int r = 0; r < 100; ++r) {
    site.counts.push_back(r % 2 == 0 ? 8.5 : 14.5);  // mean 11.5, so 1.5 / sqrt(9/100 + 9/100) = 3.54
    part.counts.push_back(r % 2 == 0 ? 8.5 : 14.5);
  }
  const Comparison c = compare_sites({site, part}, model, 1e-3);
  EXPECT_NEAR(c.rows[0].z_count, 1.5 / std::sqrt(0.18), 1e-9);
  ASSERT_EQ(c.tests.back().name, "chi2");
  EXPECT_NEAR(c.tests.back().statistic, 1.5 * 1.5 / 0.18, 1e-9);  // the site only, not its part
}

// The gperftools model on the quick plan as the real Debian 2.10 library measured it
// (tc_nallocx sizes and bytes allocated before the plan, from a driver run).
ConformanceModel quick_gperftools_model() {
  ConformanceOptions options;
  options.system = "gperftools";
  options.runs = 12;
  options.plan_scale = 0.25;
  ConformanceModel model = conformance_plan(options);
  DriverRun first;
  first.meta = {{"version", "gperftools 2.10"}, {"allocated_before_plan", "74952"}};
  first.sizes = {{16, 16},       {24, 32},         {200, 208},       {512, 512},       {3000, 3072},
                 {65536, 65536}, {131072, 131072}, {200000, 204800}, {262144, 262144}, {1048576, 1048576},
                 {8192, 8192},   {9472, 10240},    {9728, 10240},    {10240, 10240},   {10880, 12288},
                 {12288, 12288}, {13568, 16384},   {14336, 16384},   {16384, 16384},   {18432, 20480},
                 {19072, 20480}, {20480, 20480},   {21760, 24576},   {24576, 24576},   {27264, 32768}};
  fit_conformance_model(model, first, "first run");
  return model;
}

// The verdict on driver outputs drawn from the model itself fails at most alpha of
// the time (Bonferroni and exact count tests make it conservative): 300 verdicts at
// alpha = 0.05 fail at most 34 times unless P(Binomial(300, 0.05) >= 35) = 3.6e-6 of
// false alarm (exact tail; SciPy 1.10 binom.sf(34, 300, 0.05)). Outputs whose lines are summed per stack before pprof
// scales them (what allocsim modelled before) fail on the stacked site: the per-stack estimate is ~12% lower than the
// model's, z ~ 15 in 12 runs, so nearly all of 40 verdicts fail (at least 20 unless P(Binomial(40, 0.9) < 20) = 2e-11
// for power 0.9).
TEST(ConformanceVerdictSimulation, FalseAlarmsWithinAlphaAndPerStackScalingDetected) {
  const ConformanceModel model = quick_gperftools_model();
  DriverRun first;
  first.meta = {{"allocated_before_plan", "74952"}};
  first.sizes = model.allocated;
  const VerdictSimulation null = simulate_verdicts(model, first, SimulatedTruth::model, 300, 12, 0.05, 7, 2);
  EXPECT_EQ(null.verdicts, 300u);
  EXPECT_LE(null.failed, 34u);
  const VerdictSimulation stack =
      simulate_verdicts(model, first, SimulatedTruth::per_stack_scaling, 40, 12, 2e-5, 7, 3);
  EXPECT_GE(stack.failed, 20u);
  EXPECT_GE(stack.failed_tests.count("estimate stacked"), 1u);
  // The verdicts judged on three threads count as on one.
  const VerdictSimulation one_thread =
      simulate_verdicts(model, first, SimulatedTruth::per_stack_scaling, 40, 12, 2e-5, 7, 1);
  EXPECT_EQ(one_thread.verdicts, stack.verdicts);
  EXPECT_EQ(one_thread.failed, stack.failed);
  EXPECT_EQ(one_thread.failed_tests, stack.failed_tests);
  // Systems whose profile the samples alone do not give are refused.
  ConformanceOptions jemalloc;
  jemalloc.system = "jemalloc";
  ConformanceModel other = conformance_plan(jemalloc);
  fit_conformance_model(other, first, "first run");
  EXPECT_THROW(simulated_driver_runs(other, first, SimulatedTruth::model, 1, 1, 0), InputError);
  EXPECT_THROW(parse_simulated_truth("nonsense"), InputError);
}

TEST(ConformanceCli, BadInputExitsTwo) {
  const auto unknown = testing::run_cli("conformance nosuch --runs 3", true);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("unknown system \"nosuch\""), std::string::npos) << unknown.output;
  const auto rate = testing::run_cli("conformance jemalloc --rate 1000", true);
  EXPECT_EQ(rate.exit_code, 2);
  EXPECT_NE(rate.output.find("powers of two"), std::string::npos) << rate.output;
  const auto runs = testing::run_cli("conformance jemalloc --runs 1", true);
  EXPECT_EQ(runs.exit_code, 2);
  EXPECT_NE(runs.output.find("--runs"), std::string::npos) << runs.output;
  const auto replications = testing::run_cli("conformance gperftools --model-replications 1", true);
  EXPECT_EQ(replications.exit_code, 2);
  EXPECT_NE(replications.output.find("--model-replications"), std::string::npos) << replications.output;
  const auto zero_rate = testing::run_cli("conformance go --rate 0", true);
  EXPECT_EQ(zero_rate.exit_code, 2);
  EXPECT_NE(zero_rate.output.find("--rate: must be at least 2"), std::string::npos) << zero_rate.output;
  const auto scale = testing::run_cli("conformance go --scale 1000", true);
  EXPECT_EQ(scale.exit_code, 2);
  EXPECT_NE(scale.output.find("--scale"), std::string::npos) << scale.output;
}

// An --out or --build-dir below a regular file cannot be created: exit 2 naming it,
// before any driver is built for --build-dir. A driver's directory allocsim did not
// make is not written in (its files would be replaced and removed).
TEST(ConformanceCli, UnwritableDirectoriesExitTwo) {
  testing::ScratchDirectory dir;
  const std::string blocker = dir.file("blocker");
  testing::write_bytes(blocker, "a file, not a directory\n");
  const auto out = testing::run_cli("conformance go --runs 2 --out " + blocker + "/out", true);
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_EQ(out.output, "allocsim: error: --out \"" + blocker + "/out\": " + blocker + " is not a directory\n");
  const auto build = testing::run_cli(
      "conformance go --runs 2 --out " + dir.file("unused-out") + " --build-dir " + blocker + "/build", true);
  EXPECT_EQ(build.exit_code, 2);
  EXPECT_NE(build.output.find("--build-dir \"" + blocker + "/build/conformance/go\": " + blocker +
                              "/build does not exist (allocsim does not create it)"),
            std::string::npos)
      << build.output;
  EXPECT_FALSE(std::filesystem::exists(dir.file("unused-out")));
  EXPECT_EQ(testing::read_bytes(blocker), "a file, not a directory\n");
  std::filesystem::create_directories(dir.file("users/conformance/go"));
  testing::write_bytes(dir.file("users/conformance/go/go_driver"), "mine");
  const auto users = testing::run_cli(
      "conformance go --runs 2 --out " + dir.file("unused-out") + " --build-dir " + dir.file("users"), true);
  EXPECT_EQ(users.exit_code, 2);
  EXPECT_NE(users.output.find("exists and was not written by allocsim"), std::string::npos) << users.output;
  EXPECT_EQ(testing::read_bytes(dir.file("users/conformance/go/go_driver")), "mine");
}

}  // namespace
}  // namespace allocsim
