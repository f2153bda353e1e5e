#include "allocsim/report/html_report.h"

#include <filesystem>

#include "allocsim/outputs/value_format.h"
#include "allocsim/report/html_writer.h"
#include "allocsim/report/inline_svg.h"
#include "allocsim/report/monte_carlo_rows.h"
#include "allocsim/report/verdict.h"
#include "allocsim/report/verdict_format.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/byte_units.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;

std::string entry_title(const Scenario& scenario, const SchemeVerdict& entry) {
  return entry.scheme + verdict_point_text(scenario, entry.point) + ", " + entry.window;
}

std::string entry_id(std::size_t i) { return "entry-" + std::to_string(i + 1); }

void cell(HtmlWriter& page, const std::string& text, bool numeric = false) {
  if (numeric) {
    page.element("td", text, {{"class", "num"}});
  } else {
    page.element("td", text);
  }
}

void header_row(HtmlWriter& page, std::initializer_list<std::pair<const char*, bool>> columns) {
  page.open("tr");
  for (const auto& [name, numeric] : columns) {
    if (numeric) {
      page.element("th", name, {{"class", "num"}});
    } else {
      page.element("th", name);
    }
  }
  page.close();
}

void expectations(HtmlWriter& page, const std::vector<ExpectationOutcome>& outcomes) {
  if (outcomes.empty()) return;
  std::size_t held = 0;
  for (const ExpectationOutcome& o : outcomes) held += o.passed ? 1 : 0;
  page.open("p", {{"class", "headline"}});
  page.text("Expectations: ");
  page.element("span", std::to_string(held) + " of " + std::to_string(outcomes.size()) + " hold",
               {{"class", held == outcomes.size() ? "pass" : "fail"}});
  page.close();
  page.open("table");
  header_row(page, {{"expectation", false}, {"row", false}, {"value", true}, {"test", false}, {"", false}});
  for (const ExpectationOutcome& o : outcomes) {
    page.open("tr");
    cell(page, o.name);
    cell(page, o.row);
    cell(page, format_value(o.value, Unit::none, 6), true);
    cell(page, o.bound);
    page.element("td", o.passed ? "holds" : "FAILS", {{"class", o.passed ? "pass" : "fail"}});
    page.close();
  }
  page.close();
}

// One entry of the verdict: the whole heap in a sentence, the profile, the largest
// stacks and those probably missed; the numbers written as the text verdict writes them.
void verdict_card(HtmlWriter& page, const Scenario& scenario, const SchemeVerdict& entry, std::size_t i) {
  const Metrics& total = entry.total.row->metrics;
  page.open("div", {{"class", "card"}, {"id", entry_id(i)}});
  page.element("h3", entry_title(scenario, entry) + " (estimator " + entry.estimator + ")");
  page.element("p", "Truth: " + verdict_truth_text(entry.quantity) + ".", {{"class", "sub"}});
  page.open("p", {{"class", "headline"}});
  page.text("Whole heap " + bytes_approx(total.truth) + ": typical error ");
  page.element("span", verdict_percent(total.mape), {{"class", "big"}});
  page.text("; bias " + verdict_percent(total.rel_bias) + " ± " + verdict_percent(total.se_bias / total.truth) +
            " (1 SE)");
  if (entry.total.interval != nullptr) {
    page.text("; its " + verdict_percent(entry.total.interval->metrics.level) + " " + entry.total.interval->interval +
              " interval covers ");
    page.element("span", verdict_percent(entry.total.interval->metrics.coverage), {{"class", "big"}});
  }
  page.text(".");
  page.close();
  if (entry.profile != nullptr) {
    page.element("p", "Profile: " + verdict_percent(entry.profile->mean_distance) + " ± " +
                          verdict_percent(entry.profile->se_distance) + " from the truth (total variation over " +
                          std::to_string(entry.profile->groups) + " stacks: 0 exact, 100% disjoint).");
  }
  if (!entry.size_buckets.empty()) {
    page.open("table");
    header_row(page, {{"by size bucket: true", true},
                      {"typical error", true},
                      {"P(seen)", true},
                      {"covered", true},
                      {"requested size (bytes)", false}});
    for (const GroupVerdict& bucket : entry.size_buckets) {
      const Metrics& m = bucket.row->metrics;
      page.open("tr");
      cell(page, bytes_approx(m.truth), true);
      cell(page, verdict_percent(m.mape), true);
      cell(page, verdict_percent(m.p_any_sample), true);
      cell(page, bucket.interval == nullptr ? "-" : verdict_percent(bucket.interval->metrics.coverage), true);
      cell(page, bucket.row->group);
      page.close();
    }
    page.close();
  }
  if (!entry.top_stacks.empty()) {
    page.element("p", "Probably missed: " + std::to_string(entry.stacks_probably_missed) + " of " +
                          std::to_string(entry.stacks) + " stacks (" + verdict_percent(entry.truth_probably_missed) +
                          " of the bytes), each sampled in fewer than half of the profiles.");
    page.open("table");
    header_row(page, {{"largest stacks: true", true},
                      {"typical error", true},
                      {"P(seen)", true},
                      {"covered", true},
                      {"stack", false}});
    for (const GroupVerdict& stack : entry.top_stacks) {
      const Metrics& m = stack.row->metrics;
      page.open("tr");
      cell(page, bytes_approx(m.truth), true);
      cell(page, verdict_percent(m.mape), true);
      cell(page, verdict_percent(m.p_any_sample), true);
      cell(page, stack.interval == nullptr ? "-" : verdict_percent(stack.interval->metrics.coverage), true);
      page.element("td", stack.row->group, {{"class", "stack"}});
      page.close();
    }
    page.close();
  }
  page.close();
}

void how_to_read(HtmlWriter& page, const Scenario& scenario) {
  page.element("h2", "How to read this");
  page.open("dl", {{"class", "howto"}});
  page.definition(
      "Simulated profiles",
      "Each scheme replays the trace " + std::to_string(scenario.replications) +
          " times with independent random draws (seed " + std::to_string(scenario.seed) + "), as " +
          std::to_string(scenario.replications) +
          " runs of the real profiler would; each run's estimate is compared with the exact truth of the trace.");
  page.definition("Typical error",
                  "|estimate − truth| / truth, averaged over the profiles: how far one profile's number is "
                  "from the truth, typically.");
  page.definition("Bias",
                  "mean estimate − truth. A relative bias within about 2 standard errors of 0 is consistent with "
                  "an unbiased estimator; a larger one is a systematic error that more profiles do not remove.");
  page.definition(
      "Estimate [lower, upper]",
      "Every Monte Carlo number is itself an estimate from a finite number of profiles. [lower, upper] is its " +
          format_value(kMonteCarloLevel, Unit::percent) +
          " interval, estimate ± 1.96 Monte Carlo standard errors (MC SE); more replications narrow it.");
  page.definition("P(seen) and probably missed",
                  "the share of profiles that sample a stack at least once; a stack seen in "
                  "fewer than half of them is probably missed by a single profile.");
  page.definition("Coverage",
                  "how often the scheme's own confidence interval contains the truth; a good interval covers "
                  "about its nominal level.");
  page.definition("Profile distance",
                  "total variation distance between the estimated and the true share of each stack: "
                  "0 is an exact profile, 100% one with nothing in common with the truth.");
  page.definition("Files", "metrics.csv, intervals.csv and profiles.csv in this directory hold every number at full "
                           "precision; summary.json the scenario as run; charts/ the charts below as PNG and SVG.");
  page.close();
}

void comparison(HtmlWriter& page, const Scenario& scenario, const Verdict& verdict) {
  page.element("h2", "Comparison");
  page.open("div", {{"class", "wide"}});
  page.open("table");
  page.open("tr");
  page.element("th", "scheme");
  for (const SweepVariable& v : scenario.sweep) page.element("th", v.name);
  page.element("th", "window");
  for (const char* name : {"truth", "typical error", "relative bias ± SE", "interval coverage", "profile distance",
                           "stacks probably missed"}) {
    page.element("th", name, {{"class", "num"}});
  }
  page.close();
  for (std::size_t i = 0; i < verdict.entries.size(); ++i) {
    const SchemeVerdict& entry = verdict.entries[i];
    const Metrics& total = entry.total.row->metrics;
    page.open("tr");
    page.open("td");
    page.element("a", entry.scheme, {{"href", std::string("#") + entry_id(i)}});
    page.close();
    for (std::size_t v = 0; v < scenario.sweep.size(); ++v) cell(page, verdict_sweep_value(scenario, entry.point, v));
    cell(page, entry.window);
    cell(page, bytes_approx(total.truth), true);
    cell(page, verdict_percent(total.mape), true);
    cell(page, verdict_percent(total.rel_bias) + " ± " + verdict_percent(total.se_bias / total.truth), true);
    cell(page,
         entry.total.interval == nullptr
             ? "-"
             : verdict_percent(entry.total.interval->metrics.coverage) + " (" +
                   verdict_percent(entry.total.interval->metrics.level) + " " + entry.total.interval->interval + ")",
         true);
    cell(page, entry.profile == nullptr ? "-" : verdict_percent(entry.profile->mean_distance), true);
    cell(page,
         entry.stacks == 0 ? "-"
                           : std::to_string(entry.stacks_probably_missed) + " of " + std::to_string(entry.stacks) +
                                 " (" + verdict_percent(entry.truth_probably_missed) + " of bytes)",
         true);
    page.close();
  }
  page.close();
  page.close();
}

std::string shown(double value, Unit unit) {
  if (std::isnan(value)) return "n/a";
  return format_value(value, unit, 3);
}

void estimates(HtmlWriter& page, const Scenario& scenario, const Verdict& verdict) {
  page.element("h2", "Estimates");
  page.element("p",
               "The whole heap of each scheme, sweep point and window: each number with its " +
                   format_value(kMonteCarloLevel, Unit::percent) + " Monte Carlo interval and standard error, over " +
                   std::to_string(scenario.replications) + " simulated profiles.",
               {{"class", "sub"}});
  for (std::size_t i = 0; i < verdict.entries.size(); ++i) {
    const SchemeVerdict& entry = verdict.entries[i];
    page.element("h3", entry_title(scenario, entry) + ": truth " + bytes_approx(entry.total.row->metrics.truth),
                 {{"id", entry_id(i) + "-estimates"}});
    page.open("table");
    header_row(page,
               {{"quantity", false}, {"estimate", true}, {"[lower, upper]", true}, {"level", true}, {"MC SE", true}});
    for (const MonteCarloEstimate& e : monte_carlo_estimates(entry)) {
      page.open("tr");
      cell(page, e.label);
      cell(page, shown(e.estimate, e.unit), true);
      const double half = kMonteCarloZ * e.se;
      cell(page,
           std::isnan(e.estimate) || std::isnan(e.se)
               ? "n/a"
               : std::string("[") + shown(e.estimate - half, e.unit) + ", " + shown(e.estimate + half, e.unit) + "]",
           true);
      cell(page, format_value(kMonteCarloLevel, Unit::percent), true);
      cell(page, shown(e.se, e.unit), true);
      page.close();
    }
    page.close();
  }
}

void charts(HtmlWriter& page, const Scenario& scenario, const std::string& results_dir) {
  if (scenario.charts.empty()) return;
  page.element("h2", "Charts");
  for (std::size_t c = 0; c < scenario.charts.size(); ++c) {
    const ChartSpec& chart = scenario.charts[c];
    const fs::path file = fs::path(results_dir) / "charts" / (chart.name + ".svg");
    if (!fs::exists(file)) {
      const std::string why = chart.skip_when_empty
                                  ? "the run had --no-charts, or no group it shows holds bytes in its window"
                                  : "the run had --no-charts";
      page.element("p", (chart.title.empty() ? chart.name : chart.title) + ": not drawn (" + why + ").",
                   {{"class", "sub"}});
      continue;
    }
    const std::optional<std::string> svg = inline_svg_file(file, std::string("c") + std::to_string(c + 1) + "-");
    page.open("figure");
    if (svg) {
      page.raw(*svg);
    } else {
      page.element("p", "Not embedded: the SVG refers to files outside itself.");
    }
    page.element("figcaption", "charts/" + chart.name + ".svg (and .png)");
    page.close();
  }
}

}  // namespace

std::string report_html(const Scenario& scenario, const ScenarioResult& result,
                        const std::vector<ExpectationOutcome>& outcomes, const std::string& results_dir) {
  const Verdict verdict = make_verdict(scenario, result);
  HtmlWriter page;
  start_report_page(page, "allocsim report: " + scenario.name);
  page.element("h1", scenario.name);
  if (!scenario.description.empty()) page.element("p", scenario.description, {{"class", "sub"}});
  page.element("p",
               "allocsim report: " + std::to_string(scenario.replications) +
                   " simulated profiles per scheme and sweep point; every number below is read from the CSV "
                   "files beside this page.",
               {{"class", "sub"}});
  page.element("h2", "Verdict");
  expectations(page, outcomes);
  for (std::size_t i = 0; i < verdict.entries.size(); ++i) verdict_card(page, scenario, verdict.entries[i], i);
  if (verdict.entries.empty()) page.element("p", "No whole-heap row in the results: nothing to judge.");
  how_to_read(page, scenario);
  if (!verdict.entries.empty()) {
    comparison(page, scenario, verdict);
    estimates(page, scenario, verdict);
  }
  charts(page, scenario, results_dir);
  page.element("footer", "Written by allocsim " ALLOCSIM_VERSION " from the result rows of metrics.csv, intervals.csv "
                         "and profiles.csv in this directory (scenario " +
                             scenario.source + ", seed " + std::to_string(scenario.seed) + ").");
  return page.finish();
}

void write_report_html(const std::string& results_dir, const Scenario& scenario, const ScenarioResult& result,
                       const std::vector<ExpectationOutcome>& outcomes) {
  write_file_atomically((fs::path(results_dir) / "report.html").string(),
                        report_html(scenario, result, outcomes, results_dir));
}

}  // namespace allocsim
