#include "allocsim/outputs/estimator_labels.h"

#include <array>
#include <utility>

namespace allocsim {
namespace {

// Each scheme's estimator of that name (sampler/*.cpp, EstimatorSpec), in words a
// reader of a chart knows: s = sampled size, T = sampling interval, q = 1 - p.
constexpr std::array<std::pair<const char*, const char*>, 20> kLabels{{
    {"bytes", "bytes, per-sample weights summed"},
    {"count", "count, per-sample weights summed"},
    {"bytes_nb", "bytes, estimate 2 (s·q/p + u)"},
    {"bytes_sum_then_unbias", "bytes, summed then unbiased by the mean sample size"},
    {"count_sum_then_unbias", "count, summed then unbiased by the mean sample size"},
    {"bytes_rounded", "bytes, rounded per record"},
    {"count_rounded", "count, rounded per record"},
    {"bytes_merged", "bytes, merged per record then scaled (int64)"},
    {"count_merged", "count, merged per record then scaled (int64)"},
    {"bytes_delta_then_scale", "bytes, each time span's delta scaled then summed"},
    {"count_delta_then_scale", "count, each time span's delta scaled then summed"},
    {"bytes_one_layer", "bytes, second layer's keep probability ignored"},
    {"bytes_since_last", "bytes since the thread's last sample (JFR weight)"},
    {"bytes_as_wosize", "bytes, header words left out"},
    {"bytes_ht", "bytes, s / (1 − e^(−s/T)) per sample"},
    {"bytes_max", "bytes, max(s, T) per sample"},
    {"bytes_own_size", "bytes, own size per sample (unscaled)"},
    {"count_raw", "samples, unscaled"},
    {"bytes_raw", "bytes, sampled sizes summed (unscaled)"},
    {"net_bytes", "net bytes, malloc records less free records"},
}};

// Window prefixes (stats/window.h, Window::estimator_prefix) and their words.
std::optional<std::pair<std::string, std::string>> split_window(const std::string& name) {
  if (name.rfind("peak_", 0) == 0) return std::pair{name.substr(5), std::string(" (live at the peak)")};
  if (name.rfind("live_at_", 0) == 0) {
    const auto end = name.find('_', 8);
    if (end != std::string::npos) {
      return std::pair{name.substr(end + 1), " (live at t = " + name.substr(8, end - 8) + ")"};
    }
  }
  if (name.rfind("live_", 0) == 0) return std::pair{name.substr(5), std::string(" (live at the end)")};
  return std::nullopt;
}

std::optional<std::string> base_label(const std::string& name) {
  for (const auto& [key, label] : kLabels) {
    if (name == key) return std::string(label);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> estimator_label(const std::string& estimator) {
  if (auto label = base_label(estimator)) return label;
  if (const auto split = split_window(estimator)) {
    if (auto label = base_label(split->first)) return *label + split->second;
  }
  return std::nullopt;
}

std::string estimator_label_or_name(const std::string& estimator) {
  return estimator_label(estimator).value_or(estimator);
}

}  // namespace allocsim
