#pragma once
// Runs the allocsim command-line tool of this checkout (testing/build_paths.h).
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "testing/build_paths.h"

extern char** environ;

namespace allocsim::testing {

struct CliResult {
  int exit_code;
  std::string output;  // stdout, then stderr when asked for
};

// Runs a shell command and captures its standard output.
inline CliResult run_shell(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, ""};
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// Runs the allocsim binary with `arguments` (shell words) and captures its output;
// in `directory` (a shell word) when one is given.
inline CliResult run_cli(const std::string& arguments, bool with_stderr = false, const std::string& directory = "") {
  return run_shell((directory.empty() ? "" : "cd " + directory + " && ") + cli_binary() + " " + arguments +
                   (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

// The argument vector of the allocsim binary with `words` (which it points into: keep
// them alive while it is used), ended by a null pointer as exec wants it.
inline std::vector<char*> cli_argv(std::vector<std::string>& words) {
  words.insert(words.begin(), cli_binary());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  return argv;
}

// Starts the allocsim binary with `words` and `signal` at its default action (as a
// terminal or `kill` finds it, even where the test runs with the signal ignored);
// returns its pid, or -1 if it could not be started.
inline pid_t spawn_cli(std::vector<std::string> words, int signal) {
  std::vector<char*> argv = cli_argv(words);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, signal);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], nullptr, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  return spawned == 0 ? pid : -1;
}

// As spawn_cli, but the process is stopped before it runs allocsim: the caller
// knows its pid (and so the names of its temporary files) before it does anything,
// and lets it go with kill(pid, SIGCONT). Returns -1 if it could not be started.
inline pid_t spawn_cli_stopped(std::vector<std::string> words, int signal) {
  std::vector<char*> argv = cli_argv(words);
  const pid_t pid = ::fork();
  if (pid == 0) {  // only async-signal-safe calls between fork and exec
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    ::sigaction(signal, &default_action, nullptr);
    ::raise(SIGSTOP);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, WUNTRACED) != pid || !WIFSTOPPED(status)) return -1;
  return pid;
}

}  // namespace allocsim::testing
