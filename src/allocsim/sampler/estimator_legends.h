#pragma once
// An estimator's name in words, for chart legends: "bytes_nb" reads "bytes, estimate
// 2 (s·q/p + u)" (s = sampled size, T = sampling interval, q = 1 - p). The names
// several schemes share have their words here; a name one system alone uses has them
// in that system's descriptor (SchemeDescriptor::estimator_legends), so a new
// system's estimators are worded in its own folder. A test checks that every
// estimator of every registered scheme has words, and that no name is worded twice.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace allocsim {

// The words of the estimator names several schemes share.
const std::vector<std::pair<std::string, std::string>>& shared_estimator_legends();

// The words for estimator `name` (no window prefix): the shared ones, else those a
// registered system declares; nullopt for a name nothing words.
std::optional<std::string> estimator_legend(std::string_view name);

}  // namespace allocsim
