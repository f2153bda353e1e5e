#pragma once
// Shared helpers for the tests: scripted random sources and small traces.
#include <sys/wait.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "allocsim/engine/experiment.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/scenario/scenario.h"
#include "allocsim/trace/trace.h"

namespace allocsim::testing {

// Uniforms for scripting an exponential draw -T ln u with mean T:
// uniform_for_next gives the draw whose floor(.) + 1 is `next` (Go, the JVM),
// uniform_for_interval the one whose trunc(.) is `interval` (tcmalloc, gperftools,
// accumulators). Both aim at the middle of the target's unit interval.
inline double uniform_for_next(double next, double mean) { return std::exp(-(next - 0.5) / mean); }
inline double uniform_for_interval(double interval, double mean) { return std::exp(-(interval + 0.5) / mean); }

// A random stream that replays given values, for hand-computed mechanism tests.
// next_uniform() returns the scripted uniforms in order; next_u64() the scripted
// words. Running out is a test error, never a silent wrap-around.
class ScriptedStream {
 public:
  explicit ScriptedStream(std::vector<double> uniforms, std::vector<std::uint64_t> words = {})
      : uniforms_(std::move(uniforms)), words_(std::move(words)) {}

  double next_uniform() {
    if (next_uniform_ >= uniforms_.size()) throw std::logic_error("scripted uniforms exhausted");
    return uniforms_[next_uniform_++];
  }
  std::uint64_t next_u64() {
    if (next_word_ >= words_.size()) throw std::logic_error("scripted words exhausted");
    return words_[next_word_++];
  }
  std::size_t uniforms_used() const { return next_uniform_; }
  std::size_t words_used() const { return next_word_; }

 private:
  std::vector<double> uniforms_;
  std::vector<std::uint64_t> words_;
  std::size_t next_uniform_ = 0;
  std::size_t next_word_ = 0;
};

// A trace of the given requested sizes; thread ids default to 0, stacks to 0,
// everything live at the end.
inline Trace make_trace(const std::vector<std::uint64_t>& sizes,
                        const std::vector<std::uint32_t>& threads = {}) {
  Trace t;
  t.requested = sizes;
  const std::size_t n = sizes.size();
  t.thread = threads.empty() ? std::vector<std::uint32_t>(n, 0) : threads;
  t.stack.assign(n, 0);
  t.type.assign(n, 0);
  t.time.resize(n);
  for (std::size_t i = 0; i < n; ++i) t.time[i] = i;
  t.free_time.assign(n, kNeverFreed);
  t.thread_count = 1;
  for (auto id : t.thread) t.thread_count = std::max(t.thread_count, id + 1);
  return t;
}

// A scheme from the registry with the given parameters, as a scenario's "schemes"
// entry would create it (unknown keys rejected).
inline std::unique_ptr<Scheme> create_scheme(const std::string& name, const nlohmann::json& params) {
  return allocsim::create_scheme(name, params, "$.schemes[0]");
}

// The same with the parameters given as JSON text.
inline std::unique_ptr<Scheme> create_scheme_from_text(const std::string& name, const std::string& params) {
  return create_scheme(name, nlohmann::json::parse(params));
}

// Runs a scenario given as JSON text.
inline ScenarioResult run_scenario_text(const std::string& json, unsigned threads = 1) {
  const Scenario scenario = parse_scenario(json, "test-scenario");
  RunOptions options;
  options.threads = threads;
  return run_scenario(scenario, options);
}

// The metric row of (scheme, estimator, group kind, group) at sweep point `point`.
inline const Metrics& find_row(const ScenarioResult& result, const std::string& scheme,
                               const std::string& estimator, GroupKind kind = GroupKind::total,
                               const std::string& group = "all", std::size_t point = 0) {
  for (const auto& row : result.rows) {
    if (row.point == point && row.scheme == scheme && row.estimator == estimator &&
        row.group_kind == kind && row.group == group) {
      return row.metrics;
    }
  }
  throw std::logic_error("no metric row " + scheme + "/" + estimator + "/" + group);
}
// The row is a reference into the result: keep the result alive in a variable.
const Metrics& find_row(ScenarioResult&& result, const std::string& scheme, const std::string& estimator,
                        GroupKind kind = GroupKind::total, const std::string& group = "all",
                        std::size_t point = 0) = delete;

struct CliResult {
  int exit_code;
  std::string output;  // stdout, then stderr when asked for
};

// Runs the allocsim binary with `arguments` (shell words) and captures its output.
inline CliResult run_cli(const std::string& arguments, bool with_stderr = false) {
  const std::string command =
      std::string(ALLOCSIM_CLI) + " " + arguments + (with_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, ""};
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace allocsim::testing
