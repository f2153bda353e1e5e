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
#include "arguments.h"
#include "bindings.h"
#include "errors.h"
#include "py_trace.h"

namespace py = pybind11;

namespace allocsim::python {
namespace {

// The CLI's bounds for --replications, --threads and --top.
constexpr std::uint64_t kMaxReplications = 1'000'000'000;
constexpr unsigned kMaxThreads = 4096;
constexpr std::size_t kMaxTop = 1000;

struct Overrides {
  unsigned threads = 0;  // 0 = all cores
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> replications;
  std::optional<std::string> replay;
};

// The overrides read from run()'s arguments, each checked as the CLI checks its flag.
Overrides read_overrides(const py::object& threads, const py::object& seed, const py::object& replications,
                         const py::object& replay) {
  Overrides o;
  o.threads = integer_argument<unsigned>(threads, "threads", 0, kMaxThreads);
  o.seed = optional_integer<std::uint64_t>(seed, "seed");
  o.replications = optional_integer<std::uint64_t>(replications, "replications", 2, kMaxReplications);
  o.replay = optional_string(replay, "replay");
  if (o.replay && *o.replay != "skip_ahead" && *o.replay != "streaming") {
    throw InputError("replay must be skip_ahead or streaming, got '" + *o.replay + "'");
  }
  return o;
}

void apply(const Overrides& o, Scenario& scenario) {
  if (o.seed) scenario.seed = *o.seed;
  if (o.replications) scenario.replications = *o.replications;
  if (o.replay) scenario.replay = *o.replay == "streaming" ? ReplayMode::streaming : ReplayMode::skip_ahead;
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

RunFiles run_and_format(const Scenario& scenario, unsigned threads, const std::optional<std::string>& out, bool charts,
                        std::size_t top) {
  // Checked before the run: a results directory that may not be replaced costs no work.
  if (out) check_results_directory(results_directory(*out, scenario), scenario_inputs(scenario), "out");
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
    StagedDirectory staged(files.directory, scenario_inputs(scenario), "scenario " + scenario.name, "out");
    write_result_files(staged.path(), scenario, result, outcomes);
    if (charts) render_figures({scenario.charts, scenario.tables}, staged.path(), options.threads);
    staged.commit();
  }
  return files;
}

// Every sweep point reads `trace` (shared, not copied), and summary.json says so.
// An empty trace is refused: every result would be an empty table.
void use_trace(Scenario& scenario, const PyTrace& trace) {
  if (trace.trace->size() == 0) throw InputError("trace: the trace holds no allocations, there is nothing to sample");
  for (SweepPoint& point : scenario.points) {
    point.trace = TraceSource{InMemoryTrace{trace.trace}};
    point.trace_key = "in-memory";
  }
  scenario.document["trace"] = {{"kind", "in-memory"}, {"format", trace.format}, {"allocations", trace.trace->size()}};
}

py::dict run(const std::string& source, bool is_path, const Overrides& overrides, const std::optional<std::string>& out,
             bool charts, const PyTrace* trace, std::size_t top) {
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
  // The numbers and names a user passes to allocsim.run and allocsim.evaluate arrive
  // as plain objects, read by arguments.h; the rest comes from the package itself.
  module.def(
      "_run",
      [](const py::object& source, bool is_path, const py::object& threads, const py::object& seed,
         const py::object& replications, const py::object& replay, const py::object& out, const py::object& charts,
         const PyTrace* trace, const py::object& top) {
        const Overrides overrides = read_overrides(threads, seed, replications, replay);
        const auto top_count = integer_argument<std::size_t>(top, "top", 1, kMaxTop);
        const std::optional<std::string> out_path =
            out.is_none() ? std::nullopt : std::optional(path_argument(out, "out"));
        const std::string text = is_path ? path_argument(source, "scenario") : string_argument(source, "scenario");
        return run(text, is_path, overrides, out_path, bool_argument(charts, "charts"), trace, top_count);
      },
      py::arg("source"), py::arg("is_path"), py::arg("threads"), py::arg("seed"), py::arg("replications"),
      py::arg("replay"), py::arg("out"), py::arg("charts"), py::arg("trace").none(true), py::arg("top"),
      "Runs a scenario (JSON text, or a file when is_path), on `trace` when given; returns the result "
      "files' text and the verdict. Use allocsim.run.");
  module.def(
      "_evaluate_scenario",
      [](const std::string& trace_json, const py::object& trace_name, const py::object& schemes,
         const py::object& rates, const py::object& groups, const py::object& windows, const py::object& replications,
         const py::object& seed, const py::object& name) {
        EvaluateRequest request{nlohmann::json::parse(trace_json),
                                string_argument(trace_name, "trace_name"),
                                string_list_argument(schemes, "schemes"),
                                string_list_argument(rates, "rates"),
                                string_list_argument(groups, "groups"),
                                string_list_argument(windows, "windows"),
                                integer_argument<std::uint64_t>(replications, "replications", 2, kMaxReplications),
                                integer_argument<std::uint64_t>(seed, "seed"),
                                string_argument(name, "name")};
        return json_text(evaluate_scenario(request));
      },
      py::arg("trace_json"), py::arg("trace_name"), py::arg("schemes"), py::arg("rates"), py::arg("groups"),
      py::arg("windows"), py::arg("replications"), py::arg("seed"), py::arg("name"),
      "The scenario `allocsim evaluate` builds, as JSON text. Use allocsim.evaluate.");
}

}  // namespace allocsim::python
