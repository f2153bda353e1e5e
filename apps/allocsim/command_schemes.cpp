// `allocsim schemes [NAME] [--json]`: the catalogue of sampling schemes, or one
// scheme in full: its model, parameters, estimators (whether each is unbiased, from
// the scheme's closed form: advice/estimator_bias.h), intervals and an example.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/advice/estimator_bias.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/util/error.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/printable.h"
#include "commands.h"

namespace allocsim::cli {
namespace {

// One line per parameter, its columns as wide as the longest entry of the scheme's.
void print_parameters(const SchemeDescriptor& d) {
  int name = 12, type = 8, value = 10;
  for (const auto& p : d.parameters) {
    name = std::max(name, static_cast<int>(p.name.size()));
    type = std::max(type, static_cast<int>(p.type.size()));
    value = std::max(value, static_cast<int>(json_text(p.default_value).size()));
  }
  for (const auto& p : d.parameters) {
    std::printf("  param %-*s %-*s default %-*s %s\n", name, p.name.c_str(), type, p.type.c_str(), value,
                json_text(p.default_value).c_str(), p.description.c_str());
  }
}

// Parameters without a default ("sampling_rate" of ocaml): a scheme is only built with them.
std::vector<std::string> required_parameters(const SchemeDescriptor& d) {
  std::vector<std::string> out;
  for (const auto& p : d.parameters) {
    if (p.default_value.is_null()) out.push_back(p.name);
  }
  return out;
}

// The estimators of the scheme at its default parameters: what each estimates,
// whether it is unbiased (from the scheme's closed form) and its intervals. Empty
// for a scheme with required parameters.
nlohmann::ordered_json estimators_json(const SchemeDescriptor& d) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  if (!required_parameters(d).empty()) return out;
  const auto scheme = create_scheme(d.name, nlohmann::json::object(), "schemes " + d.name);
  for (std::size_t e = 0; e < scheme->estimators().size(); ++e) {
    const EstimatorSpec& spec = scheme->estimators()[e];
    nlohmann::ordered_json intervals = nlohmann::ordered_json::array();
    for (const IntervalSpec& interval : scheme->intervals()) {
      if (interval.estimator == e)
        intervals.push_back({{"name", interval.name}, {"description", interval.description}});
    }
    nlohmann::ordered_json item = {{"name", spec.name},
                                   {"quantity", to_string(spec.quantity)},
                                   {"description", spec.description},
                                   {"closed_form_error", scheme->theory(e).per_allocation()}};
    item.update(to_json(estimator_bias(*scheme, e)));
    item["intervals"] = intervals;
    out.push_back(item);
  }
  return out;
}

void print_estimators(const SchemeDescriptor& d, const nlohmann::ordered_json& estimators) {
  if (estimators.empty()) {
    std::string names;
    for (const std::string& name : required_parameters(d)) names += (names.empty() ? "" : ", ") + name;
    std::printf("estimators: shown only at given values of the required %s\n", names.c_str());
    return;
  }
  std::printf("estimators (each also as live_NAME and peak_NAME for the live-heap windows):\n");
  for (const auto& e : estimators) {
    auto line = [](const std::string& head, const std::string& text) {
      std::printf("  %-28s %s\n", head.c_str(), text.c_str());
    };
    line(e["name"], "estimates " + e["quantity"].get<std::string>() + "; " + e["description"].get<std::string>());
    line("", e["bias"].get<std::string>() + ": " + e["condition"].get<std::string>());
    line("", std::string("closed-form error per allocation: ") +
                 (e["closed_form_error"].get<bool>() ? "yes (theory_* columns)" : "no (Monte Carlo only)"));
    for (const auto& interval : e["intervals"]) {
      line("", "interval " + interval["name"].get<std::string>() + ": " + interval["description"].get<std::string>());
    }
  }
}

void print_one(const SchemeDescriptor& d) {
  std::printf("%s\n  %s\n  source: %s\n\nparameters:\n", d.name.c_str(), d.summary.c_str(), d.source.c_str());
  print_parameters(d);
  std::printf("\n");
  print_estimators(d, estimators_json(d));
  std::printf("\nwhere the model departs from the document or the code:\n");
  for (const auto& v : d.variants) std::printf("  - %s\n", v.c_str());
  std::string scheme = d.name;
  for (const std::string& name : required_parameters(d)) scheme += (scheme == d.name ? ":" : ",") + name + "=VALUE";
  std::printf("\nexample:\n  allocsim evaluate traces/sqlite3.raw.zst --scheme %s%s\n", scheme.c_str(),
              d.rate && d.rate->unit == RateUnit::bytes ? " --rate 32KiB --rate 512KiB" : "");
}

}  // namespace

void add_schemes_command(CLI::App& app, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  auto name = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand("schemes", "list the sampling schemes, or show one in full");
  command->add_option("NAME", *name, "one scheme to show: model, parameters, estimators, intervals, example");
  command->add_flag("--json", *json, "machine-readable output");
  command->callback([json, name, &exit_code] {
    const SchemeDescriptor* one = nullptr;
    if (!name->empty()) {
      one = find_scheme(*name);
      if (one == nullptr) {
        throw InputError("schemes: unknown scheme " + printable(*name) + scheme_suggestion(*name) +
                         " (known: " + known_scheme_names() + ")");
      }
    }
    if (*json) {
      nlohmann::json all = describe_schemes_json();
      if (one == nullptr) {
        std::printf("%s\n", json_text(all, 2).c_str());
      } else {
        for (const auto& entry : all) {
          if (entry["name"] != *name) continue;
          nlohmann::ordered_json item(entry);
          item["estimators"] = estimators_json(*one);
          std::printf("%s\n", json_text(item, 2).c_str());
        }
      }
    } else if (one != nullptr) {
      print_one(*one);
    } else {
      for (const auto& d : scheme_registry()) {
        std::printf("%s\n  %s\n  source: %s\n", d.name.c_str(), d.summary.c_str(), d.source.c_str());
        print_parameters(d);
        for (const auto& v : d.variants) std::printf("  variant: %s\n", v.c_str());
        std::printf("\n");
      }
      std::printf("`allocsim schemes NAME` shows one scheme's estimators, intervals and an example.\n");
    }
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
