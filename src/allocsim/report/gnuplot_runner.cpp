#include "allocsim/report/gnuplot_runner.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "allocsim/util/error.h"

extern char** environ;

namespace allocsim {
namespace {

// Closes a pipe end once, whatever path leaves the function.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  void close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

std::string last_lines(const std::string& text, std::size_t count) {
  std::size_t at = text.size();
  while (at > 0 && (text[at - 1] == '\n' || text[at - 1] == ' ')) --at;
  const std::size_t end = at;
  for (std::size_t lines = 0; at > 0; --at) {
    if (text[at - 1] == '\n' && ++lines == count) break;
  }
  std::string out = text.substr(at, end - at);
  for (char& c : out) {
    if (c == '\n') c = ' ';
  }
  return out;
}

}  // namespace

std::string gnuplot_program() {
  const char* program = std::getenv("ALLOCSIM_GNUPLOT");
  return program != nullptr && *program != '\0' ? program : "gnuplot";
}

void run_gnuplot(const std::string& directory, const std::string& preamble, const std::string& script) {
  const std::string program = gnuplot_program();
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw InputError(std::string("cannot create a pipe: ") + std::strerror(errno));
  Fd read_end{pipe_fds[0]}, write_end{pipe_fds[1]};

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, directory.c_str());
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, read_end.fd);
  std::vector<std::string> words = {program, "-e", preamble, script};
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  // gnuplot starts with no signal blocked: allocsim blocks SIGINT/SIGTERM/SIGHUP in
  // its threads (util/interrupt_cleanup.h), and a child inheriting that mask would
  // outlive an interrupted run.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  const int spawned = posix_spawnp(&pid, program.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    if (spawned == ENOENT) {
      throw InputError("cannot run \"" + program +
                       "\": not found (install gnuplot, e.g. the Debian package gnuplot-nox, or pass --no-charts)");
    }
    throw InputError("cannot run \"" + program + "\": " + std::strerror(spawned));
  }
  write_end.close();
  std::string output;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(read_end.fd, buffer, sizeof buffer);
    if (n > 0) {
      output.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw InputError(directory + "/" + script + ": gnuplot failed" +
                     (WIFEXITED(status) ? " (exit " + std::to_string(WEXITSTATUS(status)) + ")" : " (killed)") + ": " +
                     last_lines(output, 4));
  }
}

}  // namespace allocsim
