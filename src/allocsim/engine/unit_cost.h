#pragma once
// What one replication of a (sweep point, scheme) is expected to cost, from the
// scenario alone: work units are planned before any trace is built, and the plan
// must be the same in every process. In nanoseconds on the machine the constants
// were measured on (unit_cost.cpp); only their ratios matter, to spread units evenly.
//
//   cost = c * events [streaming replay only] + a * samples + b * entries + d
//
// events and bytes are the trace's as its description gives them (TraceEstimate);
// samples = min(events, bytes / T) for a scheme whose "rate" T is a byte interval,
// events / N for one allocation in N; entries = group slots x windows x estimators,
// what every replication updates whatever it sampled.
#include <cstddef>
#include <optional>

#include "allocsim/scenario/scenario.h"

namespace allocsim {

// A trace as the scenario describes it, before it is built.
struct TraceEstimate {
  double events = 1;
  std::optional<double> bytes;  // requested bytes in all; unknown for a file trace
  double slots = 1;             // group slots of the scenario's group kinds
};

TraceEstimate estimate_trace(const TraceSource& source, const std::vector<GroupKind>& groups);

// Whether the scheme replays by skip-ahead under `replay` (per-byte,
// optimal-size-class and gperftools have no skip-ahead replay and always stream;
// go at rate 1 and jvm with a TLAB or faithful draws on several threads stream too,
// which this estimate does not follow).
bool replays_skip_ahead(const SchemeInstance& scheme, ReplayMode replay);

// Expected samples of one replication: min(events, bytes / T) with the scheme's
// "rate" T (or its alias "interval" or "stride"; the registry's default when
// absent); events / N for per-allocation; events where the bytes or the scheme's
// rate are unknown (a file trace; ocaml, optimal-size-class), the most a scheme
// recording one observation per sampled allocation can record.
double expected_samples(const SchemeInstance& scheme, const TraceEstimate& trace);

// The cost above of one replication of `scheme` on a point whose trace is `trace`.
double replication_cost(const Scenario& scenario, const TraceEstimate& trace, const SchemeInstance& scheme);

}  // namespace allocsim
