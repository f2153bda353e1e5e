// allocsim: Monte Carlo and exact checks of heap-profiler sampling.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"
#include "command_suggestions.h"
#include "commands.h"

namespace {

// An example or two at the foot of each command's --help, all in one place.
void add_help_examples(CLI::App& app) {
  const std::vector<std::pair<std::string, std::string>> examples = {
      {"run", "allocsim run --out /tmp/results scenarios/examples/quickstart.json\n"
              "  allocsim run -q -j 4 --no-charts --out /tmp/results scenarios/figures/*.json"},
      {"check", "allocsim check --out /tmp/results --junit /tmp/check.xml scenarios/examples/quickstart.json"},
      {"merge", "allocsim run --shard 0/2 --out part0 s.json; allocsim run --shard 1/2 --out part1 s.json\n"
                "  allocsim merge part0 part1 --out /tmp/results"},
      {"evaluate", "allocsim evaluate traces/sqlite3.raw.zst --scheme heapprofd --rate 32KiB --top 3\n"
                   "  allocsim evaluate traces/bc.raw.zst --scheme go --scheme jemalloc --rate 64KiB --rate 512KiB"},
      {"schemes", "allocsim schemes\n  allocsim schemes heapprofd"},
      {"interval", "allocsim interval --samples 8 --tail-bytes 10908 --p 1/102400 --method both\n"
                   "  allocsim interval --scheme go --samples 3 --size 1KiB --rate 512KiB"},
      {"plot", "allocsim plot results/memleak-clock-aliasing"},
      {"trace", "allocsim trace info traces/bc.raw.zst\n"
                "  allocsim trace convert traces/bc.raw.zst /tmp/bc.csv"},
      {"advise", "allocsim advise traces/bc.raw.zst --total-error 0.05 --stack-mape 0.2"},
      {"conformance", "allocsim conformance gperftools --runs 12 --no-charts\n"
                      "  allocsim conformance go --rate 512KiB --simulate 100"},
      {"profile", "allocsim profile traces/profiles/go-heap.pb.gz --top 10"},
      {"diff", "allocsim diff traces/profiles/go-heap.pb.gz traces/profiles/go-heap.pb.gz"},
      {"aggregate", "allocsim aggregate traces/profiles/go-heap.pb.gz traces/profiles/go-heap.pb.gz --mean"},
      {"margins", "allocsim margins traces/profiles/sites.json --scheme go --rate 512KiB --false-failure 1/1000000"},
      {"flaky", "allocsim flaky traces/profiles/flaky-gperftools.json --check 20000"},
  };
  for (const auto& [name, text] : examples) app.get_subcommand(name)->footer("\nExamples:\n  " + text);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"allocsim: how accurate is heap-allocation sampling?"};
  app.set_version_flag("--version", ALLOCSIM_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  allocsim::cli::add_run_command(app, exit_code);
  allocsim::cli::add_merge_command(app, exit_code);
  allocsim::cli::add_check_command(app, exit_code);
  allocsim::cli::add_evaluate_command(app, exit_code);
  allocsim::cli::add_schemes_command(app, exit_code);
  allocsim::cli::add_interval_command(app, exit_code);
  allocsim::cli::add_plot_command(app, exit_code);
  allocsim::cli::add_trace_command(app, exit_code);
  allocsim::cli::add_advise_command(app, exit_code);
  allocsim::cli::add_conformance_command(app, exit_code);
  allocsim::cli::add_profile_command(app, exit_code);
  allocsim::cli::add_diff_command(app, exit_code);
  allocsim::cli::add_aggregate_command(app, exit_code);
  allocsim::cli::add_margins_command(app, exit_code);
  allocsim::cli::add_flaky_command(app, exit_code);
  add_help_examples(app);
  app.footer("Terms in the output (wald, Horvitz-Thompson, Garwood, Clopper-Pearson, Sidak, rRMSE, misplcd):\n"
             "docs/glossary.md");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {  // a flag's error, on one line like every input error
    std::string message = allocsim::cli::command_line_hint(app, argc, argv);
    if (message.empty()) {
      message = e.what();
      std::replace(message.begin(), message.end(), '\n', ' ');
      message += " (see --help)";
    }
    std::fprintf(stderr, "allocsim: error: %s\n", allocsim::one_line(message).c_str());
    return 2;
  } catch (const allocsim::InputError& e) {
    std::fprintf(stderr, "allocsim: error: %s\n", allocsim::one_line(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "allocsim: internal error: %s\n", allocsim::one_line(e.what()).c_str());
    return 3;
  }
  return exit_code;
}
