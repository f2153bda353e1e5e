#include "allocsim/profile/profile_report.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "allocsim/outputs/value_format.h"
#include "allocsim/profile/pairwise.h"
#include "allocsim/profile/rank_stability.h"
#include "allocsim/profile/stack_label.h"
#include "allocsim/util/byte_units.h"
#include "allocsim/util/error.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/printable.h"

namespace allocsim::profile {
namespace {

std::string number(double value) { return format_printf(value, "%.6g"); }

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

ProfileReport build_report(const HeapProfile& profile, const ReportOptions& options) {
  if (options.top < 1) throw InputError("--top must be >= 1");
  ProfileReport report;
  report.options = options;
  const std::vector<std::size_t> order = ranked_entries(profile);
  const RankStability stability =
      rank_stability(profile, order, options.top, options.replications, options.seed, options.threads);
  report.top_set_unchanged = stability.set_unchanged;
  for (std::size_t rank = 0; rank < stability.rank_kept.size(); ++rank) {
    EntryReport row;
    row.entry = order[rank];
    row.rank = rank + 1;
    const ProfileEntry& entry = profile.entries[order[rank]];
    row.interval = entry_interval(profile.model, entry.samples, entry.object_size, options.level, entry.mixed_sizes);
    row.rank_kept = stability.rank_kept[rank];
    row.in_top = stability.in_top[rank];
    if (rank + 1 < order.size()) row.p_value_next = equal_bytes_p_value(profile, order[rank], order[rank + 1]);
    report.rows.push_back(row);
  }
  // Byte-rate models need the same bytes whatever the size; the fixed per-allocation
  // model is quoted for the smallest entry's size.
  const double size = profile.entries[order.back()].object_size;
  report.detection_limit_50 = detection_limit_bytes(profile.model, 0.5, size);
  report.detection_limit_95 = detection_limit_bytes(profile.model, 0.95, size);
  return report;
}

std::vector<EntryInterval> all_entry_intervals(const HeapProfile& profile, double level) {
  std::vector<EntryInterval> intervals;
  intervals.reserve(profile.entries.size());
  for (const ProfileEntry& entry : profile.entries) {
    intervals.push_back(entry_interval(profile.model, entry.samples, entry.object_size, level, entry.mixed_sizes));
  }
  return intervals;
}

namespace {

std::string detection_words(const SamplingModel& model, const ProfileReport& report) {
  if (is_unsampled(model)) return "every allocation is recorded: no entry is missing, each interval is a point\n";
  const std::string chance = model.kind == ModelKind::per_allocation_fixed ? "(1 - 1/T)^(B/s)" : "exp(-B/T)";
  std::string words = "an entry of B true bytes is missing with probability " + chance + ": it needs " +
                      bytes_approx(report.detection_limit_50) + " for a 50% chance to appear, " +
                      bytes_approx(report.detection_limit_95) + " for 95%\n";
  if (model.unsampled_start > 0) {
    words += model.system + " samples nothing in its main thread's first " + bytes_approx(model.unsampled_start) +
             " (allocsim schemes " + model.system +
             "): an entry allocated only then is missing whatever its bytes; the limits above hold after it\n";
  }
  return words;
}

// Whether the profile's own estimate lies outside the interval of whole objects:
// k / p(s) objects is not a whole number, and when p(s) is near 1 it passes the
// largest whole number the samples allow.
bool estimate_outside(const ProfileEntry& entry, const EntryInterval& interval) {
  const double slack = 1e-9 * std::max(1.0, entry.estimate_bytes);
  return entry.estimate_bytes < interval.bytes_lower - slack || entry.estimate_bytes > interval.bytes_upper + slack;
}

}  // namespace

std::string report_table(const HeapProfile& profile, const ProfileReport& report) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%s: %s profile (%s), %s window, %s, %zu records\n",
                printable_name(profile.path).c_str(), profile.model.system.c_str(), profile.format.c_str(),
                profile.window.c_str(), rate_words(profile.model).c_str(), profile.entries.size());
  out += line;
  out += "model: " + model_name(profile.model.kind) + "; " + profile.samples_note + "\n";
  if (!profile.note.empty()) out += "note: " + profile.note + "\n";
  if (!profile.symbols_note.empty()) out += "symbols: " + profile.symbols_note + "\n";
  out += detection_words(profile.model, report);
  std::snprintf(line, sizeof line, "%4s %11s %8s %10s %23s %7s %7s %8s  %s\n", "rank", "bytes", "samples", "size",
                (number(100 * report.options.level) + "% interval").c_str(), "P(rank)", "P(topN)", "p(=next)",
                "stack (leaf first, from the first frame outside the allocator)");
  out += line;
  bool any_outside = false;
  for (const EntryReport& row : report.rows) {
    const ProfileEntry& entry = profile.entries[row.entry];
    std::string bytes = bytes_approx(entry.estimate_bytes);
    if (estimate_outside(entry, row.interval)) {
      bytes += "*";
      any_outside = true;
    }
    // Built piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + string.
    std::string samples = number(entry.samples);
    if (entry.samples_approximate) samples += "~";
    std::string size = entry.mixed_sizes ? "~" : "";
    size += entry.mixed_sizes ? bytes_approx(entry.object_size) : bytes_exact(entry.object_size);
    std::string interval = "[";
    interval += bytes_approx(row.interval.bytes_lower);
    interval += ", ";
    interval += bytes_approx(row.interval.bytes_upper);
    interval += "]";
    std::snprintf(line, sizeof line, "%4zu %11s %8s %10s %23s %7.3f %7.3f %8s  ", row.rank, bytes.c_str(),
                  samples.c_str(), size.c_str(), interval.c_str(), row.rank_kept, row.in_top,
                  p_value_text(row.p_value_next).c_str());
    out += line;
    out += stack_label(entry.frames, entry.allocator_frames, kTableFrames);  // past the buffer: frames can be long
    out += "\n";
  }
  std::snprintf(line, sizeof line,
                "P(top-%zu set unchanged in another run) = %.3f (%lld resamples, seed %llu); "
                "~ marks a recovered or average value\n",
                report.rows.size(), report.top_set_unchanged, static_cast<long long>(report.options.replications),
                static_cast<unsigned long long>(report.options.seed));
  out += line;
  if (any_outside) {
    out += "* the profile's estimate, k / p(s) objects, is not a whole number of objects; the interval holds the "
           "whole numbers the samples allow (p(s) near 1: k or a few more)\n";
  }
  out += "bytes in binary units (KiB = 1024 B); full precision in --csv and --json\n";
  return out;
}

std::string report_csv(const HeapProfile& profile, const ProfileReport& report) {
  std::string out = "rank,estimate_bytes,estimate_objects,samples,samples_approximate,object_size,mixed_sizes,"
                    "bytes_lower,bytes_upper,objects_lower,objects_upper,level,method,p_rank_kept,p_in_top,"
                    "p_value_equal_next,stack\n";
  for (const EntryReport& row : report.rows) {
    const ProfileEntry& entry = profile.entries[row.entry];
    std::string stack = entry.frames.empty() ? kNoFrames : "";
    for (const std::string& frame : entry.frames) {
      if (!stack.empty()) stack += ';';
      stack += frame;
    }
    out += std::to_string(row.rank) + "," + number(entry.estimate_bytes) + "," + number(entry.estimate_objects) + "," +
           number(entry.samples) + "," + (entry.samples_approximate ? "1" : "0") + "," + number(entry.object_size) +
           "," + (entry.mixed_sizes ? "1" : "0") + "," + number(row.interval.bytes_lower) + "," +
           number(row.interval.bytes_upper) + "," + number(row.interval.objects_lower) + "," +
           number(row.interval.objects_upper) + "," + number(report.options.level) + "," +
           csv_field(row.interval.method) + "," + number(row.rank_kept) + "," + number(row.in_top) + "," +
           (row.p_value_next < 0 ? "" : number(row.p_value_next)) + "," + csv_field(stack) + "\n";
  }
  return out;
}

std::string report_json(const HeapProfile& profile, const ProfileReport& report) {
  nlohmann::json entries = nlohmann::json::array();
  for (const EntryReport& row : report.rows) {
    const ProfileEntry& entry = profile.entries[row.entry];
    entries.push_back(
        {{"rank", row.rank},
         {"stack", entry.frames},
         {"allocator_frames", entry.allocator_frames},
         {"object_size", entry.object_size},
         {"mixed_sizes", entry.mixed_sizes},
         {"samples", entry.samples},
         {"samples_approximate", entry.samples_approximate},
         {"estimate", {{"bytes", entry.estimate_bytes}, {"objects", entry.estimate_objects}}},
         {"interval",
          {{"method", row.interval.method},
           {"bytes", {row.interval.bytes_lower, row.interval.bytes_upper}},
           {"objects", {row.interval.objects_lower, row.interval.objects_upper}}}},
         {"p_rank_kept", row.rank_kept},
         {"p_in_top", row.in_top},
         {"p_value_equal_next", row.p_value_next < 0 ? nlohmann::json() : nlohmann::json(row.p_value_next)}});
  }
  nlohmann::json document = {
      {"path", profile.path},
      {"format", profile.format},
      {"system", profile.model.system},
      {"window", profile.window},
      {"rate", profile.model.rate},
      {"model", model_name(profile.model.kind)},
      {"samples_note", profile.samples_note},
      {"records", profile.entries.size()},
      {"level", report.options.level},
      {"detection_limit_bytes", {{"p50", report.detection_limit_50}, {"p95", report.detection_limit_95}}},
      {"top_set_unchanged", report.top_set_unchanged},
      {"replications", report.options.replications},
      {"seed", report.options.seed},
      {"entries", entries}};
  if (!profile.note.empty()) document["note"] = profile.note;
  if (!profile.symbols_note.empty()) document["symbols"] = profile.symbols_note;
  if (profile.model.unsampled_start > 0) document["unsampled_start_bytes"] = profile.model.unsampled_start;
  return json_text(document, 2) + "\n";
}

}  // namespace allocsim::profile
