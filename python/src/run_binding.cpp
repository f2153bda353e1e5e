// allocsim._run: parse a scenario, apply the overrides the CLI's `run` offers, run
// it with the GIL released (Ctrl-C stops it) and hand back the result files' text,
// written by the CLI's own writers (report/results_writer.h), and the verdict the
// CLI prints (report/verdict.h). allocsim._evaluate_scenario: the scenario
// `allocsim evaluate` builds (report/evaluate_scenario.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "allocsim/check/expectation_check.h"
#include "allocsim/engine/experiment.h"
#include "allocsim/report/evaluate_scenario.h"
#include "allocsim/report/figures.h"
#include "allocsim/report/results_writer.h"
#include "allocsim/report/verdict.h"
#include "allocsim/util/error.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/parallel.h"
#include "allocsim/util/staged_directory.h"
#include "bindings.h"
#include "errors.h"
#include "py_trace.h"

namespace py = pybind11;

namespace allocsim::python {
namespace {

// The CLI's bounds for --replications and --threads.
constexpr std::uint64_t kMaxReplications = 1'000'000'000;
constexpr unsigned kMaxThreads = 4096;

struct Overrides {
  unsigned threads = 0;  // 0 = all cores
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> replications;
  std::optional<std::string> replay;
};

void apply(const Overrides& o, Scenario& scenario) {
  if (o.threads > kMaxThreads) {
    throw InputError("threads must be in [0, 4096] (0: all cores), got " + std::to_string(o.threads));
  }
  if (o.seed) scenario.seed = *o.seed;
  if (o.replications) {
    if (*o.replications < 2 || *o.replications > kMaxReplications) {
      throw InputError("replications must be in [2, 1000000000], got " + std::to_string(*o.replications));
    }
    scenario.replications = *o.replications;
  }
  if (o.replay) {
    if (*o.replay != "skip_ahead" && *o.replay != "streaming") {
      throw InputError("replay must be skip_ahead or streaming, got '" + *o.replay + "'");
    }
    scenario.replay = *o.replay == "streaming" ? ReplayMode::streaming : ReplayMode::skip_ahead;
  }
}

// Asked by the engine on this (the calling) thread while it runs without the GIL:
// true once Python has a pending signal whose handler raised (Ctrl-C).
bool python_interrupted() {
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

struct RunFiles {
  std::string metrics, summary, verdict, directory;
  std::optional<std::string> intervals, profiles, estimates;  // absent where the CLI writes no file
};

RunFiles run_and_format(const Scenario& scenario, unsigned threads, const std::optional<std::string>& out,
                        bool charts, std::size_t top) {
  RunOptions options;
  options.threads = threads == 0 ? default_thread_count() : threads;
  options.cancelled = python_interrupted;
  const ScenarioResult result = run_scenario(scenario, options);
  const std::vector<ExpectationOutcome> outcomes = check_expectations(scenario, result);
  RunFiles files;
  files.metrics = metrics_csv(scenario, result);
  files.summary = summary_json(scenario, result, outcomes);
  files.verdict = json_text(verdict_json(scenario, make_verdict(scenario, result, top)));
  if (!result.profile_rows.empty()) files.profiles = profiles_csv(scenario, result);
  if (scenario.outputs.intervals && !result.interval_rows.empty()) files.intervals = intervals_csv(scenario, result);
  if (scenario.outputs.estimates) files.estimates = estimates_csv(scenario, result);
  if (out) {
    // As the CLI does: the directory is staged and replaces <out>/<name> whole.
    files.directory = results_directory(*out, scenario);
    StagedDirectory staged(files.directory);
    write_result_files(staged.path(), scenario, result, outcomes);
    if (charts) render_figures({scenario.charts, scenario.tables}, staged.path());
    staged.commit();
  }
  return files;
}

// Every sweep point reads `trace` (shared, not copied), and summary.json says so.
void use_trace(Scenario& scenario, const PyTrace& trace) {
  for (SweepPoint& point : scenario.points) {
    point.trace = TraceSource{InMemoryTrace{trace.trace}};
    point.trace_key = "in-memory";
  }
  scenario.document["trace"] = {{"kind", "in-memory"}, {"format", trace.format}, {"allocations", trace.trace->size()}};
}

py::dict run(const std::string& source, bool is_path, const Overrides& overrides,
             const std::optional<std::string>& out, bool charts, const PyTrace* trace, std::size_t top) {
  if (top < 1 || top > 1000) throw InputError("top must be in [1, 1000], got " + std::to_string(top));
  Scenario scenario = is_path ? read_input_file(source, load_scenario) : parse_scenario(source, "<scenario>");
  apply(overrides, scenario);
  if (trace != nullptr) use_trace(scenario, *trace);
  RunFiles files;
  {
    py::gil_scoped_release released;
    files = run_and_format(scenario, overrides.threads, out, charts, top);
  }
  py::dict result;
  result["metrics"] = files.metrics;
  result["intervals"] = files.intervals;
  result["profiles"] = files.profiles;
  result["estimates"] = files.estimates;
  result["summary"] = files.summary;
  result["verdict"] = files.verdict;
  result["scenario"] = json_text(scenario.document);
  result["directory"] = out ? py::object(py::str(files.directory)) : py::object(py::none());
  return result;
}

}  // namespace

void bind_run(py::module_& module) {
  module.def(
      "_run",
      [](const std::string& source, bool is_path, unsigned threads, std::optional<std::uint64_t> seed,
         std::optional<std::uint64_t> replications, std::optional<std::string> replay,
         std::optional<std::string> out, bool charts, const PyTrace* trace, std::size_t top) {
        return run(source, is_path, {threads, seed, replications, replay}, out, charts, trace, top);
      },
      py::arg("source"), py::arg("is_path"), py::arg("threads"), py::arg("seed"), py::arg("replications"),
      py::arg("replay"), py::arg("out"), py::arg("charts"), py::arg("trace").none(true), py::arg("top"),
      "Runs a scenario (JSON text, or a file when is_path), on `trace` when given; returns the result "
      "files' text and the verdict. Use allocsim.run.");
  module.def(
      "_evaluate_scenario",
      [](const std::string& trace_json, const std::string& trace_name, std::vector<std::string> schemes,
         std::vector<std::string> rates, std::vector<std::string> groups, std::vector<std::string> windows,
         std::uint64_t replications, std::uint64_t seed, const std::string& name) {
        EvaluateRequest request{nlohmann::json::parse(trace_json), trace_name, std::move(schemes),
                                std::move(rates), std::move(groups), std::move(windows), replications,
                                seed, name};
        return json_text(evaluate_scenario(request));
      },
      py::arg("trace_json"), py::arg("trace_name"), py::arg("schemes"), py::arg("rates"), py::arg("groups"),
      py::arg("windows"), py::arg("replications"), py::arg("seed"), py::arg("name"),
      "The scenario `allocsim evaluate` builds, as JSON text. Use allocsim.evaluate.");
}

}  // namespace allocsim::python
