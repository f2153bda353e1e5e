#pragma once
// The .NET document's table of negative binomial failure quantiles
// (RandomizedAllocationSampling.md, "Estimation Approach 2"): for each sample
// count, the failures at CDF = (1-C)/2 and at CDF = (1+C)/2 (0.025 and 0.975
// for C = 0.95), exact and by Camp-Paulson, with Camp-Paulson's largest CDF
// error at that sample count. The document's own numbers use
// QuantileRounding::down (see negative_binomial.h).
#include <cstdint>
#include <vector>

#include "allocsim/estimate/camp_paulson.h"
#include "allocsim/estimate/negative_binomial.h"

namespace allocsim::interval {

struct QuantilePair {
  double lower;  // quantile((1-C)/2)
  double upper;  // quantile_complement((1-C)/2), i.e. the (1+C)/2 quantile
};

struct QuantileTableRow {
  std::int64_t samples;
  QuantilePair exact;
  QuantilePair camp_paulson;
  CdfError camp_paulson_cdf_error;
};

// 1..10, 20..50 step 10, 100..500 step 100, 1000..5000 step 1000, 10000.
std::vector<std::int64_t> document_sample_counts();

// One row per document sample count; p and level in (0, 1), else InputError.
std::vector<QuantileTableRow> quantile_table(double p, double level, QuantileRounding rounding);

}  // namespace allocsim::interval
