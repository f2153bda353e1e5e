#include "allocsim/outputs/estimator_labels.h"

#include <utility>

namespace allocsim {
namespace {

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

}  // namespace

std::optional<std::string> estimator_label(const std::string& estimator, const EstimatorWords& words) {
  if (auto label = words(estimator)) return label;
  if (const auto split = split_window(estimator)) {
    if (auto label = words(split->first)) return *label + split->second;
  }
  return std::nullopt;
}

std::string estimator_label_or_name(const std::string& estimator, const EstimatorWords& words) {
  return estimator_label(estimator, words).value_or(estimator);
}

}  // namespace allocsim
