#pragma once
// "Did you mean" for the command line: a misspelt subcommand (`allocsim rnu`) or a
// misspelt long option of the chosen subcommand (`allocsim evaluate --rat 4k`).
#include <CLI/CLI.hpp>

#include <string>

namespace allocsim::cli {

// One line naming the first unknown subcommand or option in argv, with the nearest
// known name (without the "allocsim: error: " the caller puts before it); "" when every word is known (the parser's own
// message stands).
std::string command_line_hint(const CLI::App& app, int argc, const char* const* argv);

}  // namespace allocsim::cli
