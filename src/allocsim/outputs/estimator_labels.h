#pragma once
// The human name of an estimator, for chart legends: "peak_bytes_nb" reads "bytes,
// estimate 2 (s·q/p + u) (live at the peak)". The words of a name come from the
// layer that knows the schemes (sampler/estimator_legends.h, handed in by the report
// layer); this one says the window prefix in words after them.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace allocsim {

// The words for an estimator name without a window prefix, or nullopt.
using EstimatorWords = std::function<std::optional<std::string>(std::string_view)>;

// The label of an estimator column value: its window prefix ("live_", "peak_",
// "live_at_<t>_") said in words after it; nullopt for a name `words` lacks.
std::optional<std::string> estimator_label(const std::string& estimator, const EstimatorWords& words);

// The label where there is one, else the name as it is.
std::string estimator_label_or_name(const std::string& estimator, const EstimatorWords& words);

}  // namespace allocsim
