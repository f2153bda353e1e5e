#include "allocsim/profile/profile_html.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "allocsim/outputs/value_format.h"
#include "allocsim/profile/pairwise.h"
#include "allocsim/profile/stack_label.h"
#include "allocsim/report/html_writer.h"
#include "allocsim/util/byte_units.h"

namespace allocsim::profile {
namespace {

std::string fixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// A count as people read it: whole numbers (and any from 100 up) whole, others with three significant digits.
std::string count(double value) {
  const bool whole = (value == std::floor(value) || std::fabs(value) >= 100) && std::fabs(value) < 1e15;
  return format_printf(value, whole ? "%.0f" : "%.3g");
}

std::string percent(double fraction) { return count(100 * fraction) + "%"; }

// T in the unit of the model: bytes, or allocations for per-allocation sampling.
std::string rate_text(const SamplingModel& model) {
  if (model.kind == ModelKind::per_allocation_fixed) return "1 in " + count(model.rate) + " allocations";
  return bytes_exact(model.rate) + " (mean bytes between samples)";
}

// "[lower, upper]", built piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + string.
std::string interval_text(const std::string& lower, const std::string& upper) {
  std::string text = "[";
  text += lower;
  text += ", ";
  text += upper;
  text += "]";
  return text;
}

void model_section(HtmlWriter& page, const HeapProfile& profile, const ProfileReport& report) {
  page.element("h2", "The model");
  page.open("div", {{"class", "card"}});
  page.open("p", {{"class", "headline"}});
  page.text("Read as a ");
  page.element("span", profile.model.system, {{"class", "big"}});
  page.text(" profile (" + profile.format + "), " + profile.window + " window, rate " + rate_text(profile.model) +
            "; " + std::to_string(profile.entries.size()) + " records with samples.");
  page.close();
  page.element("p", "Sampling model: " + model_description(profile.model) + ".");
  if (!profile.samples_note.empty()) page.element("p", "Samples: " + profile.samples_note + ".");
  if (!profile.note.empty()) page.element("p", "Note: " + profile.note + ".");
  if (!profile.symbols_note.empty()) page.element("p", "Names: " + profile.symbols_note + ".");
  page.element("p", "Detection limits: an entry needs " + bytes_approx(report.detection_limit_50) +
                        " of true bytes for a 50% chance to appear in one profile, " +
                        bytes_approx(report.detection_limit_95) + " for 95%; smaller ones are mostly absent.");
  if (profile.model.unsampled_start > 0) {
    page.element("p", profile.model.system + " samples nothing in its main thread's first " +
                          bytes_approx(profile.model.unsampled_start) +
                          ": an entry allocated only then is missing whatever its bytes.");
  }
  page.close();
}

void entries_section(HtmlWriter& page, const HeapProfile& profile, const ProfileReport& report) {
  const std::string level = percent(report.options.level);
  page.element("h2", "Top " + std::to_string(report.rows.size()) + " entries");
  page.open("p", {{"class", "headline"}});
  page.text("P(the top-" + std::to_string(report.rows.size()) + " set is the same in another run) = ");
  page.element("span", fixed(report.top_set_unchanged, 3), {{"class", "big"}});
  page.text(" (" + std::to_string(report.options.replications) + " resamples, seed " +
            std::to_string(report.options.seed) + ").");
  page.close();
  page.open("table");
  page.open("tr");
  for (const std::string& name : {std::string("rank"), std::string("bytes"), level + " interval (bytes)",
                                  std::string("objects [interval]"), std::string("samples"), std::string("object size"),
                                  std::string("P(rank)"), std::string("P(in top)"), std::string("p(= next)")}) {
    page.element("th", name, {{"class", "num"}});
  }
  page.close();
  for (const EntryReport& row : report.rows) {
    const ProfileEntry& entry = profile.entries[row.entry];
    page.open("tr");
    page.number_cell(std::to_string(row.rank));
    page.number_cell(bytes_approx(entry.estimate_bytes));
    page.number_cell(interval_text(bytes_approx(row.interval.bytes_lower), bytes_approx(row.interval.bytes_upper)));
    std::string objects = count(entry.estimate_objects);
    objects += " ";
    objects += interval_text(count(row.interval.objects_lower), count(row.interval.objects_upper));
    page.number_cell(objects);
    std::string samples = count(entry.samples);
    if (entry.samples_approximate) samples += " ~";
    page.number_cell(samples);
    // Built piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + string.
    std::string size = entry.mixed_sizes ? "~ " : "";
    size += bytes_approx(entry.object_size);
    page.number_cell(size);
    page.number_cell(fixed(row.rank_kept, 3));
    page.number_cell(fixed(row.in_top, 3));
    page.number_cell(p_value_text(row.p_value_next));
    page.close();
    // The stack on a line of its own, under its numbers: stacks are long.
    page.open("tr");
    page.element("td", "stack: " + stack_label(entry.frames, entry.allocator_frames, 6),
                 {{"class", "stack"}, {"colspan", "9"}});
    page.close();
  }
  page.close();
  page.element("p",
               "Stacks are leaf first, from the first frame outside the allocator. ~ marks a value recovered from "
               "rounded numbers (samples) or an average over objects of several sizes (object size). Interval "
               "method: " +
                   (report.rows.empty() ? std::string("-") : report.rows.front().interval.method) + ".",
               {{"class", "sub"}});
}

void how_to_read(HtmlWriter& page, const ProfileReport& report) {
  const std::string level = percent(report.options.level);
  page.element("h2", "How to read this");
  page.open("dl", {{"class", "howto"}});
  page.definition("Estimate",
                  "the bytes (and objects) the system's own tool shows for the entry: its samples scaled up "
                  "under the sampling model. One profile is one random draw; another run shows other numbers.");
  page.definition("Interval",
                  "the true bytes (objects) of the entry lie in this range with probability " + level +
                      ", given the samples the profile holds (an exact interval for the model, not a normal "
                      "approximation). A wide interval means few samples: the estimate alone says little.");
  page.definition(
      "P(rank) and P(in top)",
      "how often the entry keeps its rank, and stays among the top " + std::to_string(report.rows.size()) +
          ", when the profile is drawn again from the same program (parametric resamples). Below about 0.5 the "
          "order shown is mostly chance.");
  page.definition("p(= next)",
                  "p-value of the test that this entry and the next one hold the same true bytes. A large "
                  "p-value (above 0.05) means the profile cannot tell the two apart: their order may swap in "
                  "another run.");
  page.definition("Detection limits",
                  "an entry of B true bytes has no sample with probability exp(-B/T) under a byte-rate "
                  "model, so entries below the limits are often missing from a profile altogether: "
                  "absence is no proof that a site does not allocate.");
  page.close();
}

}  // namespace

std::string report_html(const HeapProfile& profile, const ProfileReport& report) {
  const std::string name = std::filesystem::path(profile.path).filename().string();
  HtmlWriter page;
  start_report_page(page, "allocsim profile: " + name);
  page.element("h1", "Heap profile " + name);
  page.element("p",
               "What each top entry of this " + profile.model.system +
                   " profile can and cannot mean under the "
                   "sampling model of the system that wrote it.",
               {{"class", "sub"}});
  model_section(page, profile, report);
  entries_section(page, profile, report);
  how_to_read(page, report);
  page.element("footer", "Written by allocsim " ALLOCSIM_VERSION " (allocsim profile " + profile.path +
                             "); the same numbers at full precision: --csv or --json.");
  return page.finish();
}

}  // namespace allocsim::profile
