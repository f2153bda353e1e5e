#include "allocsim/profile/flaky_html.h"

#include <cmath>
#include <filesystem>

#include "allocsim/outputs/value_format.h"
#include "allocsim/report/html_writer.h"
#include "allocsim/util/byte_units.h"

namespace allocsim::profile {
namespace {

// "one run in 42": how often a false failure comes, for a rate above 0.
std::string one_in(double rate) {
  if (!(rate > 0)) return "never";
  const double runs = 1 / rate;
  // Three significant digits, written out: "12200", not "1.22e+04".
  const double unit = runs >= 1000 ? std::pow(10, std::floor(std::log10(runs)) - 2) : 0;
  return "one run in " +
         (unit > 0 ? format_printf(std::round(runs / unit) * unit, "%.0f") : format_printf(runs, "%.3g"));
}

void answer_section(HtmlWriter& page, const FlakyTest& test, const FlakyRates& rates,
                    const std::optional<FlakyCheck>& check, const std::optional<FlakyAnswer>& answer) {
  page.element("h2", "The answer");
  page.open("div", {{"class", "card"}});
  page.open("p", {{"class", "headline"}});
  page.text("An unbiased profiler fails this test with probability ");
  page.element("span", flaky_rate_text(std::isnan(rates.whole) ? std::nullopt : std::optional<double>(rates.whole)),
               {{"class", "big"}});
  page.text(" (" + one_in(rates.whole) + "; " + rates.whole_method + ").");
  page.close();
  if (answer) {
    page.element("p", "To bring it to at most " + format_printf(answer->target, "%.3g") + " (--target)" +
                          (answer->power_target ? " at power at least " + format_printf(*answer->power_target, "%.3g") +
                                                      " against each stated bias (--power)"
                                                : std::string()) +
                          ":");
    page.open("ul");
    if (answer->multiplier) {
      page.element("li", workload_text(
                             test, *answer->multiplier,
                             "bands of bytes, samples and count scaled alike; " + reached_text(answer->at_multiplier)) +
                             ";");
    } else {
      page.element("li", "no workload multiplier up to 2^20 reaches it;");
    }
    if (answer->rate) {
      page.element("li", "or set the sampling interval to at most " + bytes_exact(*answer->rate) + " (from " +
                             bytes_exact(test.rate) + "): " + reached_text(answer->at_rate) + ".");
    } else {
      page.element("li", "no interval down to 1 byte reaches it (an absence fails more often with more samples).");
    }
    page.close();
  } else {
    page.element("p", test.model ? "No inverse answer: some assertion's rate comes from the engine, not an exact "
                                   "distribution."
                                 : "N" + no_model_note(test).substr(1) + ".");
  }
  if (check) {
    page.element("p", "Measured by the engine: " + std::to_string(check->replications) +
                          " replications of the scheme's own sampler; the whole test's measured rate: " +
                          flaky_measured_text(check->any_failure, check->replications,
                                              rates.independent ? std::optional<double>(rates.whole) : std::nullopt) +
                          (rates.independent ? "." : " (the computed rate is a union bound: at most it)."));
  }
  page.close();
}

void assertions_section(HtmlWriter& page, const FlakyTest& test, const FlakyRates& rates,
                        const std::optional<FlakyCheck>& check) {
  page.element("h2", "Assertions");
  page.open("table");
  page.open("tr");
  page.element("th", "#", {{"class", "num"}});
  page.element("th", "assertion");
  page.element("th", "P(fail)", {{"class", "num"}});
  page.element("th", "how often", {{"class", "num"}});
  page.element("th", "method");
  if (check) page.element("th", "measured (engine)", {{"class", "num"}});
  page.close();
  for (std::size_t k = 0; k < test.assertions.size(); ++k) {
    const FlakyRate& r = rates.assertions[k];
    page.open("tr");
    page.number_cell(std::to_string(k + 1));
    page.element("td", test.assertions[k].text);
    page.number_cell(flaky_rate_text(r.false_failure));
    page.number_cell(r.false_failure ? one_in(*r.false_failure) : std::string("-"));
    page.element("td", r.method);
    if (check) page.number_cell(flaky_measured_text(check->failures[k], check->replications, r.false_failure));
    page.close();
  }
  page.open("tr");
  page.number_cell("all");
  page.element("td", "whole test (any assertion fails)");
  page.number_cell(format_printf(rates.whole, "%.4g"));
  page.number_cell(one_in(rates.whole));
  page.element("td", rates.independent ? "exact (the assertions read disjoint sites)" : "union bound (at most)");
  if (check) page.number_cell(flaky_measured_text(check->any_failure, check->replications, std::nullopt));
  page.close();
  page.close();
}

void model_section(HtmlWriter& page, const FlakyTest& test) {
  page.element("h2", "The model and the sites");
  page.open("div", {{"class", "card"}});
  page.open("p", {{"class", "headline"}});
  page.text("Scheme ");
  page.element("span", test.scheme, {{"class", "big"}});
  page.text(test.rate > 0 ? " at rate " + rate_text(test) + " (mean bytes between samples)."
                          : " at " + rate_text(test) + ".");
  page.close();
  page.element("p", "Sampling model: " + model_text(test) + ".");
  page.close();
  page.open("table");
  page.open("tr");
  page.element("th", "site");
  for (const char* name : {"allocations", "true bytes", "object sizes"}) page.element("th", name, {{"class", "num"}});
  page.close();
  for (std::size_t i = 0; i < test.sites.size(); ++i) {
    const MarginSite& site = test.sites[i];
    std::string sizes;
    for (const auto& [size, count] : site.sizes) {
      if (!sizes.empty()) sizes += ", ";
      sizes += bytes_exact(static_cast<double>(size));
    }
    page.open("tr");
    page.element("td", site.name);
    page.number_cell(format_printf(site_allocations(test, i), "%.0f"));
    page.number_cell(bytes_approx(site.bytes));
    page.number_cell(sizes.empty() ? std::string("-") : sizes);
    page.close();
  }
  page.close();
}

void how_to_read(HtmlWriter& page) {
  page.element("h2", "How to read this");
  page.open("dl", {{"class", "howto"}});
  page.definition("P(fail)",
                  "the probability that a profiler which samples exactly as the model says fails the assertion: a "
                  "false failure, the test flaking with nothing wrong.");
  page.definition("Whole test",
                  "the probability that some assertion fails. Exact (1 - the product of 1 - P(fail)) when the "
                  "assertions read disjoint sites, whose samples are independent; else the sum of the P(fail), an "
                  "upper bound.");
  page.definition("How often",
                  "1 / P(fail): a rate of 0.02 fails about one run in 50; a CI that runs the test 20 times a day "
                  "then sees a false failure about every 2.5 days.");
  page.definition("The answer's two ways out",
                  "more allocations per site (the bands scaled alike, so the same relative band) "
                  "or a smaller sampling interval (more samples) narrow each value's spread; either "
                  "brings the rate down to the target.");
  page.definition("Method",
                  "exact: computed from the sites' exact distributions of scaled sample counts. by the engine: "
                  "measured by running the scheme's sampler (no exact distribution within the size limit).");
  page.definition("Measured",
                  "with --check R, the engine runs the scheme's own sampler R times and counts failures; the "
                  "distance to the computed rate is in standard errors (SE). The check fails past 5 SE.");
  page.close();
}

}  // namespace

std::string flaky_html(const std::string& file, const FlakyTest& test, const FlakyRates& rates,
                       const std::optional<FlakyCheck>& check, const std::optional<FlakyAnswer>& answer) {
  const std::string name = std::filesystem::path(file).filename().string();
  HtmlWriter page;
  start_report_page(page, "allocsim flaky: " + name);
  page.element("h1", "How flaky is " + name + "?");
  page.element("p",
               "The false-failure rate of each assertion of this profiler test, and of the whole test, under the "
               "sampling model of " +
                   test.scheme + ".",
               {{"class", "sub"}});
  answer_section(page, test, rates, check, answer);
  assertions_section(page, test, rates, check);
  model_section(page, test);
  how_to_read(page);
  page.element("footer", "Written by allocsim " ALLOCSIM_VERSION " (allocsim flaky " + file +
                             "); the same numbers at full precision: --json or --out FILE.json.");
  return page.finish();
}

}  // namespace allocsim::profile
