// The variance registers behind every scheme's Wald interval are unbiased: over R
// replications the mean of a group's summed variance estimate matches the exact
// variance of its estimate (the sum of allocation_theory variances).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/registry.h"
#include "test_support.h"

namespace allocsim {
namespace {

std::unique_ptr<Scheme> make_scheme(const std::string& name, const nlohmann::json& params) {
  return testing::create_scheme(name, params);
}

// 3000 allocations cycling through sizes from 1 B to 300 KB (some at or above the
// heapprofd/memray pass-through cutoffs of T = 4096).
Trace mixed_trace() {
  const std::vector<std::uint64_t> cycle = {1, 8, 24, 100, 513, 4096, 20000, 300000, 40, 2000};
  std::vector<std::uint64_t> sizes;
  for (int i = 0; i < 3000; ++i) sizes.push_back(cycle[static_cast<std::size_t>(i) % cycle.size()]);
  return testing::make_trace(sizes);
}

// For each estimator with a "wald" interval: mean over R replications of the summed
// variance register vs the exact variance. |mean - theory| <= 5 sd / sqrt(R): a
// two-sided 5-sigma bound, ~6e-7 false alarms per assertion (normal approximation
// of a mean of 2000 iid replications; fixed seed).
void expect_unbiased_variance_registers(const std::string& name, const nlohmann::json& params) {
  const auto scheme = make_scheme(name, params);
  const Trace trace = mixed_trace();
  const auto& estimators = scheme->estimators();
  std::vector<std::size_t> first(estimators.size());
  std::size_t width = 0;
  for (std::size_t e = 0; e < estimators.size(); ++e) {
    first[e] = width;
    width += estimators[e].registers;
  }
  std::vector<std::size_t> checked;
  for (const auto& spec : scheme->intervals()) {
    if (spec.name == "wald") checked.push_back(spec.estimator);
  }
  ASSERT_FALSE(checked.empty()) << name;

  constexpr int R = 2000;
  const auto run = scheme->start(trace);
  std::vector<Observation> observations;
  std::vector<double> contributions;
  std::vector<double> sum(checked.size()), sum_squares(checked.size());
  for (int r = 0; r < R; ++r) {
    observations.clear();
    run->replay({.seed = 4242, .stream = 0, .replication = static_cast<std::uint64_t>(r)}, observations);
    contributions.assign(observations.size() * width, 0.0);
    scheme->weigh(trace, observations, contributions);
    for (std::size_t c = 0; c < checked.size(); ++c) {
      double v = 0;
      for (std::size_t o = 0; o < observations.size(); ++o) v += contributions[o * width + first[checked[c]] + 1];
      sum[c] += v;
      sum_squares[c] += v * v;
    }
  }
  for (std::size_t c = 0; c < checked.size(); ++c) {
    const std::size_t e = checked[c];
    const EstimatorTheory estimator_theory = scheme->theory(e);
    ASSERT_TRUE(estimator_theory.per_allocation());
    double theory = 0;
    for (const AllocationTheory& one : estimator_theory.all_allocations(trace)) theory += one.variance;
    const double mean = sum[c] / R;
    const double sd = std::sqrt(std::max(0.0, sum_squares[c] / R - mean * mean) * R / (R - 1));
    EXPECT_GT(theory, 0) << name << "/" << estimators[e].name;
    EXPECT_TRUE(testing::within_sigmas(mean, theory, sd / std::sqrt(R))) << name << "/" << estimators[e].name;
  }
}

TEST(WaldVarianceRegisters, HeapprofdBinomialAndHorvitzThompson) {
  expect_unbiased_variance_registers("heapprofd", {{"rate", 4096}});
}

TEST(WaldVarianceRegisters, Memray) { expect_unbiased_variance_registers("memray", {{"rate", 4096}}); }

// The code's rounded weights: w^2 (1 - pi) with the true pi = 1 - (1 - 1/R)^Z.
TEST(WaldVarianceRegisters, JemallocCodeWeights) { expect_unbiased_variance_registers("jemalloc", {{"rate", 65536}}); }

TEST(WaldVarianceRegisters, JemallocGeometricWeights) {
  expect_unbiased_variance_registers("jemalloc", {{"rate", 65536}, {"weight", "geometric"}});
}

// (T/k)^2 per sample is unbiased in the continuous model (ideal exponential draws).
TEST(WaldVarianceRegisters, Tcmalloc) {
  expect_unbiased_variance_registers("tcmalloc", {{"rate", 65536}, {"faithful", false}});
}

TEST(WaldVarianceRegisters, DotnetCodeAndDocumentDraws) {
  expect_unbiased_variance_registers("dotnet", {{"rate", 10240}});
  expect_unbiased_variance_registers("dotnet", {{"rate", 10240}, {"draw", "document"}});
}

TEST(WaldVarianceRegisters, PerAllocation) { expect_unbiased_variance_registers("per-allocation", {{"rate", 10}}); }

// jemalloc's sum-then-unbias estimator still combines its own two registers.
TEST(WaldVarianceRegisters, JemallocSumThenUnbiasFinalize) {
  const auto scheme = make_scheme("jemalloc", {{"rate", 65536}});
  const std::vector<double> registers = {8.0 * 10, 10.0};
  EXPECT_DOUBLE_EQ(scheme->finalize(2, registers), 80.0 / -std::expm1(-8.0 / 65536));
  EXPECT_DOUBLE_EQ(scheme->finalize(0, std::vector<double>{5.0, 7.0}), 5.0);
}

}  // namespace
}  // namespace allocsim
