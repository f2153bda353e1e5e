#include "allocsim/report/advice_html.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "allocsim/outputs/value_format.h"
#include "allocsim/report/html_writer.h"
#include "allocsim/report/inline_svg.h"
#include "allocsim/util/byte_units.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string percent_or_dash(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  return format_printf(100 * fraction, fraction != 0 && std::fabs(fraction) < 0.001 ? "%.2g%%" : "%.3g%%");
}

// An interval in its unit, as it can be typed back: "128 B", "100 KiB", "1 in 100 allocations".
std::string interval_text(double interval, const std::string& unit) {
  if (unit == "bytes") return bytes_exact(interval);
  return "1 in " + format_printf(interval, "%.0f") + " " + unit;
}

double value(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() || !it->is_number() ? NAN : it->get<double>();
}

void targets_section(HtmlWriter& page, const Json& json) {
  const Json& t = json.at("targets");
  std::string text = "Targets";
  if (json.value("default_targets", false)) text += " (the defaults of docs/advice.md: none was given)";
  text += ":";
  if (t.contains("total_error") && t["total_error"].is_number()) {
    text += " the total bytes within ±" + percent_or_dash(value(t, "total_error")) + " at " +
            percent_or_dash(value(t, "confidence")) + " confidence;";
  }
  text += " for each stack holding at least " + percent_or_dash(value(t, "stack_share")) + " of the bytes:";
  if (t.contains("stack_mape") && t["stack_mape"].is_number()) {
    text += " typical error (MAPE) at most " + percent_or_dash(value(t, "stack_mape")) + ",";
  }
  if (t.contains("stack_seen") && t["stack_seen"].is_number()) {
    text += " seen in one profile with probability at least " + format_printf(value(t, "stack_seen"), "%.3g") + ",";
  }
  text.back() = '.';
  page.element("p", text, {{"class", "headline"}});
}

void advice_table(HtmlWriter& page, const Json& json) {
  const Json& mc_options = json.at("monte_carlo");
  const bool checked = value(mc_options, "replications") > 0;
  page.open("table");
  page.open("tr");
  page.element("th", "scheme");
  page.element("th", "largest interval");
  for (const char* name : {"samples", "total error", "worst stack", "least P(seen)"}) {
    page.element("th", name, {{"class", "num"}});
  }
  if (checked) page.element("th", "simulated ± SE", {{"class", "num"}});
  if (checked) page.element("th", "confirmed");
  page.element("th", "shipped default: total error", {{"class", "num"}});
  page.close();
  for (const Json& r : json.at("recommendations")) {
    const std::string unit = r.value("unit", "bytes");
    page.open("tr");
    page.element("td", r.value("scheme", "?"));
    if (r.contains("closed_form")) {
      const Json& c = r["closed_form"];
      std::string interval = interval_text(value(c, "interval"), unit);
      if (r.contains("cliff_above")) interval += " (cliff above)";
      if (!c.value("meets_targets", true)) interval += " (misses the targets)";
      page.element("td", interval);
      page.number_cell(format_printf(value(c, "expected_samples"), "%.1f"));
      page.number_cell(percent_or_dash(value(c, "total_relative_rmse")));
      page.number_cell(percent_or_dash(value(c, "worst_stack_mape")));
      page.number_cell(format_printf(value(c, "least_stack_seen"), "%.4f"));
    } else {
      page.element("td", "no interval meets the targets", {{"colspan", "5"}});
    }
    if (checked) {
      if (r.contains("monte_carlo")) {
        const Json& m = r["monte_carlo"];
        page.number_cell(percent_or_dash(value(m, "total_relative_rmse")) + " ± " +
                         percent_or_dash(value(m, "se_total_relative_rmse")));
        const bool ok = m.value("confirmed", false);
        page.element("td", ok ? "yes" : "NO", {{"class", ok ? "pass" : "fail"}});
      } else {
        page.number_cell("-");
        page.element("td", "-");
      }
    }
    if (r.contains("shipped_default")) {
      const Json& d = r["shipped_default"];
      const bool meets = d.value("meets_targets", false);
      page.element("td",
                   interval_text(value(d, "interval"), unit) + ": " + percent_or_dash(value(d, "total_relative_rmse")) +
                       (meets ? " (meets)" : " (misses)"),
                   {{"class", meets ? "num pass" : "num fail"}});
    } else {
      page.element("td", "-");
    }
    page.close();
  }
  page.close();
}

void how_to_read(HtmlWriter& page, const Json& json) {
  page.element("h2", "How to read this");
  page.open("dl", {{"class", "howto"}});
  page.definition("Largest interval",
                  "the sparsest sampling (fewest samples, least overhead) at which the scheme still meets "
                  "every target, from closed forms, rounded to a value the real system accepts; "
                  "\"cliff above\" means accuracy falls off just above it (a size crosses a threshold): "
                  "choose a smaller one to keep a margin.");
  page.definition("Samples", "the expected number of samples in one profile of this trace at that interval.");
  page.definition("Total error",
                  "relative root-mean-square error (rRMSE) of the total bytes one profile reports: how far "
                  "from the truth the total typically is.");
  page.definition(
      "Worst stack error and least P(seen)",
      "over the stacks the targets cover: the largest typical error (mean absolute percentage error, MAPE) of "
      "one stack's bytes, and the smallest probability that a stack appears in one profile at all.");
  if (value(json.at("monte_carlo"), "replications") > 0) {
    page.definition("Simulated total error and confirmed",
                    "the choice replayed " + format_printf(value(json["monte_carlo"], "replications"), "%.0f") +
                        " times with real random draws; \"confirmed\" when the simulated errors agree with "
                        "the closed forms within " +
                        format_printf(value(json["monte_carlo"], "sigmas"), "%.0f") + " standard errors (SE).");
  }
  page.definition("Shipped default", "the interval the real system uses unless told otherwise, its total error on this "
                                     "trace, and whether it meets every target (green) or misses one (red).");
  page.definition("Files",
                  "advice.json holds every number at full precision, advice.txt the report as printed, frontier.csv "
                  "and probability-curves.csv the data of the charts below (charts/, as PNG and SVG).");
  page.close();
}

void charts(HtmlWriter& page, const std::string& dir) {
  static const char* const kCharts[][2] = {
      {"frontier", "Error of the total against the samples spent: lower and to the left is better."},
      {"versus-optimum",
       "Variance of the total over the optimal size-class design's at the same samples: 1 is optimal."},
      {"misplaced-samples", "Share of samples spent off the optimal sampling curve."},
      {"probability-curves", "Probability that an allocation of each size is sampled, and the optimum's."}};
  bool any = false;
  for (std::size_t c = 0; c < std::size(kCharts); ++c) {
    const fs::path file = fs::path(dir) / "charts" / (std::string(kCharts[c][0]) + ".svg");
    if (!fs::exists(file)) continue;
    if (!any) page.element("h2", "Charts");
    any = true;
    // Built piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + string.
    std::string prefix = "a";
    prefix += std::to_string(c + 1);
    prefix += "-";
    const std::optional<std::string> svg = inline_svg_file(file, prefix);
    page.open("figure");
    if (svg) {
      page.raw(*svg);
    } else {
      page.element("p", "Not embedded: the SVG refers to files outside itself.");
    }
    page.element("figcaption", std::string(kCharts[c][1]) + " (charts/" + kCharts[c][0] + ".svg and .png)");
    page.close();
  }
}

}  // namespace

std::string advice_report_html(const std::string& dir, const std::string& subject, const std::string& advice_json,
                               const std::string& advice_text) {
  const Json json = Json::parse(advice_json);
  HtmlWriter page;
  start_report_page(page, "allocsim advise: " + subject);
  page.element("h1", "Sampling advice for " + subject);
  page.element("p",
               "The largest sampling interval per scheme that meets accuracy targets on this trace, its check by "
               "simulation, and what each system's shipped default gives.",
               {{"class", "sub"}});
  page.element("h2", "Advice");
  targets_section(page, json);
  advice_table(page, json);
  how_to_read(page, json);
  charts(page, dir);
  page.element("h2", "The report as printed");
  page.open("details");
  page.element("summary", "advice.txt: every note, the shipped defaults and the frontier, as the command printed them");
  page.element("pre", advice_text);
  page.close();
  page.element("footer", "Written by allocsim " ALLOCSIM_VERSION
                         " from advice.json in this directory (allocsim advise " +
                             json.value("trace", subject) + ").");
  return page.finish();
}

}  // namespace allocsim
