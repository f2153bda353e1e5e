// `allocsim diff BASE NEW`: is the change between two sampled heap profiles of the
// same program real? Per entry (stack and object size, present in either profile;
// stacks as profile/stable_stack.h writes them, the same in every run),
// the exact conditional test of src/allocsim/profile/count_change.h, its
// Clopper-Pearson interval for NEW's rate over BASE's, and Holm's step-down
// adjustment so that P(any entry falsely "changed") <= --alpha over all entries, and
// the change in bytes NEW - BASE with its exact interval at 1 - alpha
// (src/allocsim/profile/byte_change.h). --csv FILE writes every entry, one row each;
// --pprof FILE the diff as pprof's -diff_base builds it, labelled with each verdict
// (src/allocsim/profile/pprof_diff.h).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "allocsim/format/csv.h"
#include "allocsim/profile/byte_change.h"
#include "allocsim/profile/count_change.h"
#include "allocsim/profile/entry_match.h"
#include "allocsim/profile/pprof_diff.h"
#include "allocsim/profile/read_profile.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/byte_units.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/output_path.h"
#include "commands.h"
#include "flag_checks.h"
#include "jemalloc_unbias_option.h"

namespace allocsim::cli {
namespace {

struct DiffOptions {
  std::string base;
  std::string next;
  profile::ReadOptions read;
  double alpha = 0.05;
  std::size_t top = 20;
  bool json = false;
  std::string csv;
  std::string pprof;
};

struct Side {
  double samples = 0;
  double sampled_bytes = 0;  // samples x object size: the sampled objects' bytes
  double objects = 0;
  double bytes = 0;
};

struct Row {
  // The profiles' entries matched into this one (indexes into each HeapProfile::entries).
  std::vector<std::size_t> base_records, new_records;
  std::string stack;  // every frame: the key, in --json and --csv
  std::string label;  // as the table shows it (profile/stack_label.h)
  double size = 0;    // object size; of a mixed record, both profiles' sampled bytes over their samples
  Side base, next;
  profile::CountChange test;
  profile::ByteChangeInterval change;  // bytes, NEW - BASE, at 1 - alpha
  double adjusted = 1.0;
};

// A signed byte count with its unit: +1.5 MiB, -64 KiB.
std::string signed_bytes(double bytes) { return (bytes < 0 ? "-" : "+") + bytes_approx(std::abs(bytes)); }

// One row per entry: stack, object size, samples, estimates in bytes, NEW/BASE rate
// with its interval, p-values and the verdict at the family-wise alpha.
std::string diff_csv(const std::vector<Row>& rows, double alpha) {
  std::string out =
      "stack,object_size_bytes,base_samples,new_samples,base_bytes,new_bytes,change_bytes,change_lower_bytes,"
      "change_upper_bytes,ratio,ratio_lower,"
      "ratio_upper,ratio_level,p_value,p_holm,changed\n";
  for (const Row& r : rows) {
    out += csv_field(r.stack) + "," + format_number(r.size) + "," + format_number(r.base.samples) + "," +
           format_number(r.next.samples) + "," + format_number(r.base.bytes) + "," + format_number(r.next.bytes) +
           "," + format_number(r.next.bytes - r.base.bytes) + "," + format_number(r.change.lower) + "," +
           format_number(r.change.upper) + "," + format_number(r.test.ratio) + "," +
           format_number(r.test.ratio_lower) + "," + format_number(r.test.ratio_upper) + "," +
           format_number(1 - alpha) + "," + format_number(r.test.p_value) + "," + format_number(r.adjusted) + "," +
           (r.adjusted <= alpha ? "yes" : "no") + "\n";
  }
  return out;
}

// The diff as pprof's -diff_base builds it, each sample labelled with its entry's
// verdict, Holm p-value and byte-change interval (pprof_diff.h).
std::string diff_pprof(const std::vector<Row>& rows, const profile::HeapProfile& base, const profile::HeapProfile& next,
                       const DiffOptions& options) {
  std::vector<profile::PprofDiffEntry> entries;
  for (const Row& r : rows) {
    entries.push_back({r.base_records, r.new_records, r.size, r.adjusted <= options.alpha, r.adjusted, r.change.lower,
                       r.change.upper});
  }
  return profile::pprof_diff(base, next, entries,
                             "allocsim diff: NEW " + options.next + " minus BASE " + options.base +
                                 " (BASE's samples negated, label pprof::base); change = changed at Holm family-wise "
                                 "rate " + format_number(options.alpha) + "; change_lower/upper at level " +
                                 format_number(1 - options.alpha));
}

void run_diff(const DiffOptions& options) {
  if (!(options.alpha > 0 && options.alpha < 1)) throw InputError("--alpha must be in (0, 1)");
  const InputPaths inputs{options.base, options.next};
  check_output_files({{options.csv, "--csv"}, {options.pprof, "--pprof"}}, inputs);
  const profile::HeapProfile base = profile::read_profile(options.base, options.read);
  const profile::HeapProfile next = profile::read_profile(options.next, options.read);
  profile::require_same_scheme(base, next, "diff compares two profiles of one sampling scheme");
  std::map<std::pair<std::string, double>, Row> rows;
  auto add = [&](const profile::HeapProfile& heap, bool is_next) {
    for (std::size_t i = 0; i < heap.entries.size(); ++i) {
      const profile::ProfileEntry& e = heap.entries[i];
      profile::EntryMatch match = profile::match_entry(heap, e);
      Row& row = rows[match.key()];
      (is_next ? row.new_records : row.base_records).push_back(i);
      row.stack = std::move(match.stack);
      row.label = std::move(match.label);
      Side& side = is_next ? row.next : row.base;
      side.samples += std::round(e.samples);
      side.sampled_bytes += std::round(e.samples) * e.object_size;
      side.objects += e.estimate_objects;
      side.bytes += e.estimate_bytes;
    }
  };
  add(base, false);
  add(next, true);
  std::vector<Row> out;
  std::vector<double> p;
  for (auto& [key, row] : rows) {
    // Both profiles' sampled objects' average size (the size itself unless mixed).
    const double samples = row.base.samples + row.next.samples;
    row.size = samples > 0 ? (row.base.sampled_bytes + row.next.sampled_bytes) / samples : key.second;
    const double size = row.size > 0 ? row.size : 1.0;
    const double e1 = profile::sample_probability(base.model, size);
    const double e2 = profile::sample_probability(next.model, size);
    row.test = profile::compare_counts(static_cast<std::uint64_t>(row.base.samples),
                                       static_cast<std::uint64_t>(row.next.samples), e1 > 0 ? e1 : 1.0,
                                       e2 > 0 ? e2 : 1.0, options.alpha);
    row.change = profile::byte_change_interval(
        static_cast<std::uint64_t>(row.base.samples), static_cast<std::uint64_t>(row.next.samples),
        profile::samples_per_byte(base.model, size), profile::samples_per_byte(next.model, size), 1 - options.alpha);
    p.push_back(row.test.p_value);
    out.push_back(row);
  }
  const std::vector<double> adjusted = profile::holm_adjust(p);
  for (std::size_t i = 0; i < out.size(); ++i) out[i].adjusted = adjusted[i];
  std::stable_sort(out.begin(), out.end(), [](const Row& a, const Row& b) {
    return std::abs(a.next.bytes - a.base.bytes) > std::abs(b.next.bytes - b.base.bytes);
  });
  std::size_t changed = 0;
  for (const Row& r : out) changed += r.adjusted <= options.alpha;
  // Built before anything is written: an input it refuses leaves no --csv behind.
  const std::string pprof_bytes = options.pprof.empty() ? "" : diff_pprof(out, base, next, options);
  if (!options.csv.empty()) write_file_atomically(options.csv, diff_csv(out, options.alpha));
  if (!options.pprof.empty()) write_file_atomically(options.pprof, pprof_bytes);
  if (options.json) {
    nlohmann::json j;
    j["base"] = options.base;
    j["new"] = options.next;
    j["scheme"] = base.model.system;
    j["familywise_alpha"] = options.alpha;
    j["correction"] = "holm";
    j["changed"] = changed;
    for (const Row& r : out) {
      j["entries"].push_back(
          {{"stack", r.stack},
           {"object_size", r.size},
           {"base_samples", r.base.samples},
           {"new_samples", r.next.samples},
           {"base_bytes", r.base.bytes},
           {"new_bytes", r.next.bytes},
           {"change_bytes", r.next.bytes - r.base.bytes},
           {"change_lower_bytes", r.change.lower},
           {"change_upper_bytes", r.change.upper},
           {"change_objects", r.next.objects - r.base.objects},
           {"ratio", std::isfinite(r.test.ratio) ? nlohmann::json(r.test.ratio) : nlohmann::json()},
           {"ratio_lower", r.test.ratio_lower},
           {"ratio_upper", std::isfinite(r.test.ratio_upper) ? nlohmann::json(r.test.ratio_upper) : nlohmann::json()},
           {"p_value", r.test.p_value},
           {"p_holm", r.adjusted},
           {"verdict", r.adjusted <= options.alpha ? "changed" : "no evidence"}});
    }
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::ostringstream s;
  s << "BASE " << options.base << "\nNEW  " << options.next << "\nscheme " << base.model.system << "; " << out.size()
    << " entries; exact conditional Poisson test, Holm family-wise rate " << options.alpha << ": " << changed
    << " changed\n";
  const double percent = (1 - options.alpha) * 100;
  char header[256];
  std::snprintf(header, sizeof header, "%-11s %-26s %-11s %-11s %-28s %-10s %-8s %s\n", "change",
                ("[" + format_number(percent) + "% CI]").c_str(), "base", "new",
                ("NEW/BASE rate [" + format_number(percent) + "% CI]").c_str(), "p(Holm)", "verdict", "stack");
  s << header;
  for (std::size_t i = 0; i < out.size() && i < options.top; ++i) {
    const Row& r = out[i];
    std::ostringstream ci;
    ci.precision(3);
    ci << r.test.ratio << " [" << r.test.ratio_lower << ", " << r.test.ratio_upper << "]";
    const std::string change_ci = "[" + signed_bytes(r.change.lower) + ", " + signed_bytes(r.change.upper) + "]";
    char line[512];
    std::snprintf(line, sizeof line, "%-11s %-26s %-11s %-11s %-28s %-10.3g %-8s ",
                  signed_bytes(r.next.bytes - r.base.bytes).c_str(), change_ci.c_str(),
                  bytes_approx(r.base.bytes).c_str(), bytes_approx(r.next.bytes).c_str(), ci.str().c_str(), r.adjusted,
                  r.adjusted <= options.alpha ? "changed" : "no evid.");
    s << line << r.label << "\n";  // the label past the buffer: frames can be long
  }
  std::cout << s.str();
}

}  // namespace

void add_diff_command(CLI::App& app, int& exit_code) {
  CLI::App* command =
      app.add_subcommand("diff", "Is the change between two heap profiles real? (exact test per entry)");
  auto options = std::make_shared<DiffOptions>();
  command->add_option("base", options->base, "BASE heap profile (any format `allocsim profile` reads)")->required();
  command->add_option("new", options->next, "NEW heap profile of the same program and scheme")->required();
  command->add_option("--window", options->read.window, "inuse or alloc; default: each profile's own");
  add_jemalloc_unbias_option(*command, options->read);
  command->add_option("--alpha", options->alpha, "Family-wise error rate over entries (Holm)")->capture_default_str();
  command->add_option("--top", options->top, "Entries to show")->capture_default_str()->check(whole_number(1));
  command->add_flag("--json", options->json, "Print JSON instead of the table");
  command->add_option("--csv", options->csv, "Write every entry as CSV to this file");
  command->add_option("--pprof", options->pprof,
                      "Write NEW - BASE as a gzip'd pprof (as -diff_base builds it), labelled change=changed/no evidence");
  command->callback([options, &exit_code] {
    handle_interrupts();  // a --csv or --pprof being written is removed, not left as FILE.tmp.<pid>
    run_diff(*options);
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
