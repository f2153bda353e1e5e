// allocsim: Monte Carlo and exact checks of heap-profiler sampling.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"
#include "command_suggestions.h"
#include "commands.h"

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
  allocsim::cli::add_margins_command(app, exit_code);
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
