#include "allocsim/report/gnuplot_runner.h"

#include <cstdlib>
#include <optional>

#include "allocsim/util/child_process.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

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
  const std::optional<ProgramOutput> run = run_program({program, "-e", preamble, script}, directory);
  if (!run) {
    throw InputError("cannot run \"" + program +
                     "\": not found (install gnuplot, e.g. the Debian package gnuplot-nox, or pass --no-charts)");
  }
  if (!run->exited || run->exit_code != 0) {
    throw InputError(directory + "/" + script + ": gnuplot failed" +
                     (run->exited ? " (exit " + std::to_string(run->exit_code) + ")" : " (killed)") + ": " +
                     last_lines(run->output, 4));
  }
}

}  // namespace allocsim
