#include "allocsim/estimate/quantile_table.h"

namespace allocsim::interval {

std::vector<std::int64_t> document_sample_counts() {
  std::vector<std::int64_t> counts;
  for (std::int64_t s = 1; s <= 10; ++s) counts.push_back(s);
  for (std::int64_t s = 20; s <= 50; s += 10) counts.push_back(s);
  for (std::int64_t s = 100; s <= 500; s += 100) counts.push_back(s);
  for (std::int64_t s = 1000; s <= 5000; s += 1000) counts.push_back(s);
  counts.push_back(10000);
  return counts;
}

std::vector<QuantileTableRow> quantile_table(double p, double level, QuantileRounding rounding) {
  require_open_probability(level, "confidence level");
  const double tail = (1.0 - level) / 2.0;
  std::vector<QuantileTableRow> rows;
  for (const std::int64_t samples : document_sample_counts()) {
    const NegativeBinomial failures(samples, p);
    rows.push_back(
        {samples,
         {quantile(failures, tail, rounding), quantile_complement(failures, tail, rounding)},
         {camp_paulson_quantile(failures, tail, rounding), camp_paulson_quantile_complement(failures, tail, rounding)},
         camp_paulson_max_cdf_error(failures)});
  }
  return rows;
}

}  // namespace allocsim::interval
