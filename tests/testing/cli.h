#pragma once
// Runs the allocsim command-line tool (ALLOCSIM_CLI, set by the build).
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace allocsim::testing {

struct CliResult {
  int exit_code;
  std::string output;  // stdout, then stderr when asked for
};

// Runs the allocsim binary with `arguments` (shell words) and captures its output.
inline CliResult run_cli(const std::string& arguments, bool with_stderr = false) {
  const std::string command =
      std::string(ALLOCSIM_CLI) + " " + arguments + (with_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, ""};
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace allocsim::testing
