#include "allocsim/profile/margins_html.h"

#include <cmath>
#include <filesystem>

#include "allocsim/outputs/value_format.h"
#include "allocsim/report/html_writer.h"
#include "allocsim/util/byte_units.h"

namespace allocsim::profile {
namespace {

// A probability as the table prints it (three significant digits).
std::string probability(double p) { return format_printf(p, "%.3g"); }

// A count: whole numbers whole, others with four significant digits.
std::string count_text(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) return format_printf(value, "%.0f");
  return format_printf(value, "%.4g");
}

// A value of the test in its unit: bytes read at a glance, samples as a count, a share
// in percent.
std::string value_text(double value, MarginValue kind) {
  switch (kind) {
    case MarginValue::bytes: return bytes_approx(value);
    case MarginValue::samples: return count_text(value) + " samples";
    case MarginValue::share: return format_printf(100 * value, "%.4g") + "%";
  }
  return "";
}

// A band's end: bytes at a glance, and under them the whole bytes a test asserts.
void bound_cell(HtmlWriter& page, double value, MarginValue kind) {
  page.open("td", {{"class", "num"}});
  page.text(value_text(value, kind));
  if (kind == MarginValue::bytes) {
    page.empty("br");
    page.element("span", format_printf(value, "%.0f") + " B", {{"class", "sub"}});
  }
  page.close();
}

void answer_section(HtmlWriter& page, const Margins& margins, const MarginsRun& run) {
  const std::string value = value_name(margins.options.value);
  page.element("h2", "The answer");
  page.open("div", {{"class", "card"}});
  page.open("p", {{"class", "headline"}});
  page.text("Assert each of the " + std::to_string(margins.sites.size()) + " sites' " + value +
            " within its band below: an unbiased profiler then fails the whole test with probability ");
  page.element("span", probability(margins.whole_false_failure), {{"class", "big"}});
  page.text(" (asked for: at most " + probability(margins.options.false_failure) + ").");
  page.close();
  page.element("p", "The rate is split over the sites by " + split_name(margins.options.split) + ": " +
                        probability(margins.site_false_failure) +
                        " per site; the sum of the sites' own rates (union bound) is " +
                        probability(margins.union_bound) + ".");
  if (run.check) {
    const MarginCheck& check = *run.check;
    const CheckBound bound = check_bound(check, margins.options.false_failure);
    page.open("p");
    page.text("Checked by the engine (" + std::to_string(check.replications) +
              " replications of the scheme's own sampler, seed " + std::to_string(run.seed) +
              "): the whole test failed " + std::to_string(check.any_failure) + " times, a rate of " +
              format_printf(check.fraction(check.any_failure), "%.4g") + "; at most " +
              std::to_string(bound.allowed_failures) + " failures pass: ");
    page.element("span", bound.passed ? "passed" : "FAILED", {{"class", bound.passed ? "pass" : "fail"}});
    page.text(".");
    page.close();
  }
  page.close();
}

void bands_section(HtmlWriter& page, const Margins& margins, const MarginsRun& run) {
  const MarginValue kind = margins.options.value;
  page.element("h2", "Bands per site");
  page.open("table");
  page.open("tr");
  page.element("th", "site");
  for (const char* name : {"allocations", "expected", "lower", "upper", "P(outside)"}) {
    page.element("th", name, {{"class", "num"}});
  }
  page.element("th", "power (bias " + format_printf(100 * margins.options.bias, "%+.3g") + "%)", {{"class", "num"}});
  if (run.check) page.element("th", "measured: P(outside), power", {{"class", "num"}});
  page.element("th", "band");
  page.close();
  for (std::size_t s = 0; s < margins.sites.size(); ++s) {
    const SiteMargin& m = margins.sites[s];
    double allocations = 0;
    for (const auto& [size, objects] : m.site.sizes) allocations += static_cast<double>(objects);
    page.open("tr");
    page.element("td", m.site.name);
    page.number_cell(count_text(allocations));
    page.number_cell(value_text(m.expected, kind));
    bound_cell(page, m.lower, kind);
    bound_cell(page, m.upper, kind);
    page.number_cell(probability(m.false_failure));
    page.number_cell(m.power ? format_printf(*m.power, "%.4f") : std::string("-"));
    if (run.check) {
      page.number_cell(format_printf(run.check->fraction(run.check->failures[s]), "%.4g") + ", " +
                       format_printf(run.check->fraction(run.check->detections[s]), "%.4g"));
    }
    page.element("td", m.exact ? "exact" : "union bound");
    page.close();
  }
  page.close();
  page.element("p",
               "A test asserts lower <= value <= upper; byte bands are whole bytes (the number under each is the one "
               "to assert). exact: from the exact distribution of the site's scaled counts; union bound: conservative "
               "(its true P(outside) is below the one shown).",
               {{"class", "sub"}});
}

void model_section(HtmlWriter& page, const Margins& margins, const MarginsRun& run) {
  page.element("h2", "The model");
  page.open("div", {{"class", "card"}});
  page.open("p", {{"class", "headline"}});
  page.text("Scheme ");
  page.element("span", margins.model.system, {{"class", "big"}});
  page.text(" at rate " + bytes_exact(margins.model.rate) + " (mean bytes between samples).");
  page.close();
  page.element("p", "Sampling model: " + model_description(margins.model) + ".");
  page.element("p",
               "Value checked per site: " + value_name(margins.options.value) + "; workload: " + run.workload + ".");
  page.close();
}

void how_to_read(HtmlWriter& page, const Margins& margins) {
  page.element("h2", "How to read this");
  page.open("dl", {{"class", "howto"}});
  page.definition("Band",
                  "the range the profiler's value for the site must fall in for the test to pass. A profiler that "
                  "samples as the model says lands outside it with probability P(outside): the test's false failures.");
  page.definition("Whole test",
                  "the probability that some site falls outside its band (1 - the product of 1 - P(outside) over "
                  "the sites: sampling is independent between allocations, so sites are too). Asking for " +
                      probability(margins.options.false_failure) + " means one false failure in about " +
                      format_printf(1 / margins.options.false_failure, "%.3g") + " runs of the test.");
  page.definition("Split",
                  "sidak gives each site 1 - (1 - a)^(1/m) of the rate a over m sites (exact for independent sites); "
                  "bonferroni gives a / m (valid under any dependence: shares need it).");
  page.definition("Power",
                  "the probability that the test fails when the profiler is wrong by the stated bias for one site "
                  "(-10%: it reports 10% too little). Low power means the band also passes that broken profiler.");
  page.definition("Exact and union bound",
                  "exact: the band comes from the exact distribution of the site's scaled sample "
                  "counts. union bound: a conservative band (its true rate is below the one shown).");
  page.definition("Measured",
                  "with --check, the engine runs the scheme's own sampler R times over the workload and counts how "
                  "often each band is left; the check fails when the whole test's count exceeds a binomial bound at "
                  "the asked rate.");
  page.close();
}

}  // namespace

std::string margins_html(const Margins& margins, const MarginsRun& run) {
  const std::string name = std::filesystem::path(run.workload).filename().string();
  HtmlWriter page;
  start_report_page(page, "allocsim margins: " + name);
  page.element("h1", "Margins for a profiler test of " + name);
  page.element("p",
               "The band each site's value must fall in so that a " + margins.model.system +
                   " profiler's correctness test fails by chance at a stated rate, and the test's power.",
               {{"class", "sub"}});
  answer_section(page, margins, run);
  bands_section(page, margins, run);
  model_section(page, margins, run);
  how_to_read(page, margins);
  page.element("footer", "Written by allocsim " ALLOCSIM_VERSION " (allocsim margins " + run.workload +
                             "); the same numbers at full precision: --json or --out FILE.json.");
  return page.finish();
}

}  // namespace allocsim::profile
