#pragma once
// A scheme is what one real system does end to end: a sampler (the mechanism that
// decides which allocations to record) plus the estimators that scale the records
// back up to bytes and counts.
//
// The engine dispatches on the scheme once per replication (SchemeRun::replay and
// Scheme::weigh are the only virtual calls); the per-event loop inside a concrete
// sampler is plain, inlined code.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "allocsim/estimate/interval.h"
#include "allocsim/estimate/theory_values.h"
#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// What an estimator estimates, i.e. which truth it is compared with.
enum class Quantity { requested_bytes, allocated_bytes, count };
const char* to_string(Quantity q);

struct EstimatorSpec {
  std::string name;  // "bytes", "count", ... (the engine prefixes "live_" for the live-heap window)
  Quantity quantity;
  std::string description;
  // Sums an estimator keeps per group. A linear estimator (a sum of per-observation
  // weights) has one and its estimate is that sum; a non-linear one (e.g. unbiasing
  // a group's total by its average size) keeps several and combines them in
  // Scheme::finalize.
  std::size_t registers = 1;
};

// A confidence interval an estimator offers for each group, computed from that
// estimator's registers (e.g. the estimate and an unbiased variance estimate for a
// normal-approximation interval; samples and tail bytes for the .NET negative
// binomial interval).
struct IntervalSpec {
  std::string name;       // "wald", "nb-exact", ...
  std::size_t estimator;  // whose registers it reads and whose truth it must cover
  std::string description;
};

// Truth of one group, as the theory functions need it.
struct GroupTotals {
  double requested_bytes = 0;
  double allocated_bytes = 0;
  double count = 0;
};

// Closed-form pieces of one allocation's contribution, for samplers under which
// allocations are sampled independently of each other (a Bernoulli process on
// bytes, or an independent trial per allocation). Summed over a group they give
// the group's exact variance and P(>= 1 sample):
//   Bias(group) = sum_i bias_i,   Var(group) = sum_i variance_i,
//   P(no sample) = exp(sum_i log_p_none_i).
struct AllocationTheory {
  double bias = 0;        // expected error of this allocation's contribution (e.g. -truth
                          // when it can never be sampled)
  double variance = 0;    // variance of the estimator's contribution of this allocation
  double log_p_none = 0;  // ln P(this allocation is not sampled)
};

// The closed-form theory of one estimator (Scheme::theory). Its functions may read
// the scheme: valid while the scheme lives.
struct EstimatorTheory {
  // Receives a block of consecutive allocations' AllocationTheory: block[j] is
  // allocation first + j's.
  using BlockVisitor = std::function<void(std::size_t first, std::span<const AllocationTheory> block)>;
  // Blocks of this many allocations (the last may be shorter): a trace of 10^9
  // allocations is summed in 96 KiB of theory, not 24 GB.
  static constexpr std::size_t kBlock = 4096;

  // Visits the AllocationTheory of every allocation of a trace, block by block in
  // trace order; null when the estimator has none (allocations not sampled
  // independently).
  std::function<void(const Trace&, const BlockVisitor&)> allocations;
  // The metrics of a group from its truth and its sums of `allocations` (zero sums
  // without them); null: the bias, variance and P(>= 1 sample) the sums give, or
  // nothing without them.
  std::function<TheoryValues(const GroupTotals&, const AllocationTheory&)> group;

  bool per_allocation() const { return static_cast<bool>(allocations); }
  TheoryValues of_group(const GroupTotals& truth, const AllocationTheory& sums) const;
  // Every allocation's AllocationTheory in one vector, in trace order (24 bytes per
  // allocation: for callers that hold the whole trace's theory anyway).
  std::vector<AllocationTheory> all_allocations(const Trace& trace) const;
};

// Visits f(0) .. f(n - 1) in blocks of EstimatorTheory::kBlock (a buffer reused for
// every block).
template <class F>
void visit_in_blocks(std::size_t n, F f, const EstimatorTheory::BlockVisitor& visit) {
  std::vector<AllocationTheory> block(std::min(n, EstimatorTheory::kBlock));
  for (std::size_t first = 0; first < n; first += block.size()) {
    const std::size_t count = std::min(block.size(), n - first);
    for (std::size_t j = 0; j < count; ++j) block[j] = f(first + j);
    visit(first, std::span<const AllocationTheory>(block.data(), count));
  }
}

// An estimator theory from the AllocationTheory of one allocation, f(trace, i).
template <class F>
EstimatorTheory per_allocation_theory(F f) {
  return {[f](const Trace& trace, const EstimatorTheory::BlockVisitor& visit) {
            visit_in_blocks(trace.size(), [&](std::size_t i) { return f(trace, i); }, visit);
          },
          {}};
}

// The same from a scheme's member of(estimator, trace, i).
template <class S>
EstimatorTheory per_allocation_theory(const S* scheme,
                                      AllocationTheory (S::*of)(std::size_t, const Trace&, std::size_t) const,
                                      std::size_t estimator) {
  return per_allocation_theory(
      [scheme, of, estimator](const Trace& trace, std::size_t i) { return (scheme->*of)(estimator, trace, i); });
}

// Where each estimator's registers sit in one observation's row of contributions
// (Scheme::weigh) and in a group's sums: estimator 0's first, then estimator 1's, ...
// The engine lays out its buffers with it; a scheme's weigh checks it (RegisterRows).
class RegisterLayout {
 public:
  explicit RegisterLayout(const std::vector<EstimatorSpec>& estimators);
  std::size_t width() const { return first_.back(); }
  std::size_t first(std::size_t estimator) const { return first_[estimator]; }
  std::size_t count(std::size_t estimator) const { return first_[estimator + 1] - first_[estimator]; }
  // Estimator e's registers within a row (or a group's sums) laid out like this.
  std::span<const double> of(std::size_t estimator, const double* row) const {
    return {row + first_[estimator], count(estimator)};
  }

 private:
  std::vector<std::size_t> first_;  // per estimator, then the width
};

// Throws std::logic_error (an internal error): a scheme writes `width` registers per
// observation but was handed `size` registers for `observations` observations.
[[noreturn]] void register_width_mismatch(std::size_t width, std::size_t size, std::size_t observations);

// The rows Scheme::weigh fills, one per observation. W is the scheme's number of
// registers: a compile-time constant (the end of its enum of named registers) where
// its estimators are fixed, std::dynamic_extent with the width given where they
// depend on its parameters. Built once per weigh call, it checks the width against
// what the caller allocated from estimators() (RegisterLayout).
template <std::size_t W = std::dynamic_extent>
class RegisterRows {
 public:
  RegisterRows(std::span<double> contributions, std::size_t observations, std::size_t width = W)
      : data_(contributions.data()), width_(width) {
    static_assert(W == std::dynamic_extent || W > 0, "a scheme writes at least one register");
    if (width == std::dynamic_extent || contributions.size() != observations * width) {
      register_width_mismatch(width, contributions.size(), observations);
    }
  }
  std::span<double, W> operator[](std::size_t o) const {
    if constexpr (W == std::dynamic_extent) {
      return {data_ + o * width_, width_};
    } else {
      return std::span<double, W>(data_ + o * W, W);
    }
  }

 private:
  double* data_;
  std::size_t width_;
};

// Mutable per-worker state of one scheme bound to one trace.
class SchemeRun {
 public:
  virtual ~SchemeRun() = default;
  // Replays the whole trace with the random streams of `key` (one lane per traced
  // thread) and appends one observation per sampled allocation (in trace order
  // for streaming replay, thread by thread for skip-ahead).
  virtual void replay(const StreamKey& key, std::vector<Observation>& observations) = 0;
};

class Scheme {
 public:
  virtual ~Scheme() = default;
  virtual const std::vector<EstimatorSpec>& estimators() const = 0;
  // Streaming replay: the sampler visits every event (the reference).
  virtual std::unique_ptr<SchemeRun> start(const Trace& trace) const = 0;
  // Skip-ahead replay: the sampler jumps from sample point to sample point through
  // per-thread prefix sums, touching only sampled events; same distribution as
  // start(). nullptr when the scheme has none (the engine then streams).
  virtual std::unique_ptr<SchemeRun> start_skip_ahead(const Trace& /*trace*/,
                                                      const ThreadIndex& /*index*/) const {
    return nullptr;
  }
  // Fills contributions[o * W + j]: what observation o adds to register j of the
  // groups it belongs to, laid out by RegisterLayout(estimators()) (W its width; for
  // linear estimators W = E and register e is estimator e's estimate). Schemes write
  // through RegisterRows, which checks W.
  virtual void weigh(const Trace& trace, std::span<const Observation> observations,
                     std::span<double> contributions) const = 0;
  // The estimate of a group from estimator e's registers (only called for
  // estimators with more than one register).
  virtual double finalize(std::size_t /*estimator*/, std::span<const double> registers) const {
    return registers[0];
  }
  // The size the modelled allocator hands out for allocation i: what
  // Quantity::allocated_bytes estimators are compared with. Schemes that model an
  // allocator's size classes override it; by default it is the trace's own.
  virtual std::uint64_t allocated_size(const Trace& trace, std::size_t i) const {
    return trace.allocated_size(i);
  }
  // The intervals this scheme offers, and interval j for a group whose estimator
  // registers are `registers`, at confidence `level`.
  virtual const std::vector<IntervalSpec>& intervals() const;
  virtual Interval interval(std::size_t /*interval*/, std::span<const double> /*registers*/,
                            double /*level*/) const {
    return {};
  }

  // The closed-form theory of estimator e; by default none.
  virtual EstimatorTheory theory(std::size_t /*estimator*/) const { return {}; }
};

// Binds a concrete sampler (a value type with a templated replay over lane streams)
// to a trace, so that each replication is a single virtual call.
template <class Sampler>
class SamplerRun final : public SchemeRun {
 public:
  SamplerRun(const Trace& trace, Sampler sampler)
      : trace_(trace), sampler_(std::move(sampler)), lanes_(trace.thread_count) {}

  void replay(const StreamKey& key, std::vector<Observation>& observations) override {
    for (std::size_t t = 0; t < lanes_.size(); ++t) lanes_[t].reset(key, t);
    sampler_.replay(trace_, std::span<RandomStream>(lanes_), observations);
  }

 private:
  const Trace& trace_;
  Sampler sampler_;
  std::vector<RandomStream> lanes_;
};

// The same for a sampler's skip-ahead replay, replay_skip_ahead(trace, index,
// lanes, out). It appends the same observations as replay() but thread by thread,
// not in trace order; only floating-point summation order differs downstream.
template <class Sampler>
class SkipAheadRun final : public SchemeRun {
 public:
  SkipAheadRun(const Trace& trace, const ThreadIndex& index, Sampler sampler)
      : trace_(trace), index_(index), sampler_(std::move(sampler)), lanes_(trace.thread_count) {}

  void replay(const StreamKey& key, std::vector<Observation>& observations) override {
    for (std::size_t t = 0; t < lanes_.size(); ++t) lanes_[t].reset(key, t);
    sampler_.replay_skip_ahead(trace_, index_, std::span<RandomStream>(lanes_), observations);
  }

 private:
  const Trace& trace_;
  const ThreadIndex& index_;
  Sampler sampler_;
  std::vector<RandomStream> lanes_;
};

// Replays every replication with replication 0's random streams: a generator with a
// fixed default seed draws the same sequence in every process, so every process of
// the same program records the same samples.
class SameSequenceRun final : public SchemeRun {
 public:
  explicit SameSequenceRun(std::unique_ptr<SchemeRun> run) : run_(std::move(run)) {}

  void replay(const StreamKey& key, std::vector<Observation>& observations) override {
    StreamKey first = key;
    first.replication = 0;
    run_->replay(first, observations);
  }

 private:
  std::unique_ptr<SchemeRun> run_;
};

}  // namespace allocsim
