#include "allocsim/util/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
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

}  // namespace

std::optional<ProgramOutput> run_program(const std::vector<std::string>& argv, const std::string& directory) {
  int pipe_fds[2];
  // Both ends close on exec: a program started at the same time from another thread
  // must not inherit this pipe (its reader would wait for that program to end too).
  // The child's standard output and error are copies made by dup2, which stay open.
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw InputError(std::string("cannot create a pipe: ") + std::strerror(errno));
  Fd read_end{pipe_fds[0]}, write_end{pipe_fds[1]};

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // A program that could not be told where to run would write its files into this
  // process's directory instead: refuse to start it.
  const int prepared = (directory.empty() ? 0 : posix_spawn_file_actions_addchdir_np(&actions, directory.c_str())) |
                       posix_spawn_file_actions_adddup2(&actions, write_end.fd, STDOUT_FILENO) |
                       posix_spawn_file_actions_adddup2(&actions, write_end.fd, STDERR_FILENO) |
                       posix_spawn_file_actions_addclose(&actions, read_end.fd);
  if (prepared != 0) {
    posix_spawn_file_actions_destroy(&actions);
    throw InputError("cannot prepare to run \"" + argv.at(0) + "\"");
  }
  std::vector<std::string> words = argv;
  std::vector<char*> pointers;
  for (auto& word : words) pointers.push_back(word.data());
  pointers.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, words.at(0).c_str(), &actions, &attributes, pointers.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned == ENOENT) return std::nullopt;
  if (spawned != 0) throw InputError("cannot run \"" + words[0] + "\": " + std::strerror(spawned));
  write_end.close();
  // The child is waited for however reading ends: at its end of output, on a read
  // error, or by an exception (no memory for its output), so it never stays a
  // zombie; the read end closes first, so a child still writing gets SIGPIPE
  // instead of blocking on a full pipe while it is waited for.
  int status = 0;
  auto reap = [&] {
    read_end.close();
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  };
  ProgramOutput result;
  try {
    char buffer[4096];
    for (;;) {
      const ssize_t n = ::read(read_end.fd, buffer, sizeof buffer);
      if (n > 0) {
        result.output.append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        break;
      }
    }
  } catch (...) {
    reap();
    throw;
  }
  reap();
  result.exited = WIFEXITED(status);
  result.exit_code = result.exited ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace allocsim
