#pragma once
// The scenario `allocsim evaluate` (and Python's allocsim.evaluate) builds from a
// trace and schemes with rates: each scheme's first estimator in each window,
// groups with the total first, the byte rates swept, and charts whose titles name
// the trace and the schemes. Errors name the command-line flag (--scheme, --rate).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace allocsim {

struct EvaluateRequest {
  nlohmann::json trace;              // the scenario's "trace" object
  std::string trace_name;            // for the default name and the chart titles: "sqlite3.raw.zst"
  std::vector<std::string> schemes;  // "NAME" or "NAME:key=value,key=value"
  std::vector<std::string> rates;    // byte sizes with units: "4096", "32KiB"
  std::vector<std::string> groups = {"total", "stack"};
  std::vector<std::string> windows = {"allocated"};
  std::uint64_t replications = 1000;
  std::uint64_t seed = 1;
  std::string name;  // empty: evaluate_default_name(trace_name)
};

// "evaluate-<stem>": the trace file's name up to its first dot ("sqlite3.raw.zst":
// evaluate-sqlite3), and for heaptrack's own names, heaptrack.<program>.<pid>[.zst|.gz],
// the program's ("heaptrack.bc.4242.zst": evaluate-bc), so that recordings of different
// programs do not share one results directory.
std::string evaluate_default_name(const std::string& trace_name);

// The scenario document; throws InputError naming the flag at fault.
nlohmann::ordered_json evaluate_scenario(const EvaluateRequest& request);

}  // namespace allocsim
