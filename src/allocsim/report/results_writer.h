#pragma once
// Writes a scenario's results into one directory: metrics.csv (one tidy row per
// sweep point, scheme, estimator and group), summary.json (the resolved scenario,
// seed, version, wall time, trace sizes, expectation outcomes), intervals.csv when
// a scheme offers confidence intervals (coverage per method and group),
// profiles.csv when groups other than the total are evaluated (the distance of the
// estimated profile from the true one) and, when
// asked, estimates.csv (every replication's whole-trace estimate). The caller writes
// them into a staged directory (util/staged_directory.h), beside the charts and
// report.html (html_report.h), and commits it as a whole, so no file of an earlier
// run (an estimates.csv no longer asked for) survives.
#include <string>
#include <vector>

#include "allocsim/check/expectation_check.h"
#include "allocsim/engine/experiment.h"
#include "allocsim/util/output_path.h"

namespace allocsim {

std::string metrics_csv(const Scenario& scenario, const ScenarioResult& result);
std::string profiles_csv(const Scenario& scenario, const ScenarioResult& result);
std::string intervals_csv(const Scenario& scenario, const ScenarioResult& result);
std::string estimates_csv(const Scenario& scenario, const ScenarioResult& result);
std::string summary_json(const Scenario& scenario, const ScenarioResult& result,
                         const std::vector<ExpectationOutcome>& outcomes);

// <out_root>/<scenario.outputs.directory>.
std::string results_directory(const std::string& out_root, const Scenario& scenario);

// What the scenario reads (its file and its trace files): its results directory may
// not hold them (util/output_path.h).
InputPaths scenario_inputs(const Scenario& scenario);

// Writes the result files into `directory`.
void write_result_files(const std::string& directory, const Scenario& scenario, const ScenarioResult& result,
                        const std::vector<ExpectationOutcome>& outcomes);

}  // namespace allocsim
