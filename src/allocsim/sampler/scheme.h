#pragma once
// A scheme is what one real system does end to end: a sampler (the mechanism that
// decides which allocations to record) plus the estimators that scale the records
// back up to bytes and counts.
//
// The engine dispatches on the scheme once per replication (SchemeRun::replay and
// Scheme::weigh are the only virtual calls); the per-event loop inside a concrete
// sampler is plain, inlined code.
#include <cstdint>
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
  // groups it belongs to, where W is the total number of registers over all
  // estimators, estimator 0's registers first (for linear estimators W = E and
  // register e is estimator e's estimate).
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

  // Whether estimator e has per-allocation theory (allocation_theory).
  virtual bool has_allocation_theory(std::size_t /*estimator*/) const { return false; }
  virtual AllocationTheory allocation_theory(std::size_t /*estimator*/, const Trace& /*trace*/,
                                             std::size_t /*i*/) const {
    return {};
  }
  // allocation_theory(estimator, trace, i) for every allocation i into out[i]
  // (out.size() == trace.size()). A scheme whose per-allocation theory reads data it
  // derives from the trace overrides this to fetch that data once.
  virtual void allocation_theories(std::size_t estimator, const Trace& trace, std::span<AllocationTheory> out) const;
  // Closed-form metrics of estimator e for a group with the given truth and, where
  // has_allocation_theory(e), the group's sums of allocation_theory. The default
  // turns those sums into the bias, the variance and P(>= 1 sample).
  virtual TheoryValues theory(std::size_t estimator, const GroupTotals& truth,
                              const AllocationTheory& sums) const;
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
