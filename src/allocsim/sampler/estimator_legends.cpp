#include "allocsim/sampler/estimator_legends.h"

#include "allocsim/sampler/registry.h"

namespace allocsim {

const std::vector<std::pair<std::string, std::string>>& shared_estimator_legends() {
  static const std::vector<std::pair<std::string, std::string>> legends{
      {"bytes", "bytes, per-sample weights summed"},
      {"count", "count, per-sample weights summed"},
      {"bytes_sum_then_unbias", "bytes, summed then unbiased by the mean sample size"},
      {"count_sum_then_unbias", "count, summed then unbiased by the mean sample size"},
      {"bytes_one_layer", "bytes, second layer's keep probability ignored"},
      {"bytes_ht", "bytes, s / (1 − e^(−s/T)) per sample"},
      {"bytes_max", "bytes, max(s, T) per sample"},
      {"bytes_own_size", "bytes, own size per sample (unscaled)"},
      {"count_raw", "samples, unscaled"},
  };
  return legends;
}

std::optional<std::string> estimator_legend(std::string_view name) {
  for (const auto& [estimator, words] : shared_estimator_legends()) {
    if (estimator == name) return words;
  }
  for (const SchemeDescriptor& d : scheme_registry()) {
    for (const EstimatorLegend& legend : d.estimator_legends) {
      if (legend.estimator == name) return legend.words;
    }
  }
  return std::nullopt;
}

}  // namespace allocsim
