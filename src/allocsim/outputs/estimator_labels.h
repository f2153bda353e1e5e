#pragma once
// The human name of an estimator, for chart legends: "bytes_nb" reads
// "bytes, estimate 2 (s·q/p + u)". One table for every chart allocsim draws (the
// scenarios' charts and the advisor's); a test checks it names every estimator
// of every scheme in the registry.
#include <optional>
#include <string>

namespace allocsim {

// The label of an estimator column value: its window prefix ("live_", "peak_",
// "live_at_<t>_") said in words after it; nullopt for a name the table lacks.
std::optional<std::string> estimator_label(const std::string& estimator);

// The label where there is one, else the name as it is.
std::string estimator_label_or_name(const std::string& estimator);

}  // namespace allocsim
