// `allocsim schemes [NAME] [--json]`: the catalogue of sampling schemes, or one
// scheme in full: its model, parameters, estimators, intervals and an example.
#include <cstdio>
#include <memory>

#include "allocsim/sampler/registry.h"
#include "allocsim/util/error.h"
#include "commands.h"

namespace allocsim::cli {
namespace {

void print_parameters(const SchemeDescriptor& d) {
  for (const auto& p : d.parameters) {
    std::printf("  param %-12s %-8s default %-10s %s\n", p.name.c_str(), p.type.c_str(),
                p.default_value.dump().c_str(), p.description.c_str());
  }
}

// The estimators and intervals of the scheme at its default parameters.
void print_estimators(const SchemeDescriptor& d) {
  const auto scheme = create_scheme(d.name, nlohmann::json::object(), "schemes " + d.name);
  std::printf("estimators (each also as live_NAME and peak_NAME for the live-heap windows):\n");
  for (std::size_t e = 0; e < scheme->estimators().size(); ++e) {
    const EstimatorSpec& spec = scheme->estimators()[e];
    std::printf("  %-28s estimates %s; %s\n", spec.name.c_str(), to_string(spec.quantity), spec.description.c_str());
    std::printf("  %-28s closed-form error per allocation: %s\n", "",
                scheme->theory(e).per_allocation() ? "yes (theory_* columns)" : "no (Monte Carlo only)");
    for (const IntervalSpec& interval : scheme->intervals()) {
      if (interval.estimator == e) {
        std::printf("  %-28s interval %s: %s\n", "", interval.name.c_str(), interval.description.c_str());
      }
    }
  }
}

void print_one(const SchemeDescriptor& d) {
  std::printf("%s\n  %s\n  source: %s\n\nparameters:\n", d.name.c_str(), d.summary.c_str(), d.source.c_str());
  print_parameters(d);
  std::printf("\n");
  print_estimators(d);
  std::printf("\nwhere the model departs from the document or the code:\n");
  for (const auto& v : d.variants) std::printf("  - %s\n", v.c_str());
  std::printf("\nexample:\n  allocsim evaluate traces/sqlite3.raw.zst --scheme %s%s\n", d.name.c_str(),
              d.byte_rate ? " --rate 32KiB --rate 512KiB" : "");
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
        throw InputError("schemes " + *name + ": unknown scheme \"" + *name + "\"" + scheme_suggestion(*name) +
                         " (known: " + known_scheme_names() + ")");
      }
    }
    if (*json) {
      nlohmann::json all = describe_schemes_json();
      if (one == nullptr) {
        std::printf("%s\n", all.dump(2).c_str());
      } else {
        for (const auto& entry : all) {
          if (entry["name"] == *name) std::printf("%s\n", entry.dump(2).c_str());
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
