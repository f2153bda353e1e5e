// `allocsim profile FILE`: what each top entry of a real heap profile (Go pprof,
// jemalloc prof.dump, gperftools heap profile) can and cannot mean under the
// sampling model of the system that wrote it.
#include <iostream>
#include <memory>
#include <string>

#include "allocsim/profile/pprof_writer.h"
#include "allocsim/profile/profile_html.h"
#include "allocsim/profile/profile_report.h"
#include "allocsim/profile/read_profile.h"
#include "allocsim/scenario/replication_limits.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/output_path.h"
#include "allocsim/util/parallel.h"
#include "commands.h"
#include "flag_checks.h"
#include "jemalloc_unbias_option.h"

namespace allocsim::cli {
namespace {

struct ProfileOptions {
  std::string path;
  profile::ReadOptions read;
  profile::ReportOptions report;
  std::string csv;
  std::string pprof;
  std::string report_file;  // --report FILE.html
  bool json = false;
};

void run_profile(ProfileOptions options) {
  if (!(options.report.level > 0 && options.report.level < 1)) {
    throw InputError("--level must be in (0, 1)");
  }
  const InputPaths inputs{options.path};
  check_output_files({{options.csv, "--csv"}, {options.pprof, "--pprof"}, {options.report_file, "--report"}}, inputs);
  const profile::HeapProfile heap = profile::read_profile(options.path, options.read);
  const profile::ProfileReport report = profile::build_report(heap, options.report);
  // Everything is computed before anything is written.
  const std::string csv = options.csv.empty() ? "" : profile::report_csv(heap, report);
  const std::string pprof =
      options.pprof.empty() ? ""
                            : profile::annotated_pprof(heap, profile::all_entry_intervals(heap, options.report.level),
                                                       options.report.level);
  const std::string html = options.report_file.empty() ? "" : profile::report_html(heap, report);
  if (!csv.empty()) write_file_atomically(options.csv, csv);
  if (!html.empty()) write_file_atomically(options.report_file, html);
  if (!pprof.empty()) write_file_atomically(options.pprof, pprof);
  std::cout << (options.json ? profile::report_json(heap, report) : profile::report_table(heap, report));
}

}  // namespace

void add_profile_command(CLI::App& app, int& exit_code) {
  CLI::App* command =
      app.add_subcommand("profile", "Intervals, detection limits and rank stability for a real heap profile");
  auto options = std::make_shared<ProfileOptions>();
  options->report.threads = default_thread_count();
  command
      ->add_option(
          "file", options->path,
          "Go heap pprof (gzip'd or not) or debug=1 text, jemalloc prof.dump, gperftools/tcmalloc heap profile")
      ->required();
  command->add_option("--window", options->read.window,
                      "inuse (live at the dump) or alloc; default: the profile's own (alloc for Go's allocs "
                      "profile), else inuse");
  add_jemalloc_unbias_option(*command, options->read);
  command->add_flag("--no-symbols{false}", options->read.symbolize,
                    "Keep a text profile's addresses (no llvm-symbolizer on its mapped files)");
  command->add_option("--top", options->report.top, "Entries to show and rank")
      ->capture_default_str()
      ->check(whole_number(1));
  command->add_option("--level", options->report.level, "Confidence level of the intervals")
      ->capture_default_str()
      ->transform(open_fraction());
  command->add_option("--replications", options->report.replications, "Parametric resamples for rank stability")
      ->capture_default_str()
      ->check(whole_number(1, kMaxReplications));
  command->add_option("--seed", options->report.seed, "Seed of the resamples")
      ->capture_default_str()
      ->check(seed_number());
  command->add_option("-j,--threads", options->report.threads, "Worker threads of the resamples (default: all cores)")
      ->check(thread_count());
  command->add_option("--csv", options->csv, "Write the top entries as CSV to this file");
  command->add_option("--pprof", options->pprof, "Write an annotated pprof (interval bounds as extra sample types)");
  command->add_option("--report", options->report_file,
                      "Write the report as one self-contained HTML page (FILE.html: the model, the top entries with "
                      "their intervals, how to read them)");
  command->add_flag("--json", options->json, "Print JSON instead of the table");
  command->callback([options, &exit_code] {
    handle_interrupts();  // a --csv, --pprof or --report being written is removed, not left as OUT.tmp.<pid>
    run_profile(*options);
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
