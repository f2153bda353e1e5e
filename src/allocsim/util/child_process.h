#pragma once
// Runs another program (gnuplot, llvm-symbolizer) and collects what it prints:
// argv as given (no shell, so no word of it is ever interpreted), optionally in a
// working directory, stdout and stderr together. The child starts with no signal
// blocked: allocsim blocks SIGINT/SIGTERM/SIGHUP in its threads
// (util/interrupt_cleanup.h), and a child inheriting that mask would outlive an
// interrupted run.
#include <optional>
#include <string>
#include <vector>

namespace allocsim {

struct ProgramOutput {
  bool exited = false;  // false: killed by a signal
  int exit_code = 0;
  std::string output;  // stdout and stderr, interleaved as written
};

// Empty when argv[0] is not found on the PATH; InputError for any other failure to start.
std::optional<ProgramOutput> run_program(const std::vector<std::string>& argv, const std::string& directory = "");

}  // namespace allocsim
