#pragma once
// A scenario: one experiment described in JSON. Parsing resolves and validates
// everything (every sweep point's trace and schemes), so a bad scenario is
// rejected before any work is done or any file is written.
//
// Sweep variables are referenced by value: any string "$name" inside "trace" or
// "schemes" is replaced by the variable's value at each point of the cartesian
// product (the last variable varies fastest).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/outputs/chart_spec.h"
#include "allocsim/outputs/table_spec.h"
#include "allocsim/sampler/scheme.h"
#include "allocsim/scenario/expectation.h"
#include "allocsim/stats/groups.h"
#include "allocsim/stats/window.h"
#include "allocsim/trace/trace_source.h"

namespace allocsim {

struct SweepVariable {
  std::string name;
  std::vector<nlohmann::json> values;
};

struct SchemeInstance {
  std::string label;  // unique within the scenario; the "scheme" column
  std::string name;   // registry name
  std::shared_ptr<const Scheme> scheme;
  nlohmann::json params;  // its entry of "schemes", sweep values substituted
};

struct SweepPoint {
  std::vector<nlohmann::json> values;  // one per sweep variable
  std::string trace_key;               // the resolved trace JSON: equal keys share a trace
  TraceSource trace;
  std::vector<SchemeInstance> schemes;
};

// How samplers are replayed: skip-ahead (from sample point to sample point, for
// schemes that have it) or streaming (every event; the reference).
enum class ReplayMode { skip_ahead, streaming };

struct OutputOptions {
  std::string directory;   // under the --out directory; defaults to the scenario name
  bool estimates = false;  // write estimates.csv: every replication's total-group estimate
  bool intervals = true;   // write intervals.csv where a scheme offers intervals
};

struct Scenario {
  std::string source;               // file it came from
  nlohmann::ordered_json document;  // as written, in the author's key order
  std::string name;
  std::string description;
  std::uint64_t seed = 1;
  std::uint64_t replications = 1000;
  std::vector<SweepVariable> sweep;
  std::vector<SweepPoint> points;
  std::vector<GroupKind> groups;
  std::vector<Window> windows;
  std::vector<std::string> estimators;  // names to report; empty = all
  double interval_level = 0.95;         // nominal coverage of every interval
  ReplayMode replay = ReplayMode::skip_ahead;
  OutputOptions outputs;
  std::vector<Expectation> expectations;
  std::vector<ChartSpec> charts;  // drawn from the results (report/figures.h)
  std::vector<TableSpec> tables;
};

Scenario parse_scenario(const std::string& text, const std::string& where);
Scenario load_scenario(const std::string& path);

}  // namespace allocsim
