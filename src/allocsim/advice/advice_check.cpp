#include "allocsim/advice/advice_check.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/engine/replication_rows.h"
#include "allocsim/engine/scheme_replay.h"

#include "allocsim/random/random_stream.h"
#include "allocsim/random/stream_purpose.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/stats/moments.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

constexpr std::uint32_t kNotTallied = ~std::uint32_t{0};

// Runs blocks of replications with the bytes estimator (estimator 0). A
// replication's row: the squared error of the total, then per tallied stack its
// relative error and whether it was seen.
class StackReplications {
 public:
  StackReplications(const Scheme& scheme, const Trace& trace, const std::vector<std::uint32_t>& slot,
                    const std::vector<double>& slot_truth, double total_truth)
      : trace_(trace),
        slot_(slot),
        slot_truth_(slot_truth),
        total_truth_(total_truth),
        replay_(scheme, trace),
        seen_(slot_truth.size()) {}

  ReplicationRows run_block(const StreamKey& first, std::uint64_t count) {
    const std::size_t slots = slot_truth_.size();
    ReplicationRows rows{1 + 2 * slots, {}};
    rows.values.reserve(count * rows.width);
    StreamKey key = first;
    for (std::uint64_t r = 0; r < count; ++r, ++key.replication) {
      replay_.replay(key);
      const auto& observations = replay_.observations();
      const auto slot_of = [&](std::size_t o) -> std::size_t {
        const std::uint32_t s = slot_[trace_.stack[observations[o].event]];
        return s == kNotTallied ? slots : s;
      };
      replay_.group_estimates(
          0, 1, [](std::size_t) { return std::size_t{0}; }, total_);
      replay_.group_estimates(0, slots, slot_of, estimate_);
      const double total = total_[0];
      std::fill(seen_.begin(), seen_.end(), 0);
      for (std::size_t o = 0; o < observations.size(); ++o) {
        const std::size_t s = slot_of(o);
        if (s < slots) seen_[s] = 1;
      }
      const std::span<double> row = rows.add_row();
      row[0] = (total - total_truth_) * (total - total_truth_);
      for (std::size_t s = 0; s < slots; ++s) {
        row[1 + 2 * s] = std::fabs(estimate_[s] - slot_truth_[s]) / slot_truth_[s];
        row[2 + 2 * s] = seen_[s];
      }
    }
    return rows;
  }

 private:
  const Trace& trace_;
  const std::vector<std::uint32_t>& slot_;  // per stack: its tally slot, or kNotTallied
  const std::vector<double>& slot_truth_;
  double total_truth_;
  SchemeReplay replay_;
  std::vector<double> total_, estimate_;
  std::vector<std::uint8_t> seen_;
};

}  // namespace

MonteCarloCheck check_advice(const Trace& trace, const AdvicePoint& point, const AccuracyTargets& targets,
                             const MonteCarloOptions& options) {
  const std::unique_ptr<Scheme> scheme = create_scheme(point.scheme, point.parameters, "$.advise." + point.scheme);
  const auto& estimators = scheme->estimators();

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

  // Per replication, row [squared error of the total, per tallied stack: relative
  // error, seen].
  const std::size_t slots = slot_truth.size();
  const ReplicationRange range{{options.seed, stream_of(StreamPurpose::advice_check), 0}, options.replications};
  const std::vector<Moments> columns = accumulate_columns<Moments>(
      range, 1 + 2 * slots,
      [&] { return std::make_unique<StackReplications>(*scheme, trace, slot, slot_truth, total_truth); },
      options.threads);
  const Moments& squared_error = columns[0];
  auto relative_error = [&](std::size_t s) -> const Moments& { return columns[1 + 2 * s]; };
  auto seen_rate = [&](std::size_t s) -> const Moments& { return columns[2 + 2 * s]; };

  MonteCarloCheck check;
  check.replications = options.replications;
  const double mse = squared_error.mean();
  check.total_relative_rmse = std::sqrt(mse) / total_truth;
  // Delta method: se(sqrt(m)) = se(m) / (2 sqrt(m)).
  check.se_total_relative_rmse = mse > 0 ? squared_error.standard_error() / (2 * std::sqrt(mse)) / total_truth : 0;
  const double k = options.sigmas;
  check.meets =
      !targets.total_error ||
      targets.total_z() * (check.total_relative_rmse - k * check.se_total_relative_rmse) <= *targets.total_error;
  check.target_stacks = static_cast<std::uint32_t>(slot_truth.size());
  for (std::size_t s = 0; s < slot_truth.size(); ++s) {
    const double mape = relative_error(s).mean(), se_mape = relative_error(s).standard_error();
    const double p = seen_rate(s).mean();
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
  const bool fixed = scheme.descriptor->advice->fixed_interval.has_value();
  for (int lowered = 0; !fixed && !result.check.meets && lowered < 20 && result.point.interval > 1; ++lowered) {
    result.point = advisor.evaluate(scheme, advisor.settable(scheme, std::floor(0.9 * result.point.interval)));
    result.check = check_advice(advisor.trace(), result.point, targets, options);
  }
  result.confirmed = result.check.meets;
  return result;
}

}  // namespace allocsim
