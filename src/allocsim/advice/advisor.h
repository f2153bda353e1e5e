#pragma once
// The sampling-rate advisor: for one trace and accuracy targets a user states,
// the largest sampling interval of each scheme (fewest samples, least overhead)
// that meets them, from the schemes' closed forms (scheme_accuracy.h), and the
// accuracy-cost frontier over a grid of intervals.
//
// Targets (any subset):
//   total:  the total bytes within +-e with confidence c, taken as
//           z_{(1+c)/2} RMSE / truth <= e (normal approximation of the total);
//   stacks: every stack holding >= f of the bytes has MAPE <= m (closed form: the
//           folded normal mean of its bias and variance) and is seen (>= 1 sample)
//           with probability >= q (exact: 1 - prod_i P_i(none)).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/advice/optimum_gap.h"
#include "allocsim/advice/scheme_accuracy.h"
#include "allocsim/design/size_class_demand.h"
#include "allocsim/sampler/scheme_descriptor.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

struct AccuracyTargets {
  std::optional<double> total_error;  // e
  double confidence = 0.95;           // c
  double stack_share = 0.01;          // f
  std::optional<double> stack_mape;   // m
  std::optional<double> stack_seen;   // q

  bool has_stack_targets() const { return stack_mape || stack_seen; }
  double total_z() const;  // z_{(1+c)/2}
  // The stack objective these targets call for: the target stacks, and the total
  // weighted by how much more relative variance a stack's target allows than the
  // total's. A stack at MAPE m has relative sd ~ m sqrt(pi/2) (normal), the total
  // at +-e with confidence c has e / z: t = (pi m^2 / 2) / (e / z)^2, or 1 when
  // either target is absent.
  StackObjective stack_objective() const;
};

// A scheme the advisor tunes through one interval: the mean bytes (allocations where
// its rate counts allocations) between samples. A scheme with its own advice rule
// (the optimal design: its budget P = bytes / interval) is given the targets' stack
// objective (stack_objective()) when stack targets are given.
struct AdvisedScheme {
  std::string name;
  std::string unit;                              // of the interval: "bytes" or "allocations"
  double least_interval = 1;                     // the smallest interval the scheme accepts
  const SchemeDescriptor* descriptor = nullptr;  // its advice rule and rate parameter
};
// Every registered scheme with an advice rule, in registry order.
const std::vector<AdvisedScheme>& advised_schemes();
// Indexes into advised_schemes(), the schemes designed from the trace first: each of
// their evaluations solves a design over the trace's sizes and costs several times
// another scheme's, so threads that take schemes in this order do not wait on one
// of them at the end.
const std::vector<std::size_t>& advised_schemes_costliest_first();

// The scheme's parameters at an interval (integer intervals: every rate parameter accepts them).
nlohmann::json advised_parameters(const AdvisedScheme& scheme, double interval, double trace_bytes,
                                  const AccuracyTargets& targets);

struct AdvicePoint {
  std::string scheme;
  double interval = 0;
  nlohmann::json parameters;
  double expected_samples = 0;
  double samples_per_mb = 0;  // expected samples per 10^6 bytes of the scheme's measured bytes
  double total_relative_rmse = 0;
  std::uint32_t target_stacks = 0;  // stacks holding >= f of the bytes
  double worst_stack_mape = 0;      // over those stacks (normal approximation)
  double least_stack_seen = 1;      // over those stacks
  bool meets = false;
  // Against the optimum at the same samples, for the total, the live heap and the
  // target stacks (the stack objective over stacks holding >= f of the bytes).
  OptimumGap allocated_gap, live_gap, stack_gap;
};

// The advisor for one trace and set of targets. Each scheme's optimum references
// (one per objective, over that scheme's measured sizes) are built on first use.
// Calls for different schemes may run on different threads at once: each scheme's
// references have a slot of their own, made before any call.
class Advisor {
 public:
  // Throws InputError when the trace allocates no bytes (no relative error exists).
  Advisor(const Trace& trace, const AccuracyTargets& targets);
  const Trace& trace() const { return trace_; }

  // The closed-form point at one interval; the optimum gaps only when `with_gaps`.
  AdvicePoint evaluate(const AdvisedScheme& scheme, double interval, bool with_gaps = true);

  // The largest integer interval meeting the targets (to 0.1%) that the real system
  // accepts (settable()), or nullopt when no interval from 1 (every allocation
  // sampled) up does; for a system with a fixed interval, the point there, which
  // may not meet them (AdvicePoint::meets). Accuracy need not fall
  // steadily as the interval grows (heapprofd's T n is biased by about -1/(2T), a
  // lot at small T), so the intervals 2^(k/2) are scanned from 2^48 down for the
  // first that meets the targets, then the gap to the next one up is bisected.
  std::optional<AdvicePoint> recommend(const AdvisedScheme& scheme);

  // The largest interval the scheme's real system accepts at or below `interval`
  // (its advice rule's settable_at_most; else any whole number), at least its least
  // interval; the fixed interval of a system that has one.
  double settable(const AdvisedScheme& scheme, double interval) const;

  // The closed-form point just above `advised` when accuracy falls off a cliff there:
  // the total's relative RMSE or the worst stack MAPE more than kCliffJump times
  // as large 1% further up (an allocation size crossing a threshold that moves with
  // the interval, as heapprofd's pass-through cutoff ~4.6 T does); nullopt for a
  // smooth neighbourhood, and for systems that cannot be set between (powers of two,
  // a fixed interval).
  std::optional<AdvicePoint> cliff_above(const AdvisedScheme& scheme, const AdvicePoint& advised);
  static constexpr double kCliffJump = 1.2;

  // The closed-form accuracy of a scheme at one interval.
  SchemeAccuracy accuracy(const AdvisedScheme& scheme, double interval) const;

  // The integer interval at which a scheme takes `samples` expected samples (to
  // 0.1%; expected samples fall as the interval grows).
  double interval_for_samples(const AdvisedScheme& scheme, double samples) const;

  double trace_bytes() const { return trace_bytes_; }

  // Every scheme over intervals 2^k (16 B .. 16 MiB; 1 .. 16384 allocations),
  // keeping points with at least one expected sample and, of the smallest
  // intervals that all sample every allocation, only the first; the schemes on up
  // to `threads` threads, their points in registry order.
  std::vector<AdvicePoint> frontier(unsigned threads);

 private:
  struct References {
    OptimumReference allocated, live, stack;
  };
  const References& references(const std::string& scheme, const SchemeAccuracy& accuracy);

  const Trace& trace_;
  AccuracyTargets targets_;
  double trace_bytes_;
  // One slot per advised scheme, made by the constructor and filled on first use.
  std::map<std::string, std::optional<References>> references_;
};

}  // namespace allocsim
