// `allocsim flaky TEST.json`: the false-failure rate of each assertion of a profiler
// test as the test writes it, and of the whole test, under the scheme's sampling model
// (src/allocsim/profile/flaky.h, docs/margins.md); `--check R` measures them by the
// engine and fails when a measured rate exceeds its computed one.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "allocsim/json/byte_size.h"
#include "allocsim/json/json_reader.h"
#include "allocsim/profile/flaky.h"
#include "allocsim/profile/flaky_html.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/scenario/replication_limits.h"
#include "allocsim/trace/trace_source.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/output_path.h"
#include "allocsim/util/parallel.h"
#include "commands.h"
#include "flag_checks.h"
#include "trace_argument.h"

namespace allocsim::cli {
namespace {

struct FlakyOptions {
  std::string file;
  std::uint64_t check = 0;
  std::uint64_t seed = 1;
  unsigned threads = 1;
  std::string out;
  std::string report;  // --report FILE.html
  bool json = false;
  double target = 1e-6;
  std::optional<double> power;  // --power P: the inverse answer also reaches power >= P
  std::string emit;
};

// The workload: "sites" (a site list as margins takes it) or "trace" (a trace file,
// relative to the description's folder). The files it reads join `inputs`.
Trace load_flaky_workload(JsonObject& root, const nlohmann::json& document, const std::string& file,
                          InputPaths& inputs) {
  const bool sites = root.has("sites"), trace = root.has("trace");
  if (sites == trace) root.fail("give the workload as \"sites\" or as \"trace\" (one of them)");
  if (sites) {
    root.at("sites");
    return profile::trace_of_site_list(nlohmann::json{{"sites", document.at("sites")}}, file);
  }
  const JsonValue value = root.at("trace");
  std::filesystem::path path = value.string();
  if (path.is_relative()) path = std::filesystem::path(file).parent_path() / path;
  if (!std::filesystem::is_regular_file(path)) value.fail("no such file: " + path.string());
  const nlohmann::json object = trace_argument(path.string());
  JsonObject source_object(object, value.path());
  const TraceSource source = parse_trace_source(source_object, "");
  inputs.add_all(trace_argument_inputs(path.string(), source));
  return load_trace(source, 1);
}

int run_flaky(const FlakyOptions& o) {
  InputPaths inputs{o.file};
  const nlohmann::json document = parse_json_file(o.file);
  JsonObject root(document, o.file + ": $");
  root.ignore("description");
  nlohmann::json params = nlohmann::json::object();
  if (auto given = root.maybe("params")) {
    given->object();  // an object of the scheme's parameters (allocsim schemes NAME)
    params = given->raw();
  }
  profile::FlakyTest test;
  const JsonValue scheme_value = root.at("scheme");
  test.scheme = scheme_value.string();
  const SchemeDescriptor* descriptor = find_scheme(test.scheme);
  if (descriptor == nullptr) create_scheme(test.scheme, params, scheme_value.path());  // unknown: says so, with names
  // The mean interval goes to the scheme's rate parameter; a scheme without one (JFR's
  // and dd-trace-rb's adaptive samplers, OCaml's lambda) is set by "params" alone.
  if (descriptor->rate) {
    test.rate = allocsim::positive_byte_amount(root.at("rate"));
  } else if (auto rate_value = root.maybe("rate")) {
    rate_value->fail("scheme \"" + test.scheme + "\" has no mean sampling interval; set it through \"params\"");
  }
  const Trace trace = load_flaky_workload(root, document, o.file, inputs);
  check_output_files({{o.out, "--out"}, {o.report, "--report"}}, inputs);
  // The test at interval `rate`: the scheme's model, its pass-through and start window;
  // a scheme without a model (SamplingFamily::none) is measured by the engine alone.
  std::unique_ptr<Scheme> scheme;
  const auto at_rate = [&](double rate, std::unique_ptr<Scheme>& made) {
    profile::FlakyTest t;
    t.scheme = test.scheme;
    t.rate = rate;
    nlohmann::json p = params;
    if (descriptor->rate) p[descriptor->rate->parameter] = rate;
    made = create_scheme(t.scheme, p, scheme_value.path());
    t.sites = profile::sites_of_trace(trace, *made, 0);
    if (descriptor->family == SamplingFamily::none) return t;
    t.model = profile::with_pass_through(profile::model_for_scheme(t.scheme, rate, scheme_value.path()), *made);
    // A start the system cannot see (gperftools' main thread: its first 16 MiB, unless
    // startup_counter says otherwise): Scheme::unsampled_start, as created.
    if (t.model->unsampled_start > 0) {
      profile::apply_startup_window(t, trace, *made, static_cast<std::uint64_t>(t.model->unsampled_start));
    }
    return t;
  };
  test = at_rate(test.rate, scheme);
  test.band_target = o.target;
  // A bias for the whole test: each assertion's power against it, unless it states its own.
  std::optional<double> bias;
  if (auto value = root.maybe("bias")) {
    bias = value->number();
    if (!(*bias > -1)) value->fail("a bias is a number > -1 (0.1: the profiler over-reports by 10%)");
  }
  test.assertions = profile::read_assertions(root.at("assertions"), test.sites);
  for (profile::FlakyAssertion& a : test.assertions) {
    if (!a.bias) a.bias = bias;
  }
  root.finish();
  if (o.power && std::none_of(test.assertions.begin(), test.assertions.end(),
                              [](const profile::FlakyAssertion& a) { return a.bias && profile::reads_values(a); })) {
    throw InputError("--power: no assertion of " + o.file +
                     " states a \"bias\" to have power against (a presence's power is its false-failure rate)");
  }

  profile::FlakyRates rates = profile::flaky_rates(test);
  std::uint64_t replications = o.check;
  const bool needs_engine = std::isnan(rates.whole) || std::any_of(rates.assertions.begin(), rates.assertions.end(),
                                                                   [](const profile::FlakyRate& r) {
                                                                     return !r.power_method.empty() && !r.power;
                                                                   });
  if (needs_engine && replications == 0) replications = 10000;
  std::optional<profile::FlakyCheck> check;
  if (replications > 0) {
    check = profile::check_flaky(test, *scheme, trace, replications, o.seed, o.threads);
    profile::fill_rates_from_check(rates, *check);
  }
  const std::optional<profile::FlakyCheck> shown = o.check > 0 ? check : std::nullopt;
  // The inverse questions, on the exact rates (none where the engine is needed; without
  // a model, flaky_table and flaky_json say so).
  std::optional<profile::FlakyAnswer> answer;
  if (!needs_engine) {
    answer = profile::inverse_answer(
        test, o.target,
        [&](double rate) {
          std::unique_ptr<Scheme> made;
          profile::FlakyTest t = at_rate(rate, made);
          t.assertions = test.assertions;
          t.band_target = test.band_target;
          return t;
        },
        o.power);
  }
  if (!o.emit.empty()) {
    std::cout << profile::emit_test(test, rates, o.emit, "allocsim flaky " + o.file + " --emit " + o.emit)
              << std::flush;
    return 0;
  }
  std::string json = profile::flaky_json(test, rates, shown);
  if (answer) {
    nlohmann::ordered_json value = nlohmann::ordered_json::parse(json);
    nlohmann::ordered_json allocations = nullptr;  // per site, at the multiplier
    if (answer->multiplier) {
      allocations = nlohmann::ordered_json::object();
      const std::vector<double> counts = profile::allocations_at(test, *answer->multiplier);
      for (std::size_t i = 0; i < counts.size(); ++i) allocations[test.sites[i].name] = counts[i];
    }
    const auto power_of = [](const profile::Reached& r) {
      return r.power ? nlohmann::ordered_json(*r.power) : nlohmann::ordered_json(nullptr);
    };
    value["inverse"] = {
        {"target", answer->target},
        {"power_target", answer->power_target ? nlohmann::ordered_json(*answer->power_target) : nullptr},
        {"multiplier", answer->multiplier ? nlohmann::ordered_json(*answer->multiplier) : nullptr},
        {"allocations", allocations},
        {"false_failure_at_multiplier",
         answer->multiplier ? nlohmann::ordered_json(answer->at_multiplier.rate) : nullptr},
        {"power_at_multiplier", power_of(answer->at_multiplier)},
        {"rate_bytes", answer->rate ? nlohmann::ordered_json(*answer->rate) : nullptr},
        {"false_failure_at_rate", answer->rate ? nlohmann::ordered_json(answer->at_rate.rate) : nullptr},
        {"power_at_rate", power_of(answer->at_rate)},
        {"text", profile::answer_text(test, *answer)}};
    json = json_text(value, 2) + "\n";
  }
  if (!o.out.empty()) write_file_atomically(o.out, json);
  if (!o.report.empty()) write_file_atomically(o.report, profile::flaky_html(o.file, test, rates, shown, answer));
  std::cout << (o.json ? json
                       : profile::flaky_table(test, rates, shown) + (answer ? profile::answer_text(test, *answer) : ""))
            << std::flush;
  if (o.check == 0) return 0;
  // Only computed rates are checked (an engine-measured one is its own measure).
  for (std::size_t k = 0; k < test.assertions.size(); ++k) {
    const profile::FlakyRate& r = rates.assertions[k];
    if (r.method != "exact") continue;
    if (profile::exceeds_rate(check->failures[k], check->replications, *r.false_failure)) {
      std::fprintf(stderr,
                   "allocsim: flaky --check failed: assertion %zu (%s) failed %llu of %llu replications, above its "
                   "computed rate %.4g by more than 5 SE (binomial tail < 1e-6)\n",
                   k + 1, test.assertions[k].text.c_str(), static_cast<unsigned long long>(check->failures[k]),
                   static_cast<unsigned long long>(check->replications), *r.false_failure);
      return 1;
    }
  }
  if (!needs_engine && profile::exceeds_rate(check->any_failure, check->replications, rates.whole)) {
    std::fprintf(stderr,
                 "allocsim: flaky --check failed: the whole test failed %llu of %llu replications, above its "
                 "computed rate %.4g by more than 5 SE (binomial tail < 1e-6)\n",
                 static_cast<unsigned long long>(check->any_failure),
                 static_cast<unsigned long long>(check->replications), rates.whole);
    return 1;
  }
  return 0;
}

}  // namespace

void add_flaky_command(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand(
      "flaky", "False-failure rate of each assertion of a profiler test, and of the whole test (docs/margins.md)");
  auto o = std::make_shared<FlakyOptions>();
  o->threads = default_thread_count();
  command->add_option("test", o->file, "Test description (.json: scheme, rate, sites or trace, assertions)")
      ->required();
  command
      ->add_option(
          "--check", o->check,
          "Measure the rates by this many engine replications; exit 1 if one exceeds its computed rate by > 5 SE")
      ->check(whole_number(0, kMaxReplications));
  command->add_option("--seed", o->seed, "Seed of the engine's check")->capture_default_str()->check(seed_number());
  command->add_option("-j,--threads", o->threads, "Worker threads of the check (default: all cores)")
      ->check(thread_count());
  command->add_option("--out", o->out, "Also write the JSON to this file");
  command->add_option("--report", o->report,
                      "Also write the rates as one self-contained page (FILE.html: answer, assertions, model)");
  command->add_flag("--json", o->json, "Print JSON instead of the table");
  command->add_option("--emit", o->emit, "Print the assertions as code to paste: gtest, pytest or go")
      ->check(CLI::IsMember({"gtest", "pytest", "go"}));
  command
      ->add_option("--target", o->target,
                   "Whole-test false-failure rate the inverse answer aims at (workload multiplier, interval)")
      ->capture_default_str()
      ->transform(open_fraction());
  command
      ->add_option("--power", o->power,
                   "The inverse answer also reaches this power against each assertion's stated bias (0 < P < 1)")
      ->transform(open_fraction());
  command->callback([o, &exit_code] {
    handle_interrupts();
    exit_code = run_flaky(*o);
  });
}

}  // namespace allocsim::cli
