// `allocsim margins WORKLOAD --scheme S --rate T`: the band each expected site's value
// must fall in for a profiler correctness test with a stated false-failure rate, the
// test's power against a stated bias, and optionally the bands checked by the engine
// (src/allocsim/profile/margins.h, docs/margins.md).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <string>

#include "allocsim/json/json_reader.h"
#include "allocsim/profile/margins_html.h"
#include "allocsim/profile/margins_output.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/scenario/replication_limits.h"
#include "allocsim/trace/trace_source.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/output_path.h"
#include "allocsim/util/parallel.h"
#include "allocsim/util/printable.h"
#include "commands.h"
#include "flag_checks.h"
#include "trace_argument.h"

namespace allocsim::cli {
namespace {

using profile::FailureSplit;
using profile::MarginValue;

struct MarginsOptions {
  std::string workload;
  std::string scheme;
  double rate = 0;
  profile::MarginOptions margin;
  std::string split = "sidak";
  std::string value = "bytes";
  double min_share = 0.01;
  std::uint64_t check = 0;
  std::uint64_t seed = 1;
  unsigned threads = 1;
  std::string out;
  std::string report;  // --report FILE.html
  bool json = false;
};

// A .json file whose top level holds "sites" is a site list; anything else is a
// trace argument (a trace file, or a scenario's trace object).
bool is_site_list(const std::string& path, nlohmann::json& document) {
  if (std::filesystem::path(path).extension() != ".json" || !std::filesystem::is_regular_file(path)) return false;
  document = parse_json_file(path);
  return document.is_object() && document.contains("sites");
}

// The workload's trace, and every file it was read from (the argument, and the trace
// file a JSON trace object names), which no output may be.
struct Workload {
  Trace trace;
  InputPaths inputs;
};

Workload load_workload(const std::string& path) {
  nlohmann::json document;
  if (is_site_list(path, document)) return {profile::trace_of_site_list(document, path), InputPaths{path}};
  const nlohmann::json trace = trace_argument(path);
  JsonObject object(trace, path + ": $");
  const TraceSource source = parse_trace_source(object, "");
  return {load_trace(source, 1), trace_argument_inputs(path, source)};
}

// One line when the engine's check fails the stated rate's own bound (margins_check.h).
bool report_check_bound(const profile::Margins& margins, const profile::MarginCheck& check) {
  const profile::CheckBound bound = profile::check_bound(check, margins.options.false_failure);
  if (bound.passed) return true;
  std::fprintf(stderr,
               "allocsim: margins --check failed: whole-test false failure measured %.4g (%llu of %llu "
               "replications) against the stated %.3g; at most %llu failures pass (binomial tail at the "
               "stated rate, false-alarm rate %.0e)\n",
               static_cast<double>(check.any_failure) / static_cast<double>(check.replications),
               static_cast<unsigned long long>(check.any_failure), static_cast<unsigned long long>(check.replications),
               margins.options.false_failure, static_cast<unsigned long long>(bound.allowed_failures),
               profile::kCheckFalseAlarm);
  return false;
}

// Exit status: 0, or 1 when the engine's check fails its bound.
int run_margins(const CLI::App& command, MarginsOptions o) {
  if (o.split != "sidak" && o.split != "bonferroni") {
    throw InputError("--split must be sidak or bonferroni, got " + printable(o.split));
  }
  if (o.value != "bytes" && o.value != "samples" && o.value != "share") {
    throw InputError("--value must be bytes, samples or share, got " + printable(o.value));
  }
  if (!(o.min_share >= 0 && o.min_share < 1)) throw InputError("--min-share must be in [0, 1)");
  o.margin.value = o.value == "bytes"     ? MarginValue::bytes
                   : o.value == "samples" ? MarginValue::samples
                                          : MarginValue::share;
  // Shares are dependent: Bonferroni unless the user asked for Sidak (then refused).
  if (o.margin.value == MarginValue::share && command.count("--split") == 0) o.split = "bonferroni";
  o.margin.split = o.split == "sidak" ? FailureSplit::sidak : FailureSplit::bonferroni;
  // A band is a quantile of the value's distribution: a scheme without a sampling model
  // has none to take it from, while `flaky` measures such a scheme's assertions by the engine.
  if (const SchemeDescriptor* known = find_scheme(o.scheme);
      known != nullptr && known->family == SamplingFamily::none) {
    throw InputError("--scheme " + o.scheme +
                     ": no sampling model (allocsim schemes: family none), and a band needs "
                     "the value's distribution; `allocsim flaky` measures such a scheme's assertions by the engine");
  }
  const profile::SamplingModel entry_model = profile::model_for_scheme(o.scheme, o.rate, "--scheme/--rate");
  const auto scheme = create_scheme(o.scheme, {{"rate", o.rate}}, "--scheme " + o.scheme);
  const profile::SamplingModel model = profile::with_pass_through(entry_model, *scheme);

  nlohmann::json document;
  const bool site_list = is_site_list(o.workload, document);
  if (site_list && command.count("--min-share") != 0) {
    throw InputError("--min-share does not apply to a site list (every listed site is checked)");
  }
  const Workload loaded = load_workload(o.workload);
  const Trace& trace = loaded.trace;
  check_output_files({{o.out, "--out"}, {o.report, "--report"}}, loaded.inputs);
  // The sites, less what the scheme cannot see at the start (gperftools' first 16 MiB).
  const profile::MarginWorkload workload = profile::margin_workload(trace, *scheme, model, site_list ? 0 : o.min_share);
  profile::Margins margins = profile::compute_margins(model, workload.sites, o.margin, workload.whole);

  profile::MarginsRun run{o.workload, o.seed, {}};
  const bool needs_engine =
      std::any_of(margins.sites.begin(), margins.sites.end(), [](const profile::SiteMargin& m) { return !m.power; });
  if (needs_engine && o.check == 0) o.check = 10000;  // the power of union bounds and shares
  if (o.check > 0) {
    run.check = profile::check_margins(margins, *scheme, trace, o.check, o.seed, o.threads);
    profile::fill_power_from_check(margins, *run.check);
  }
  const std::string json = profile::margins_json(margins, run);
  if (!o.out.empty()) write_file_atomically(o.out, json);
  if (!o.report.empty()) write_file_atomically(o.report, profile::margins_html(margins, run));
  std::cout << (o.json ? json : profile::margins_table(margins, run)) << std::flush;
  return run.check && !report_check_bound(margins, *run.check) ? 1 : 0;
}

}  // namespace

void add_margins_command(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand(
      "margins", "Bands for a profiler correctness test at a stated false-failure rate, and its power");
  auto o = std::make_shared<MarginsOptions>();
  o->threads = default_thread_count();
  command
      ->add_option("workload", o->workload,
                   "Site list (.json with \"sites\"), trace file, or a scenario's trace object (.json)")
      ->required();
  command->add_option("--scheme", o->scheme, "Scheme of the profiler under test (allocsim schemes)")->required();
  command->add_option("--rate", o->rate, "Its sampling rate T (mean bytes between samples): 524288, 512KiB")
      ->required()
      ->transform(positive_byte_amount());
  command->add_option("--false-failure", o->margin.false_failure, "False-failure rate of the whole test")
      ->capture_default_str()
      ->transform(open_fraction());
  command
      ->add_option("--split", o->split,
                   "How it is split over the sites: sidak (exact for independent sites) "
                   "or bonferroni")
      ->capture_default_str();
  command
      ->add_option("--bias", o->margin.bias,
                   "Bias of one site the power is computed against (-0.1: a 10% "
                   "undercount)")
      ->capture_default_str()
      ->check(real_number({-1, std::numeric_limits<double>::max(), true, false}));
  command
      ->add_option(
          "--value", o->value,
          "What the test checks per site: bytes (the estimate), samples, or share (of the whole profile's bytes)")
      ->capture_default_str();
  command
      ->add_option("--min-share", o->min_share,
                   "Trace workloads: check the stacks holding at least this share "
                   "of the bytes")
      ->capture_default_str()
      ->transform(probability({0, 1, false, true}));
  command->add_option("--check", o->check, "Check the bands by this many engine replications of the scheme")
      ->check(whole_number(0, kMaxReplications));
  command->add_option("--seed", o->seed, "Seed of the engine's check")->capture_default_str()->check(seed_number());
  command->add_option("-j,--threads", o->threads, "Worker threads of the check (default: all cores)")
      ->check(thread_count());
  command->add_option("--out", o->out, "Also write the JSON to this file");
  command->add_option("--report", o->report,
                      "Also write the margins as one self-contained page (FILE.html: answer, bands, model)");
  command->add_flag("--json", o->json, "Print JSON instead of the table");
  command->callback([command, o, &exit_code] {
    handle_interrupts();  // an output being written is removed, not left as OUT.tmp.<pid>
    exit_code = run_margins(*command, *o);
  });
}

}  // namespace allocsim::cli
