#pragma once
// report.html: one self-contained page per results directory that a person reads
// and forwards. The verdict first (verdict.h), a short "how to read this", a table
// comparing every scheme, sweep point and window, each one's Monte Carlo estimates
// as estimate [lower, upper] with their level and standard error
// (monte_carlo_rows.h), then the charts gnuplot drew, their SVG inside the page
// (inline_svg.h). No script, style sheet, font or image is fetched from anywhere:
// the page opens the same from an e-mail attachment.
//
// Every number is read from the result rows the CSV files are written from.
#include <string>
#include <vector>

#include "allocsim/check/expectation_check.h"
#include "allocsim/engine/experiment.h"

namespace allocsim {

// The page; the charts are read from `results_dir`/charts/NAME.svg where drawn.
std::string report_html(const Scenario& scenario, const ScenarioResult& result,
                        const std::vector<ExpectationOutcome>& outcomes, const std::string& results_dir);

// Writes `results_dir`/report.html (util/atomic_file.h): a temporary file renamed into place.
void write_report_html(const std::string& results_dir, const Scenario& scenario, const ScenarioResult& result,
                       const std::vector<ExpectationOutcome>& outcomes);

}  // namespace allocsim
