#pragma once
// Each sub-command of the allocsim CLI registers itself on the root app.
// A command's callback stores its exit status in `exit_code`
// (0 ok, 1 expectation failed, 2 bad input); InputError escapes to main().
#include <CLI/CLI.hpp>

#include "allocsim/util/printable.h"

namespace allocsim::cli {

void add_run_command(CLI::App& app, int& exit_code);
void add_merge_command(CLI::App& app, int& exit_code);
void add_check_command(CLI::App& app, int& exit_code);
void add_evaluate_command(CLI::App& app, int& exit_code);
void add_schemes_command(CLI::App& app, int& exit_code);
void add_interval_command(CLI::App& app, int& exit_code);
void add_plot_command(CLI::App& app, int& exit_code);
void add_trace_command(CLI::App& app, int& exit_code);
void add_advise_command(CLI::App& app, int& exit_code);
void add_conformance_command(CLI::App& app, int& exit_code);
void add_profile_command(CLI::App& app, int& exit_code);
void add_diff_command(CLI::App& app, int& exit_code);
void add_aggregate_command(CLI::App& app, int& exit_code);
void add_margins_command(CLI::App& app, int& exit_code);
void add_flaky_command(CLI::App& app, int& exit_code);

}  // namespace allocsim::cli
