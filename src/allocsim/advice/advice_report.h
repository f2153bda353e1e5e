#pragma once
// What `allocsim advise` reports: per advised scheme the largest interval the closed
// forms allow and its Monte Carlo check, and the accuracy-cost frontier, as JSON
// (advice.json, --json), text (advice.txt, printed) and CSV (frontier.csv,
// probability-curves.csv).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "allocsim/advice/advice_check.h"
#include "allocsim/advice/advisor.h"
#include "allocsim/advice/probability_curves.h"

namespace allocsim {

struct SchemeAdvice {
  AdvisedScheme scheme;
  std::optional<AdvicePoint> point;        // the closed forms' choice, lowered if Monte Carlo disagreed
  std::optional<ConfirmedAdvice> checked;  // absent without Monte Carlo
  std::optional<AdvicePoint> cliff;        // the point 1% above the choice when accuracy falls off there
  std::optional<AdvicePoint> shipped;      // the closed form at the real system's default interval
};

// The closed forms' choice for every advised scheme, each confirmed by Monte Carlo
// unless mc.replications is 0, with the cliff above it and the shipped default.
std::vector<SchemeAdvice> advise_schemes(Advisor& advisor, const AccuracyTargets& targets, const MonteCarloOptions& mc);

struct AdviceReport {
  std::string trace;             // as the user named it
  bool default_targets = false;  // the user gave none: the targets are those of docs/advice.md
  std::size_t allocations = 0;
  std::uint32_t stacks = 0;
  AccuracyTargets targets;
  std::vector<SchemeAdvice> advice;
  std::vector<AdvicePoint> frontier;
  MonteCarloOptions mc;
};

nlohmann::ordered_json advice_json(const AdviceReport& report);
// The report as printed, and kept as advice.txt.
std::string advice_text(const AdviceReport& report);
std::string frontier_csv(const std::vector<AdvicePoint>& frontier);
// Sizes and probabilities of the curves; size 0 and probability 0 (never sampled)
// are left out of the log-log chart.
std::string probability_curves_csv(const std::vector<ProbabilityCurve>& curves);

}  // namespace allocsim
