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

#include "allocsim/estimate/allocation_theory.h"
#include "allocsim/estimate/interval.h"
#include "allocsim/estimate/quantity.h"
#include "allocsim/estimate/theory_values.h"
#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/estimator_theory.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

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

// Mutable per-worker state of one scheme bound to one trace.
class SchemeRun {
 public:
  virtual ~SchemeRun() = default;
  // Replays the whole trace with the random streams of `key` (one lane per traced
  // thread) and appends one observation per sampled allocation (in trace order
  // for streaming replay, thread by thread for skip-ahead).
  virtual void replay(const StreamKey& key, std::vector<Observation>& observations) = 0;
};

// A scheme prepared for one trace: what the scheme derives from the trace once
// (the prefix sums of the sizes it counts, an optimal design's plan), immutable and
// shared by the workers, each of which starts its own run. The trace (and thread
// index) it was prepared for must outlive it and its runs.
class PreparedScheme {
 public:
  virtual ~PreparedScheme() = default;
  virtual std::unique_ptr<SchemeRun> start() const = 0;
  // Whether the runs jump from sample point to sample point (skip-ahead replay)
  // rather than visit every event.
  virtual bool skip_ahead() const = 0;
};

class Scheme {
 public:
  virtual ~Scheme() = default;
  virtual const std::vector<EstimatorSpec>& estimators() const = 0;

  // Prepares this scheme's runs on `trace`: skip-ahead runs when `index` is given
  // and the scheme has them for this trace and these parameters, streaming runs
  // otherwise. Both replay the same distribution; with the same key, the same
  // observations (thread by thread for skip-ahead).
  std::shared_ptr<const PreparedScheme> prepare(const Trace& trace, const ThreadIndex* index) const {
    if (index != nullptr) {
      if (auto prepared = prepare_skip_ahead(trace, *index)) return prepared;
    }
    return prepare_streaming(trace);
  }
  // One streaming run, or one skip-ahead run (nullptr when the scheme has none for
  // this trace), for a caller that needs a single run.
  std::unique_ptr<SchemeRun> start(const Trace& trace) const { return prepare_streaming(trace)->start(); }
  std::unique_ptr<SchemeRun> start_skip_ahead(const Trace& trace, const ThreadIndex& index) const {
    const auto prepared = prepare_skip_ahead(trace, index);
    return prepared ? prepared->start() : nullptr;
  }

  // Fills contributions[o * W + j]: what observation o adds to register j of the
  // groups it belongs to, laid out by RegisterLayout(estimators()) (W its width; for
  // linear estimators W = E and register e is estimator e's estimate). Schemes write
  // through RegisterRows, which checks W.
  virtual void weigh(const Trace& trace, std::span<const Observation> observations,
                     std::span<double> contributions) const = 0;
  // The estimate of a group from estimator e's registers (only called for
  // estimators with more than one register).
  virtual double finalize(std::size_t /*estimator*/, std::span<const double> registers) const { return registers[0]; }
  // The size the modelled allocator hands out for allocation i: what
  // Quantity::allocated_bytes estimators are compared with. Schemes that model an
  // allocator's size classes override it; by default it is the trace's own.
  virtual std::uint64_t allocated_size(const Trace& trace, std::size_t i) const { return trace.allocated_size(i); }
  // The smallest size this scheme records whole, once and at its true size, outside
  // its sampling (heapprofd's and Memray's pass-through); UINT64_MAX for none. What
  // `margins` needs to model such allocations as certain, not sampled.
  virtual std::uint64_t recorded_whole_from() const { return UINT64_MAX; }
  // Bytes the first thread allocates before it can be sampled at all (gperftools'
  // 16 MiB start-up counter); 0 for none. What `profile` needs to say what the
  // system cannot see.
  virtual std::uint64_t unsampled_start() const { return 0; }
  // The intervals this scheme offers, and interval j for a group whose estimator
  // registers are `registers`, at confidence `level`.
  virtual const std::vector<IntervalSpec>& intervals() const;
  virtual Interval interval(std::size_t /*interval*/, std::span<const double> /*registers*/, double /*level*/) const {
    return {};
  }

  // The closed-form theory of estimator e; by default none.
  virtual EstimatorTheory theory(std::size_t /*estimator*/) const { return {}; }

 protected:
  // Streaming replay: the sampler visits every event (the reference).
  virtual std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const = 0;
  // Skip-ahead replay: the sampler jumps from sample point to sample point through
  // per-thread prefix sums, touching only sampled events; same distribution as
  // streaming. nullptr when the scheme has none (prepare() then streams).
  virtual std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& /*trace*/,
                                                                   const ThreadIndex& /*index*/) const {
    return nullptr;
  }
};

}  // namespace allocsim
