#include "allocsim/scenario/scenario.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "allocsim/sampler/registry.h"
#include "allocsim/scenario/replication_limits.h"
#include "allocsim/scenario/result_files.h"
#include "allocsim/util/did_you_mean.h"
#include "allocsim/util/error.h"
#include "allocsim/util/file_text.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/printable.h"

namespace allocsim {
namespace {

// Every point is resolved (its trace and schemes parsed) while the scenario is read.
constexpr std::uint64_t kMaxSweepPoints = 100'000;

bool is_safe_name(const std::string& name) {
  if (name.empty() || name == "." || name == "..") return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

// A results directory's name: a safe name that is not hidden (a staged directory is
// ".<name>.tmp.<pid>", util/staged_directory.h, and one named so could be taken for
// it) and short enough for that staged name to fit the file system's 255 bytes.
constexpr std::size_t kMaxDirectoryName = 200;
bool is_safe_directory_name(const std::string& name) {
  return is_safe_name(name) && name.front() != '.' && name.size() <= kMaxDirectoryName;
}
constexpr char kDirectoryNameRule[] = "letters, digits, '-', '_' and '.' only, not first, at most 200 of them";

// Replaces every "$variable" string inside `value`; `path` locates errors.
nlohmann::json substitute(const nlohmann::json& value, const std::string& path, const std::vector<SweepVariable>& sweep,
                          const std::vector<nlohmann::json>& point, std::set<std::string>& used) {
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (text.empty() || text[0] != '$') return value;
    for (std::size_t v = 0; v < sweep.size(); ++v) {
      if (text.substr(1) == sweep[v].name) {
        used.insert(sweep[v].name);
        return point[v];
      }
    }
    std::string known;
    for (const auto& v : sweep) known += (known.empty() ? "" : ", ") + v.name;
    throw InputError(path + ": " + printable(text) + " is not a sweep variable" +
                     (known.empty() ? " (the scenario has no sweep)" : " (sweep: " + known + ")"));
  }
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, item] : value.items()) {
      out[key] = substitute(item, key_path(path, key), sweep, point, used);
    }
    return out;
  }
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t i = 0; i < value.size(); ++i) {
      out.push_back(substitute(value[i], path + "[" + std::to_string(i) + "]", sweep, point, used));
    }
    return out;
  }
  return value;
}

std::vector<SweepVariable> parse_sweep(const nlohmann::ordered_json& document, JsonObject& root) {
  std::vector<SweepVariable> sweep;
  auto v = root.maybe("sweep");
  if (!v) return sweep;
  JsonObject object = v->object();
  // Key order comes from the ordered document: the author's order is the loop order.
  for (const auto& [name, unused] : document.at("sweep").items()) {
    JsonValue values = object.at(name);
    SweepVariable variable{name, {}};
    if (!is_safe_name(name)) values.fail("sweep variable names use letters, digits, '-', '_' and '.'");
    for (const JsonValue& item : values.non_empty_array()) {
      if (!item.is_number() && !item.is_string()) item.fail("sweep values must be numbers or strings");
      variable.values.push_back(item.raw());
    }
    sweep.push_back(std::move(variable));
  }
  object.finish();
  return sweep;
}

// Counted before any point is built: a few short arrays can multiply to billions.
void require_few_points(const std::vector<SweepVariable>& sweep) {
  std::uint64_t points = 1;
  bool overflow = false;
  std::string sizes;
  for (const auto& variable : sweep) {
    overflow |= __builtin_mul_overflow(points, variable.values.size(), &points);
    sizes += (sizes.empty() ? "" : " x ") + std::to_string(variable.values.size());
  }
  if (overflow || points > kMaxSweepPoints) {
    throw InputError("$.sweep: " + sizes + " values make " +
                     (overflow ? std::string("more than 2^64") : std::to_string(points)) + " points, more than the " +
                     std::to_string(kMaxSweepPoints) + " allowed");
  }
}

std::vector<std::vector<nlohmann::json>> cartesian_points(const std::vector<SweepVariable>& sweep) {
  require_few_points(sweep);
  std::vector<std::vector<nlohmann::json>> points = {{}};
  for (const auto& variable : sweep) {
    std::vector<std::vector<nlohmann::json>> next;
    for (const auto& prefix : points) {
      for (const auto& value : variable.values) {
        next.push_back(prefix);
        next.back().push_back(value);
      }
    }
    points = std::move(next);
  }
  return points;
}

// "allocated", "live_at_end", "live_at_peak", or {"live_at": time}.
Window parse_window(const JsonValue& item) {
  if (item.is_object()) {
    JsonObject object = item.object();
    const Window w{Window::Kind::live_at, object.at("live_at").uint()};
    object.finish();
    return w;
  }
  const std::string name = item.string();
  if (name == "allocated") return {};
  if (name == "live_at_end") return {Window::Kind::live_at_end};
  if (name == "live_at_peak") return {Window::Kind::live_at_peak};
  item.fail("unknown window " + printable(name) +
            " (known: allocated, live_at_end, live_at_peak, {\"live_at\": time})");
}

std::string describe_point(const std::vector<SweepVariable>& sweep, const std::vector<nlohmann::json>& values) {
  std::string out;
  for (std::size_t v = 0; v < sweep.size(); ++v) {
    out += (out.empty() ? "" : ", ") + sweep[v].name + "=" + json_text(values[v]);
  }
  return out;
}

SweepPoint resolve_point(const nlohmann::json& trace, const nlohmann::json& schemes,
                         const std::vector<SweepVariable>& sweep, const std::vector<nlohmann::json>& values,
                         std::set<std::string>& used, const std::string& base_directory) {
  SweepPoint point;
  point.values = values;
  const nlohmann::json trace_json = substitute(trace, "$.trace", sweep, values, used);
  point.trace_key = json_text(trace_json);
  JsonObject trace_object(trace_json, "$.trace");
  point.trace = parse_trace_source(trace_object, base_directory);

  const nlohmann::json schemes_json = substitute(schemes, "$.schemes", sweep, values, used);
  std::set<std::string> labels;
  for (std::size_t i = 0; i < schemes_json.size(); ++i) {
    JsonObject entry(schemes_json[i], "$.schemes[" + std::to_string(i) + "]");
    JsonValue name_value = entry.at("scheme");
    const std::string name = name_value.string();
    const SchemeDescriptor* descriptor = find_scheme(name);
    if (descriptor == nullptr) {
      name_value.fail("unknown scheme " + printable(name) + scheme_suggestion(name) +
                      " (known: " + known_scheme_names() + ")");
    }
    std::string label = name;
    if (auto v = entry.maybe("label")) label = v->string();
    if (!labels.insert(label).second) {
      entry.fail("scheme label " + printable(label) + " is used twice; give each entry a distinct \"label\"");
    }
    SchemeParameters parameters(entry, descriptor->parameters);
    std::shared_ptr<const Scheme> scheme = descriptor->create(parameters);
    entry.finish();
    point.schemes.push_back({label, name, std::move(scheme), schemes_json[i]});
  }
  return point;
}

// "name": the scenario's name, also its results directory's by default.
std::string parse_scenario_name(JsonObject& root) {
  const std::string name = root.at("name").string();
  if (!is_safe_directory_name(name)) root.at("name").fail(std::string("a scenario name uses ") + kDirectoryNameRule);
  return name;
}

std::uint64_t parse_replications(const JsonValue& value) {
  const std::uint64_t replications = value.uint();
  if (replications < kMinReplications || replications > kMaxReplications) {
    value.fail("must be between " + std::to_string(kMinReplications) + " and " + std::to_string(kMaxReplications));
  }
  return replications;
}

// "groups": each kind once; the total alone when absent.
std::vector<GroupKind> parse_groups(JsonObject& root) {
  auto v = root.maybe("groups");
  if (!v) return {GroupKind::total};
  std::vector<GroupKind> groups;
  for (const JsonValue& item : v->non_empty_array()) {
    const auto kind = parse_group_kind(item.string());
    if (!kind) item.fail("unknown group kind (known: total, stack, type, size_bucket)");
    if (std::find(groups.begin(), groups.end(), *kind) != groups.end()) item.fail("group kind listed twice");
    groups.push_back(*kind);
  }
  return groups;
}

// "windows": each window once; the allocated bytes alone when absent.
std::vector<Window> parse_windows(JsonObject& root) {
  auto v = root.maybe("windows");
  if (!v) return {Window{}};
  std::vector<Window> windows;
  for (const JsonValue& item : v->non_empty_array()) {
    const Window w = parse_window(item);
    if (std::find(windows.begin(), windows.end(), w) != windows.end()) item.fail("window listed twice");
    windows.push_back(w);
  }
  return windows;
}

double parse_interval_level(const JsonValue& value) {
  const double level = value.number();
  if (!(level > 0 && level < 1)) value.fail("must be in (0, 1)");
  return level;
}

ReplayMode parse_replay_mode(const JsonValue& value) {
  const std::string mode = value.string();
  if (mode == "skip_ahead") return ReplayMode::skip_ahead;
  if (mode == "streaming") return ReplayMode::streaming;
  value.fail("unknown replay mode " + printable(mode) + " (known: skip_ahead, streaming)");
}

// "outputs": the results directory (the scenario's name by default) and the optional files.
OutputOptions parse_outputs(JsonObject& root, const std::string& scenario_name) {
  OutputOptions outputs;
  outputs.directory = scenario_name;
  auto v = root.maybe("outputs");
  if (!v) return outputs;
  JsonObject object = v->object();
  if (auto d = object.maybe("directory")) {
    outputs.directory = d->string();
    if (!is_safe_directory_name(outputs.directory)) d->fail(std::string("a directory name uses ") + kDirectoryNameRule);
  }
  if (auto e = object.maybe("estimates")) outputs.estimates = e->boolean();
  if (auto e = object.maybe("intervals")) outputs.intervals = e->boolean();
  object.finish();
  return outputs;
}

// What a run does, read in the order the errors are reported: everything but the
// trace, the schemes, the expectations and what is drawn.
void parse_run_settings(JsonObject& root, Scenario& scenario) {
  scenario.name = parse_scenario_name(root);
  if (auto v = root.maybe("description")) scenario.description = v->string();
  if (auto v = root.maybe("seed")) scenario.seed = v->uint();
  if (auto v = root.maybe("replications")) scenario.replications = parse_replications(*v);
  scenario.sweep = parse_sweep(scenario.document, root);
  scenario.groups = parse_groups(root);
  scenario.windows = parse_windows(root);
  if (auto v = root.maybe("interval_level")) scenario.interval_level = parse_interval_level(*v);
  if (auto v = root.maybe("replay")) scenario.replay = parse_replay_mode(*v);
  if (auto v = root.maybe("estimators")) {
    for (const JsonValue& item : v->non_empty_array()) scenario.estimators.push_back(item.string());
  }
  scenario.outputs = parse_outputs(root, scenario.name);
}

void require_every_variable_used(const std::vector<SweepVariable>& sweep, const std::set<std::string>& used) {
  for (const auto& variable : sweep) {
    if (used.count(variable.name) == 0) {
      throw InputError("$.sweep." + variable.name + ": not used; reference it as \"$" + variable.name +
                       "\" in trace or schemes");
    }
  }
}

// Every sweep point resolved now, so that any bad value is reported up front; an
// error names the point it was found at.
std::vector<SweepPoint> resolve_points(JsonObject& root, const std::vector<SweepVariable>& sweep,
                                       const std::string& base_directory) {
  JsonValue trace = root.at("trace");
  trace.object();  // type check before substitution
  JsonValue schemes = root.at("schemes");
  schemes.non_empty_array();
  std::vector<SweepPoint> points;
  std::set<std::string> used;
  for (const auto& values : cartesian_points(sweep)) {
    try {
      points.push_back(resolve_point(trace.raw(), schemes.raw(), sweep, values, used, base_directory));
    } catch (const InputError& e) {
      if (sweep.empty()) throw;
      throw InputError(std::string(e.what()) + " (at sweep point " + describe_point(sweep, values) + ")");
    }
  }
  require_every_variable_used(sweep, used);
  return points;
}

// "estimators": each an estimator some scheme of the first point has, in some window.
void require_known_estimators(const Scenario& scenario) {
  if (scenario.estimators.empty()) return;
  std::set<std::string> known;
  for (const auto& scheme : scenario.points.front().schemes) {
    for (const auto& spec : scheme.scheme->estimators()) {
      for (const Window& w : scenario.windows) known.insert(w.estimator_prefix() + spec.name);
    }
  }
  for (std::size_t i = 0; i < scenario.estimators.size(); ++i) {
    if (known.count(scenario.estimators[i]) == 0) {
      throw InputError("$.estimators[" + std::to_string(i) + "]: no scheme has an estimator " +
                       printable(scenario.estimators[i]) +
                       did_you_mean(scenario.estimators[i], std::vector<std::string>(known.begin(), known.end())));
    }
  }
}

// "expectations", "charts" and "tables": they name result columns, the sweep's among them.
void parse_checks_and_figures(JsonObject& root, Scenario& scenario) {
  std::vector<std::string> sweep_names;
  for (const auto& variable : scenario.sweep) sweep_names.push_back(variable.name);
  if (auto v = root.maybe("expectations")) {
    const auto columns = selectable_columns(sweep_names);
    for (const JsonValue& item : v->array()) {
      JsonObject object = item.object();
      scenario.expectations.push_back(parse_expectation(object, columns));
    }
  }
  const ResultColumns files = result_columns(sweep_names);
  if (auto v = root.maybe("charts")) scenario.charts = parse_charts(*v, files);
  if (auto v = root.maybe("tables")) scenario.tables = parse_tables(*v, files);
}

}  // namespace

Scenario parse_scenario(const std::string& text, const std::string& where) {
  Scenario scenario;
  scenario.source = where;
  scenario.document = parse_ordered_json_text(text, where);
  const nlohmann::json document = parse_json_text(text, where);
  try {
    JsonObject root(document, "$");
    root.ignore("$schema");
    parse_run_settings(root, scenario);
    scenario.points = resolve_points(root, scenario.sweep, std::filesystem::path(where).parent_path().string());
    require_known_estimators(scenario);
    parse_checks_and_figures(root, scenario);
    root.finish();
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
  return scenario;
}

Scenario load_scenario(const std::string& path) { return parse_scenario(read_file_text(path, "scenario file"), path); }

}  // namespace allocsim
