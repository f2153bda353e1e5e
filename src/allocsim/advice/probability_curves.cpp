#include "allocsim/advice/probability_curves.h"

#include <algorithm>

#include "allocsim/sampler/references/optimal_size_class.h"
#include "allocsim/util/parallel.h"

namespace allocsim {
namespace {

// One point per distinct requested size (schemes sample by size only, so every
// allocation of a size has the same probability), thinned to sizes at least 2%
// apart (at most ~35 per octave) so that a trace of many sizes still charts.
ProbabilityCurve curve(const Trace& trace, std::string label, double interval, const std::vector<double>& p) {
  std::vector<std::pair<std::uint64_t, double>> points;
  points.reserve(trace.size());
  for (std::size_t i = 0; i < trace.size(); ++i) points.emplace_back(trace.requested[i], p[i]);
  std::sort(points.begin(), points.end());
  points.erase(
      std::unique(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
      points.end());
  ProbabilityCurve c{std::move(label), interval, {}, {}};
  for (const auto& [size, probability] : points) {
    if (!c.sizes.empty() && static_cast<double>(size) < 1.02 * static_cast<double>(c.sizes.back())) continue;
    c.sizes.push_back(size);
    c.probability.push_back(probability);
  }
  return c;
}

}  // namespace

std::vector<ProbabilityCurve> probability_curves(const Advisor& advisor, double samples, unsigned threads) {
  const Trace& trace = advisor.trace();
  std::vector<const AdvisedScheme*> schemes;
  for (const AdvisedScheme& scheme : advised_schemes()) {
    if (!scheme.descriptor->advice->designed_from_trace) schemes.push_back(&scheme);  // shown once, as "optimum"
  }
  // One curve per scheme and the optimum's last, each computed on its own thread; the
  // optimum's design, the costliest, is taken first.
  std::vector<ProbabilityCurve> curves(schemes.size() + 1);
  parallel_for(
      curves.size(), threads,
      [&](std::size_t item, unsigned /*worker*/) {
        if (item > 0) {
          const AdvisedScheme& scheme = *schemes[item - 1];
          const double interval = advisor.interval_for_samples(scheme, samples);
          curves[item - 1] = curve(trace, scheme.name, interval, advisor.accuracy(scheme, interval).probability);
          return;
        }
        OptimalSizeClassConfig design;
        design.samples = samples;
        design.objective = DesignObjective::allocated;
        const OptimalSizeClassPlan optimum = plan_optimal_size_class(trace, design);
        curves.back() = curve(trace, "optimum", 0, optimum.probability);
      },
      {});
  return curves;
}

}  // namespace allocsim
