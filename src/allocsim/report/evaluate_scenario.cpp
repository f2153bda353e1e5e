#include "allocsim/report/evaluate_scenario.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/stats/window.h"
#include "allocsim/util/error.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/printable.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;

struct SchemeArgument {
  std::string label;  // the argument as given
  std::string name;
  nlohmann::json params = nlohmann::json::object();
  // --rate applies to this parameter: the scheme's rate in bytes, not fixed by the
  // argument under its name or an alias; empty when it does not apply.
  std::string rate_parameter;
  bool takes_rate() const { return !rate_parameter.empty(); }
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
    throw InputError("--scheme " + printable_unquoted(text) + ": unknown scheme " + printable(out.name) +
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
        throw InputError("--scheme " + printable_unquoted(text) + ": expected key=value, got " + printable(item));
      }
      const std::string key = item.substr(0, equals);
      const std::string value = item.substr(equals + 1);
      const nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
      out.params[key] = parsed.is_number() || parsed.is_boolean() ? parsed : nlohmann::json(value);
    }
  }
  const ParameterInfo* rate = descriptor->rate_parameter();
  if (rate != nullptr && descriptor->rate->unit == RateUnit::bytes && rate->find_in(out.params) == nullptr) {
    out.rate_parameter = rate->name;
  }
  return out;
}

}  // namespace

std::string evaluate_default_name(const std::string& trace) {
  std::string stem = fs::path(trace).filename().string();
  // heaptrack.<program>.<pid>...: the program names it, not the tool.
  if (stem.rfind("heaptrack.", 0) == 0 && stem.size() > 10) stem = stem.substr(10);
  stem = stem.substr(0, stem.find('.'));
  for (char& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  }
  return "evaluate-" + (stem.empty() ? std::string("trace") : stem);
}

namespace {

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

// The typical error of each group (a stack, a size bucket) against its true bytes: one
// scatter per series, with the 100% line of a group never sampled. Swept (a "rate"
// series), the ideal per-byte sampler's closed form at each rate is drawn beside the
// points as a guide (chart_spec.h "theory_form").
nlohmann::ordered_json group_error_chart(const std::string& name, const std::string& title,
                                         const nlohmann::ordered_json& where, const std::string& x_label,
                                         const std::string& never_sampled, const nlohmann::ordered_json& series,
                                         const std::string& series_title, bool swept) {
  nlohmann::ordered_json chart = {{"name", name},
                                  {"title", title},
                                  {"where", where},
                                  {"x", "truth"},
                                  {"x_unit", "bytes"},
                                  {"logx", true},
                                  {"x_label", x_label},
                                  {"y", "mape"},
                                  {"y_unit", "percent"},
                                  {"logy", true},
                                  {"y_label", "typical error (mean |estimate - truth| / truth)"},
                                  {"series", series},
                                  {"series_title", series_title}};
  if (swept) {
    chart["theory_form"] = "poisson_mape";
    chart["theory_title"] = "closed form, ideal per-byte sampler";
  }
  chart["join_points"] = false;
  chart["skip_when_empty"] = true;  // a window where no group holds bytes (all freed before the end)
  chart["legend"] = "outside";      // inside, it covered the 100% line
  chart["references"] = {{{"y", 1}, {"label", "100%: " + never_sampled + " never sampled (estimate 0)"}}};
  return chart;
}

nlohmann::ordered_json charts(const std::string& subject, const std::vector<std::string>& estimators, bool swept,
                              bool one_rate, bool stacks, bool buckets, bool several_windows) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  if (!stacks && !buckets) return out;
  nlohmann::ordered_json series = swept ? nlohmann::ordered_json{"scheme", "rate"} : nlohmann::ordered_json{"scheme"};
  std::string series_title = swept ? "{scheme}, T = {rate:bytes}" : "{scheme}";
  nlohmann::ordered_json distance_series = "scheme";
  std::string distance_title = "{scheme}";
  if (several_windows) {
    series.push_back("estimator");
    distance_series = nlohmann::ordered_json{"scheme", "estimator"};
    series_title += ", {estimator}";
    distance_title += ", {estimator}";
  }
  // Titles name the trace and the schemes: "sqlite3.raw.zst, heapprofd and jemalloc".
  // With several windows each scheme has an estimator per window: a series each.
  if (buckets) {  // --group size_bucket: the error of each size bucket against its true bytes
    out.push_back(group_error_chart("size-bucket-error", subject + ": typical error per size bucket",
                                    {{"estimator", estimators}, {"group_kind", "size_bucket"}},
                                    "true bytes of the size bucket (one bucket per power of two of the requested size)",
                                    "bucket", series, series_title, swept));
  }
  if (!stacks) return out;
  const nlohmann::ordered_json where = {{"estimator", estimators}, {"group_kind", "stack"}};
  out.push_back(group_error_chart("stack-error", subject + ": typical error of each stack's estimate against its size",
                                  where, "true bytes of the stack", "stack", series, series_title, swept));
  out.push_back({{"name", "stack-seen"},
                 {"title", subject + ": chance that each stack appears in the profile at all"},
                 {"where", where},
                 {"x", "truth"},
                 {"x_unit", "bytes"},
                 {"logx", true},
                 {"x_label", "true bytes of the stack"},
                 {"y", "p_any_sample"},
                 {"y_unit", "percent"},
                 {"y_min", 0},
                 {"y_label", "P(at least one sample)"},
                 {"series", series},
                 {"series_title", series_title},
                 {"join_points", false},
                 {"skip_when_empty", true},
                 {"legend", "top left"}});
  if (swept) {
    out.push_back({{"name", "profile-distance"},
                   {"title", subject + (one_rate ? ": profile's distance from the truth at one rate"
                                                 : ": distance of the estimated profile from the true one")},
                   {"source", "profiles"},
                   {"where", where},
                   {"x", "rate"},
                   {"x_unit", "bytes"},
                   {"logx", true},
                   {"x_label", "sampling rate T"},
                   {"y", "mean_distance"},
                   {"y_unit", "percent"},
                   {"y_min", 0},
                   {"y_label", "total variation distance (mean)"},
                   {"error", "se_distance"},
                   {"series", distance_series},
                   {"series_title", distance_title},
                   {"legend", "top left"}});
  }
  return out;
}

}  // namespace

nlohmann::ordered_json evaluate_scenario(const EvaluateRequest& o) {
  const nlohmann::json& trace = o.trace;
  std::vector<SchemeArgument> schemes;
  std::set<std::string> labels;
  for (const std::string& text : o.schemes) {
    if (!labels.insert(text).second) throw InputError("--scheme " + printable_unquoted(text) + ": given twice");
    schemes.push_back(parse_scheme_argument(text));
  }
  nlohmann::ordered_json rates = nlohmann::ordered_json::array();
  for (const std::string& text : o.rates) {
    const double bytes = parse_byte_size(text, "--rate " + printable_unquoted(text));
    if (!(bytes >= 1) || bytes != std::floor(bytes))
      throw InputError("--rate " + printable_unquoted(text) + ": must be a whole number of bytes >= 1");
    rates.push_back(static_cast<std::uint64_t>(bytes));
  }
  const bool swept = !rates.empty();
  if (swept && std::none_of(schemes.begin(), schemes.end(), [](const SchemeArgument& s) { return s.takes_rate(); })) {
    throw InputError("--rate: no scheme given takes a byte rate here (it is fixed in --scheme, or the scheme's "
                     "rate counts allocations or is a probability)");
  }
  // Each scheme beside one that does would keep its own rate while its rows, verdict
  // and chart series carry the swept byte rate: refused rather than mislabelled.
  for (const SchemeArgument& s : schemes) {
    if (!swept || s.takes_rate()) continue;
    const SchemeDescriptor* descriptor = find_scheme(s.name);
    const ParameterInfo* rate = descriptor->rate_parameter();
    std::string why;
    if (rate != nullptr && rate->find_in(s.params) != nullptr) {
      why = "fixes its rate in --scheme; drop " + rate->name + "= there, or evaluate it without --rate";
    } else if (rate != nullptr && descriptor->rate->unit == RateUnit::allocations) {
      why = "counts its rate in allocations, not bytes; set it as --scheme " + s.name + ":" + rate->name +
            "=N and evaluate it without --rate";
    } else {
      why = "has no byte rate (its sampling is set by a probability or is fixed); evaluate it without --rate";
    }
    throw InputError("--rate: --scheme " + printable_unquoted(s.label) + " " + why);
  }
  nlohmann::ordered_json scheme_list = nlohmann::ordered_json::array();
  for (const SchemeArgument& s : schemes) {
    nlohmann::ordered_json entry = {{"scheme", s.name}, {"label", s.label}};
    for (const auto& [key, value] : s.params.items()) entry[key] = value;
    if (swept && s.takes_rate()) entry[s.rate_parameter] = "$rate";
    scheme_list.push_back(entry);
    // Every rate now, so that a rate a scheme refuses names the flags.
    for (const auto& rate : swept&& s.takes_rate() ? rates : nlohmann::ordered_json::array({nullptr})) {
      nlohmann::json params = s.params;
      if (!rate.is_null()) params[s.rate_parameter] = rate.get<std::uint64_t>();
      create_scheme(
          s.name, params,
          "--scheme " + printable_unquoted(s.label) + (rate.is_null() ? "" : " at --rate " + json_text(rate)));
    }
  }
  std::vector<std::string> groups = o.groups;
  if (std::find(groups.begin(), groups.end(), "total") == groups.end()) groups.insert(groups.begin(), "total");
  const std::string name = o.name.empty() ? evaluate_default_name(o.trace_name) : o.name;
  const std::string& trace_name = o.trace_name;
  const auto estimators = primary_estimators(schemes, o.windows);
  const bool stacks = std::find(groups.begin(), groups.end(), "stack") != groups.end();
  const bool buckets = std::find(groups.begin(), groups.end(), "size_bucket") != groups.end();

  nlohmann::ordered_json scenario = {
      {"name", name},
      {"description",
       "allocsim evaluate " + trace_name +
           ": built by the command line (--save-scenario writes it to a file to edit and rerun with `allocsim run`)"},
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
  scenario["charts"] = charts(subject, estimators, swept, rates.size() == 1, stacks, buckets, o.windows.size() > 1);
  return scenario;
}

}  // namespace allocsim
