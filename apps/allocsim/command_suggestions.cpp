#include "command_suggestions.h"

#include <string_view>
#include <vector>

#include "allocsim/util/did_you_mean.h"
#include "allocsim/util/printable.h"

namespace allocsim::cli {
namespace {

std::string unknown_option_hint(const CLI::App& command, int first, int argc, const char* const* argv) {
  std::vector<std::string> known;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) known.push_back("--" + name);
  }
  for (int i = first; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--") break;
    if (word.size() < 3 || word.substr(0, 2) != "--") continue;
    const std::string name(word.substr(0, word.find('=')));
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    return command.get_name() + ": unknown option " + printable(name) + did_you_mean(name, known);
  }
  return "";
}

}  // namespace

std::string command_line_hint(const CLI::App& app, int argc, const char* const* argv) {
  if (argc < 2 || argv[1][0] == '-') return "";
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name() != argv[1]) {
      names.push_back(sub->get_name());
      continue;
    }
    // A nested command (`trace generate`) has options of its own.
    const CLI::App* command = sub;
    int first = 2;
    for (bool deeper = true; deeper && first < argc;) {
      deeper = false;
      for (const CLI::App* nested : command->get_subcommands({})) {
        if (nested->get_name() != argv[first]) continue;
        command = nested;
        ++first;
        deeper = true;
        break;
      }
    }
    return unknown_option_hint(*command, first, argc, argv);
  }
  return "unknown command " + printable(argv[1]) + did_you_mean(argv[1], names) + " (`allocsim --help` lists them)";
}

}  // namespace allocsim::cli
