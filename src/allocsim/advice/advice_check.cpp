#include "allocsim/advice/advice_check.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/stats/moments.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

constexpr std::uint32_t kNotTallied = ~std::uint32_t{0};

}  // namespace

MonteCarloCheck check_advice(const Trace& trace, const AdvicePoint& point, const AccuracyTargets& targets,
                             const MonteCarloOptions& options) {
  const std::unique_ptr<Scheme> scheme = create_scheme(point.scheme, point.parameters, "$.advise." + point.scheme);
  // The bytes estimator (estimator 0) is linear: a group's estimate is the sum of
  // its observations' first register.
  const auto& estimators = scheme->estimators();
  std::size_t width = 0;
  for (const auto& e : estimators) width += e.registers;

  // Truth as the estimator counts bytes; the stacks the targets cover get slots.
  const bool requested = estimators[0].quantity == Quantity::requested_bytes;
  std::vector<double> stack_truth(trace.stack_count, 0.0);
  double total_truth = 0;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const double bytes = static_cast<double>(requested ? trace.requested[i] : scheme->allocated_size(trace, i));
    stack_truth[trace.stack[i]] += bytes;
    total_truth += bytes;
  }
  if (!(total_truth > 0)) throw InputError("advice check for " + point.scheme + ": the trace has no bytes allocated");
  std::vector<std::uint32_t> slot(trace.stack_count, kNotTallied);
  std::vector<double> slot_truth;
  for (std::uint32_t g = 0; g < trace.stack_count; ++g) {
    if (stack_truth[g] > 0 && stack_truth[g] >= targets.stack_share * total_truth) {
      slot[g] = static_cast<std::uint32_t>(slot_truth.size());
      slot_truth.push_back(stack_truth[g]);
    }
  }

  const std::unique_ptr<SchemeRun> run = scheme->start(trace);
  std::vector<Observation> observations;
  std::vector<double> contributions;
  std::vector<double> estimate(slot_truth.size());
  std::vector<std::uint8_t> seen(slot_truth.size());
  Moments squared_error;
  std::vector<Moments> relative_error(slot_truth.size()), seen_rate(slot_truth.size());
  const std::uint64_t stream = stream_id(0x61647669 /* "advi" */, 0);
  for (std::uint64_t r = 0; r < options.replications; ++r) {
    observations.clear();
    run->replay({options.seed, stream, r}, observations);
    contributions.assign(observations.size() * width, 0.0);
    scheme->weigh(trace, observations, contributions);
    std::fill(estimate.begin(), estimate.end(), 0.0);
    std::fill(seen.begin(), seen.end(), 0);
    double total = 0;
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double bytes = contributions[o * width];
      total += bytes;
      const std::uint32_t s = slot[trace.stack[observations[o].event]];
      if (s == kNotTallied) continue;
      estimate[s] += bytes;
      seen[s] = 1;
    }
    squared_error.add((total - total_truth) * (total - total_truth));
    for (std::size_t s = 0; s < slot_truth.size(); ++s) {
      relative_error[s].add(std::fabs(estimate[s] - slot_truth[s]) / slot_truth[s]);
      seen_rate[s].add(seen[s]);
    }
  }

  MonteCarloCheck check;
  check.replications = options.replications;
  const double mse = squared_error.mean();
  check.total_relative_rmse = std::sqrt(mse) / total_truth;
  // Delta method: se(sqrt(m)) = se(m) / (2 sqrt(m)).
  check.se_total_relative_rmse = mse > 0 ? squared_error.standard_error() / (2 * std::sqrt(mse)) / total_truth : 0;
  const double k = options.sigmas;
  check.meets = !targets.total_error ||
                targets.total_z() * (check.total_relative_rmse - k * check.se_total_relative_rmse) <=
                    *targets.total_error;
  check.target_stacks = static_cast<std::uint32_t>(slot_truth.size());
  for (std::size_t s = 0; s < slot_truth.size(); ++s) {
    const double mape = relative_error[s].mean(), se_mape = relative_error[s].standard_error();
    const double p = seen_rate[s].mean();
    const double se_p = std::sqrt(p * (1 - p) / static_cast<double>(options.replications));
    if (mape >= check.worst_stack_mape) {
      check.worst_stack_mape = mape;
      check.se_worst_stack_mape = se_mape;
    }
    if (p <= check.least_stack_seen) {
      check.least_stack_seen = p;
      check.se_least_stack_seen = se_p;
    }
    if (targets.stack_mape && mape - k * se_mape > *targets.stack_mape) check.meets = false;
    if (targets.stack_seen && p + k * se_p < *targets.stack_seen) check.meets = false;
  }
  return check;
}

ConfirmedAdvice confirm_advice(Advisor& advisor, const AdvisedScheme& scheme, const AdvicePoint& advised,
                               const AccuracyTargets& targets, const MonteCarloOptions& options) {
  ConfirmedAdvice result{advised, check_advice(advisor.trace(), advised, targets, options), advised.interval, false};
  for (int lowered = 0; !result.check.meets && lowered < 20 && result.point.interval > 1; ++lowered) {
    result.point = advisor.evaluate(scheme, std::max(1.0, std::floor(0.9 * result.point.interval)));
    result.check = check_advice(advisor.trace(), result.point, targets, options);
  }
  result.confirmed = result.check.meets;
  return result;
}

}  // namespace allocsim
