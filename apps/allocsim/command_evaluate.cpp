// `allocsim evaluate TRACE --scheme S [--rate T]...`: how accurate is scheme S at
// rate T on this trace? Builds a scenario from the command line (--save-scenario
// writes it for editing and `allocsim run`), runs it, writes the usual results and
// charts, and prints the verdict (report/verdict.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/output_path.h"
#include "commands.h"
#include "scenario_runner.h"
#include "trace_argument.h"
#include "verdict_output.h"

namespace allocsim::cli {
namespace {

namespace fs = std::filesystem;

struct EvaluateOptions {
  ScenarioOptions run;
  VerdictOptions verdict;
  std::string trace;
  std::vector<std::string> schemes;  // "NAME" or "NAME:key=value,key=value"
  std::vector<std::string> rates;
  std::vector<std::string> groups = {"total", "stack"};
  std::vector<std::string> windows = {"allocated"};
  std::uint64_t replications = 1000;
  std::uint64_t seed = 1;
  std::string name;
  std::string save_scenario;
};

struct SchemeArgument {
  std::string label;  // the argument as given
  std::string name;
  nlohmann::json params = nlohmann::json::object();
  bool takes_rate = false;  // --rate applies: a byte "rate" the argument does not fix
};

// "heapprofd:passthrough=none,rate=64KiB": a value that reads as a JSON number or
// boolean is one, anything else a string (so sizes with units pass through).
SchemeArgument parse_scheme_argument(const std::string& text) {
  SchemeArgument out;
  out.label = text;
  const auto colon = text.find(':');
  out.name = text.substr(0, colon);
  const SchemeDescriptor* descriptor = find_scheme(out.name);
  if (descriptor == nullptr) {
    throw InputError("--scheme " + text + ": unknown scheme \"" + out.name + "\"" +
                     scheme_suggestion(out.name) + " (`allocsim schemes` lists them)");
  }
  if (colon != std::string::npos) {
    std::string rest = text.substr(colon + 1);
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      const std::string item = rest.substr(0, comma);
      rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
      const auto equals = item.find('=');
      if (equals == std::string::npos || equals == 0) {
        throw InputError("--scheme " + text + ": expected key=value, got \"" + item + "\"");
      }
      const std::string key = item.substr(0, equals);
      const std::string value = item.substr(equals + 1);
      const nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
      out.params[key] = parsed.is_number() || parsed.is_boolean() ? parsed : nlohmann::json(value);
    }
  }
  bool has_rate = false;
  for (const ParameterInfo& p : descriptor->parameters) has_rate = has_rate || p.name == "rate";
  out.takes_rate = has_rate && descriptor->byte_rate && !out.params.contains("rate");
  return out;
}

std::string default_name(const std::string& trace) {
  std::string stem = fs::path(trace).filename().string();
  stem = stem.substr(0, stem.find('.'));
  for (char& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  }
  return "evaluate-" + (stem.empty() ? std::string("trace") : stem);
}

// The estimators the verdict reads: each scheme's first, in each window.
std::vector<std::string> primary_estimators(const std::vector<SchemeArgument>& schemes,
                                            const std::vector<std::string>& windows) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::string& window : windows) {
    const Window w{window == "allocated"     ? Window::Kind::allocated
                   : window == "live_at_end" ? Window::Kind::live_at_end
                                             : Window::Kind::live_at_peak};
    const std::string prefix = w.estimator_prefix();
    for (const SchemeArgument& s : schemes) {
      nlohmann::json params = s.params;
      const auto scheme = create_scheme(s.name, params, "--scheme " + s.label);
      const std::string name = prefix + scheme->estimators().front().name;
      if (seen.insert(name).second) out.push_back(name);
    }
  }
  return out;
}

// Titles name the trace and the schemes: "sqlite3.raw.zst, heapprofd and jemalloc".
nlohmann::ordered_json charts(const std::string& subject, const std::vector<std::string>& estimators,
                              bool swept, bool stacks) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  if (!stacks) return out;
  const nlohmann::ordered_json series = swept ? nlohmann::ordered_json{"scheme", "rate"} : nlohmann::ordered_json{"scheme"};
  const std::string series_title = swept ? "{scheme}, T = {rate:bytes}" : "{scheme}";
  const nlohmann::ordered_json where = {{"estimator", estimators}, {"group_kind", "stack"}};
  out.push_back({{"name", "stack-error"},
                 {"title", subject + ": expected error of each stack's estimate against its size"},
                 {"where", where},
                 {"x", "truth"}, {"x_unit", "bytes"}, {"logx", true}, {"x_label", "true bytes of the stack"},
                 {"y", "mape"}, {"y_unit", "percent"}, {"logy", true},
                 {"y_label", "expected error (mean |estimate - truth| / truth)"},
                 {"series", series}, {"series_title", series_title}, {"join_points", false},
                 {"legend", "top right"},
                 {"references", {{{"y", 1}, {"label", "100%: stack never sampled (estimate 0)"}}}}});
  out.push_back({{"name", "stack-seen"},
                 {"title", subject + ": chance that each stack appears in the profile at all"},
                 {"where", where},
                 {"x", "truth"}, {"x_unit", "bytes"}, {"logx", true}, {"x_label", "true bytes of the stack"},
                 {"y", "p_any_sample"}, {"y_unit", "percent"}, {"y_min", 0},
                 {"y_label", "P(at least one sample)"},
                 {"series", series}, {"series_title", series_title}, {"join_points", false},
                 {"legend", "top left"}});
  if (swept) {
    out.push_back({{"name", "profile-distance"},
                   {"title", subject + ": distance of the estimated profile from the true one"},
                   {"source", "profiles"},
                   {"where", where},
                   {"x", "rate"}, {"x_unit", "bytes"}, {"logx", true}, {"x_label", "sampling rate T"},
                   {"y", "mean_distance"}, {"y_unit", "percent"}, {"y_min", 0},
                   {"y_label", "total variation distance (mean)"}, {"error", "se_distance"},
                   {"series", "scheme"}, {"series_title", "{scheme}"}, {"legend", "top left"}});
  }
  return out;
}

nlohmann::ordered_json build_scenario(const EvaluateOptions& o) {
  const nlohmann::json trace = trace_argument(o.trace);
  std::vector<SchemeArgument> schemes;
  std::set<std::string> labels;
  for (const std::string& text : o.schemes) {
    if (!labels.insert(text).second) throw InputError("--scheme " + text + ": given twice");
    schemes.push_back(parse_scheme_argument(text));
  }
  nlohmann::ordered_json rates = nlohmann::ordered_json::array();
  for (const std::string& text : o.rates) {
    const double bytes = parse_byte_size(text, "--rate " + text);
    if (!(bytes >= 1) || bytes != std::floor(bytes)) throw InputError("--rate " + text + ": must be a whole number of bytes >= 1");
    rates.push_back(static_cast<std::uint64_t>(bytes));
  }
  const bool swept = !rates.empty();
  if (swept && std::none_of(schemes.begin(), schemes.end(), [](const SchemeArgument& s) { return s.takes_rate; })) {
    throw InputError("--rate: no scheme given takes a byte rate here (it is fixed in --scheme, or the scheme's "
                     "rate counts allocations or is a probability)");
  }
  nlohmann::ordered_json scheme_list = nlohmann::ordered_json::array();
  for (const SchemeArgument& s : schemes) {
    nlohmann::ordered_json entry = {{"scheme", s.name}, {"label", s.label}};
    for (const auto& [key, value] : s.params.items()) entry[key] = value;
    if (swept && s.takes_rate) entry["rate"] = "$rate";
    scheme_list.push_back(entry);
    // Every rate now, so that a rate a scheme refuses names the flags.
    for (const auto& rate : swept && s.takes_rate ? rates : nlohmann::ordered_json::array({nullptr})) {
      nlohmann::json params = s.params;
      if (!rate.is_null()) params["rate"] = rate.get<std::uint64_t>();
      create_scheme(s.name, params, "--scheme " + s.label + (rate.is_null() ? "" : " at --rate " + rate.dump()));
    }
  }
  std::vector<std::string> groups = o.groups;
  if (std::find(groups.begin(), groups.end(), "total") == groups.end()) groups.insert(groups.begin(), "total");
  const std::string name = o.name.empty() ? default_name(o.trace) : o.name;
  const std::string trace_name = fs::path(o.trace).filename().string();
  const auto estimators = primary_estimators(schemes, o.windows);
  const bool stacks = std::find(groups.begin(), groups.end(), "stack") != groups.end();

  nlohmann::ordered_json scenario = {
      {"name", name},
      {"description", "allocsim evaluate " + trace_name + ": written by the command line; edit and rerun with `allocsim run`"},
      {"seed", o.seed},
      {"replications", o.replications},
      {"trace", trace},
      {"schemes", scheme_list}};
  if (swept) scenario["sweep"] = {{"rate", rates}};
  scenario["groups"] = groups;
  scenario["windows"] = o.windows;
  scenario["estimators"] = estimators;
  std::string subject = trace_name + ", ";
  for (std::size_t i = 0; i < schemes.size(); ++i) {
    subject += (i == 0 ? "" : i + 1 == schemes.size() ? " and " : ", ") + schemes[i].label;
  }
  scenario["charts"] = charts(subject, estimators, swept, stacks);
  return scenario;
}

}  // namespace

void add_evaluate_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<EvaluateOptions>();
  CLI::App* command = app.add_subcommand(
      "evaluate", "how accurate is a scheme at a rate on this trace: a verdict, results and charts");
  command->add_option("TRACE", o->trace, "trace file (any format allocsim reads) or a .json trace object")
      ->required();
  command->add_option("--scheme", o->schemes, "scheme, with parameters as NAME:key=value,key=value (repeatable)")
      ->required();
  command->add_option("--rate", o->rates, "byte rate for every scheme: 4096, 32KiB, 2MiB (repeatable; default: each scheme's)");
  command->add_option("--group", o->groups, "group kinds beside the total")
      ->capture_default_str()
      ->check(CLI::IsMember({"total", "stack", "type", "size_bucket"}));
  command->add_option("--window", o->windows, "heap windows")
      ->capture_default_str()
      ->check(CLI::IsMember({"allocated", "live_at_end", "live_at_peak"}));
  command->add_option("--replications", o->replications, "simulated profiles per scheme and rate")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{2}, std::uint64_t{1'000'000'000}));
  command->add_option("--seed", o->seed, "random seed")->capture_default_str();
  command->add_option("--name", o->name, "scenario name and results folder (default: evaluate-<trace>)");
  command->add_option("--save-scenario", o->save_scenario, "also write the scenario built here to this file");
  command->add_option("--out", o->run.out, "directory the results go under")->capture_default_str();
  command->add_option("--threads", o->run.threads, "worker threads (default: all cores)")
      ->check(CLI::Range(1u, 4096u));
  command->add_flag("--no-charts", o->run.no_charts, "do not draw charts");
  command->add_flag("--quiet", o->run.quiet, "no progress line");
  add_verdict_options(*command, o->verdict);
  command->callback([o, &exit_code] {
    handle_interrupts();
    const nlohmann::ordered_json document = build_scenario(*o);
    const std::string text = document.dump(2) + "\n";
    const Scenario scenario = parse_scenario(text, "allocsim evaluate");
    validate_scenarios({scenario}, o->run);
    if (!o->save_scenario.empty()) {
      check_output_path(o->save_scenario, OutputKind::file, "--save-scenario");
      write_file_atomically(o->save_scenario, text);
    }
    const CompletedScenario done = run_and_write(scenario, o->run);
    nlohmann::ordered_json verdicts;
    report_verdict(scenario, done, o->verdict, verdicts);
    if (o->verdict.json) std::printf("%s\n", verdicts.front().dump(2).c_str());
    if (!o->run.quiet && !o->verdict.json) {
      std::fprintf(stderr, "results in %s/ (metrics.csv, charts/)%s\n", done.directory.c_str(),
                   o->save_scenario.empty() ? "" : ("; scenario in " + o->save_scenario).c_str());
    }
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
