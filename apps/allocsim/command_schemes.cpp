// `allocsim schemes [--json]`: the catalogue of sampling schemes.
#include <cstdio>
#include <memory>

#include "allocsim/sampler/registry.h"
#include "commands.h"

namespace allocsim::cli {

void add_schemes_command(CLI::App& app, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand("schemes", "list the sampling schemes and their parameters");
  command->add_flag("--json", *json, "machine-readable output");
  command->callback([json, &exit_code] {
    if (*json) {
      std::printf("%s\n", describe_schemes_json().dump(2).c_str());
    } else {
      for (const auto& d : scheme_registry()) {
        std::printf("%s\n  %s\n  source: %s\n", d.name.c_str(), d.summary.c_str(), d.source.c_str());
        for (const auto& p : d.parameters) {
          std::printf("  param %-12s %-8s default %-10s %s\n", p.name.c_str(), p.type.c_str(),
                      p.default_value.dump().c_str(), p.description.c_str());
        }
        for (const auto& v : d.variants) std::printf("  variant: %s\n", v.c_str());
        std::printf("\n");
      }
    }
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
