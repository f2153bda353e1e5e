#include "allocsim/advice/advisor.h"

#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numbers>
#include <numeric>

#include "allocsim/sampler/registry.h"
#include "allocsim/util/error.h"
#include "allocsim/util/parallel.h"

namespace allocsim {
namespace {

constexpr int kGridSteps = 96;  // intervals 2^(k/2), k = 0..96: 1 .. 2^48

double grid_interval(int k) { return std::round(std::exp2(k / 2.0)); }

}  // namespace

double AccuracyTargets::total_z() const { return boost::math::quantile(boost::math::normal(), (1 + confidence) / 2); }

StackObjective AccuracyTargets::stack_objective() const {
  StackObjective objective{.share = stack_share};
  if (total_error && stack_mape) {
    const double total_sd = *total_error / total_z();
    objective.total_weight = std::numbers::pi * *stack_mape * *stack_mape / 2 / (total_sd * total_sd);
  }
  return objective;
}

const std::vector<AdvisedScheme>& advised_schemes() {
  static const std::vector<AdvisedScheme> schemes = [] {
    std::vector<AdvisedScheme> advised;
    for (const SchemeDescriptor& descriptor : scheme_registry()) {
      if (!descriptor.advice) continue;
      // A scheme without a rate parameter is advised in bytes between samples too.
      const bool allocations = descriptor.rate && descriptor.rate->unit == RateUnit::allocations;
      advised.push_back(
          {descriptor.name, allocations ? "allocations" : "bytes", descriptor.advice->least_interval, &descriptor});
    }
    return advised;
  }();
  return schemes;
}

const std::vector<std::size_t>& advised_schemes_costliest_first() {
  static const std::vector<std::size_t> order = [] {
    const std::vector<AdvisedScheme>& schemes = advised_schemes();
    std::vector<std::size_t> indexes(schemes.size());
    std::iota(indexes.begin(), indexes.end(), 0);
    std::stable_partition(indexes.begin(), indexes.end(),
                          [&](std::size_t i) { return schemes[i].descriptor->advice->designed_from_trace; });
    return indexes;
  }();
  return order;
}

nlohmann::json advised_parameters(const AdvisedScheme& scheme, double interval, double trace_bytes,
                                  const AccuracyTargets& targets) {
  const AdviceRule& rule = *scheme.descriptor->advice;
  if (rule.parameters) {
    const auto stacks = targets.has_stack_targets() ? std::optional(targets.stack_objective()) : std::nullopt;
    return rule.parameters(interval, trace_bytes, stacks);
  }
  return {{scheme.descriptor->rate->parameter, static_cast<std::uint64_t>(interval)}};
}

Advisor::Advisor(const Trace& trace, const AccuracyTargets& targets)
    : trace_(trace),
      targets_(targets),
      trace_bytes_(std::accumulate(trace.requested.begin(), trace.requested.end(), 0.0,
                                   [](double sum, std::uint64_t s) { return sum + static_cast<double>(s); })) {
  if (!(trace_bytes_ > 0)) throw InputError("advise: the trace has no bytes allocated");
  for (const AdvisedScheme& scheme : advised_schemes()) references_[scheme.name];
}

const Advisor::References& Advisor::references(const std::string& scheme, const SchemeAccuracy& accuracy) {
  std::optional<References>& slot = references_.at(scheme);
  if (!slot) {
    slot.emplace(References{{trace_, accuracy.measured, DesignObjective::allocated},
                            {trace_, accuracy.measured, DesignObjective::live},
                            {trace_, accuracy.measured, DesignObjective::stack, targets_.stack_objective()}});
  }
  return *slot;
}

SchemeAccuracy Advisor::accuracy(const AdvisedScheme& scheme, double interval) const {
  const auto parameters = advised_parameters(scheme, interval, trace_bytes_, targets_);
  return scheme_accuracy(*create_scheme(scheme.name, parameters, "$.advise." + scheme.name), trace_);
}

double Advisor::interval_for_samples(const AdvisedScheme& scheme, double samples) const {
  double low = scheme.least_interval, high = 2 * low;  // expected samples at `low` >= samples > at `high`
  while (high < 0x1p48 && accuracy(scheme, high).expected_samples >= samples) {
    low = high;
    high *= 2;
  }
  while (high - low > 1 && high > low * 1.001) {
    const double middle = std::floor((low + high) / 2);
    (accuracy(scheme, middle).expected_samples >= samples ? low : high) = middle;
  }
  return low;
}

AdvicePoint Advisor::evaluate(const AdvisedScheme& scheme, double interval, bool with_gaps) {
  AdvicePoint point;
  point.scheme = scheme.name;
  point.interval = interval;
  point.parameters = advised_parameters(scheme, interval, trace_bytes_, targets_);
  const SchemeAccuracy accuracy = this->accuracy(scheme, interval);
  const double truth = accuracy.total.truth;
  point.expected_samples = accuracy.expected_samples;
  point.samples_per_mb = truth > 0 ? accuracy.expected_samples / (truth / 1e6) : 0;
  point.total_relative_rmse = truth > 0 ? accuracy.total.rmse() / truth : 0;
  point.meets = !targets_.total_error || targets_.total_z() * point.total_relative_rmse <= *targets_.total_error;
  for (const GroupAccuracy& stack : accuracy.stacks) {
    if (!(stack.truth > 0) || stack.truth < targets_.stack_share * truth) continue;
    ++point.target_stacks;
    point.worst_stack_mape = std::max(point.worst_stack_mape, stack.normal_mape());
    point.least_stack_seen = std::min(point.least_stack_seen, stack.p_seen());
  }
  if (targets_.stack_mape && point.worst_stack_mape > *targets_.stack_mape) point.meets = false;
  if (targets_.stack_seen && point.least_stack_seen < *targets_.stack_seen) point.meets = false;
  if (!with_gaps) return point;
  const References& r = references(scheme.name, accuracy);
  point.allocated_gap = r.allocated.gap(accuracy);
  point.live_gap = r.live.gap(accuracy);
  point.stack_gap = r.stack.gap(accuracy);
  return point;
}

double Advisor::settable(const AdvisedScheme& scheme, double interval) const {
  const AdviceRule& rule = *scheme.descriptor->advice;
  if (rule.fixed_interval) return *rule.fixed_interval;
  const double at_most = rule.settable_at_most ? rule.settable_at_most(interval) : std::floor(interval);
  return std::max(at_most, scheme.least_interval);
}

std::optional<AdvicePoint> Advisor::cliff_above(const AdvisedScheme& scheme, const AdvicePoint& advised) {
  const AdviceRule& rule = *scheme.descriptor->advice;
  if (rule.fixed_interval || rule.settable_at_most) return std::nullopt;
  AdvicePoint above = evaluate(scheme, std::round(1.01 * advised.interval));
  const bool jump = above.total_relative_rmse > kCliffJump * advised.total_relative_rmse ||
                    above.worst_stack_mape > kCliffJump * advised.worst_stack_mape;
  return jump ? std::optional(std::move(above)) : std::nullopt;
}

std::optional<AdvicePoint> Advisor::recommend(const AdvisedScheme& scheme) {
  if (const auto fixed = scheme.descriptor->advice->fixed_interval) return evaluate(scheme, *fixed);
  auto meets = [&](double interval) { return evaluate(scheme, interval, false).meets; };
  int least = 0;  // the first grid point the scheme accepts
  while (grid_interval(least) < scheme.least_interval) ++least;
  int k = kGridSteps;
  while (k >= least && !meets(grid_interval(k))) --k;
  if (k < least) return std::nullopt;
  double good = grid_interval(k);
  if (k < kGridSteps) {
    double bad = grid_interval(k + 1);
    while (bad - good > 1 && bad > good * 1.001) {
      const double middle = std::floor((good + bad) / 2);
      (meets(middle) ? good : bad) = middle;
    }
  }
  // Down to what the system accepts, and further while accuracy is not monotone there.
  double chosen = settable(scheme, good);
  for (int step = 0; step < 64 && !meets(chosen) && chosen > scheme.least_interval; ++step) {
    chosen = settable(scheme, chosen - 1);
  }
  return meets(chosen) ? std::optional(evaluate(scheme, chosen)) : std::nullopt;
}

std::vector<AdvicePoint> Advisor::frontier(unsigned threads) {
  const std::vector<AdvisedScheme>& schemes = advised_schemes();
  std::vector<std::vector<AdvicePoint>> per_scheme(schemes.size());
  parallel_for(schemes.size(), threads,
               [&](std::size_t i, unsigned /*worker*/) {
                 const AdvisedScheme& scheme = schemes[i];
                 const bool allocations = scheme.unit == "allocations";
                 std::vector<AdvicePoint>& points = per_scheme[i];
                 for (int k = allocations ? 0 : 4; k <= (allocations ? 14 : 24); ++k) {
                   AdvicePoint point = evaluate(scheme, std::exp2(k));
                   if (point.expected_samples < 1) continue;
                   // Below some interval every allocation is sampled: keep the first such point.
                   const bool same_as_last =
                       !points.empty() && points.back().expected_samples == point.expected_samples;
                   if (!same_as_last) points.push_back(std::move(point));
                 }
               },
               {});
  std::vector<AdvicePoint> points;
  for (std::vector<AdvicePoint>& scheme_points : per_scheme) {
    std::move(scheme_points.begin(), scheme_points.end(), std::back_inserter(points));
  }
  return points;
}

}  // namespace allocsim
