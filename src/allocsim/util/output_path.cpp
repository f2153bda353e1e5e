#include "allocsim/util/output_path.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/printable.h"
#include "allocsim/util/staged_directory.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;

// Directories whose content belongs to the operating system: nothing inside them
// is an output, whatever its name.
constexpr std::array<const char*, 13> kSystemDirectories = {
    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/run", "/sbin", "/sys", "/usr"};

// `path` made absolute, normal, with its existing part's links resolved and no
// trailing separator: the one spelling two names of the same place share.
fs::path resolved(const fs::path& path) {
  std::error_code ec;
  fs::path result = fs::weakly_canonical(fs::absolute(path), ec);
  if (ec) result = fs::absolute(path).lexically_normal();
  if (!result.has_filename() && result.has_relative_path()) result = result.parent_path();
  return result;
}

// True if `inner` is `outer` or lies below it (both resolved).
bool is_within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // the empty last element of "/"
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

// Why `place` (resolved) is no place for an output, or "" if it is one. The root
// and its direct children (/home, /tmp, /mnt, ...) hold everybody's data.
std::string forbidden_place(const fs::path& place) {
  if (place == place.root_path()) return "the filesystem root";
  for (const char* system : kSystemDirectories) {
    if (is_within(place, system)) return std::string("inside the system directory ") + system;
  }
  if (place.parent_path() == place.root_path()) return "a top-level directory";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0' && place == resolved(home)) {
    return "the home directory";
  }
  return "";
}

void check_writable_parent(const std::string& path, const fs::path& parent, const std::string& what) {
  std::error_code ec;
  if (!fs::exists(parent, ec)) {
    throw InputError(what + " " + printable(path) + ": " + printable_unquoted(parent.string()) +
                     " does not exist (allocsim does not create it); create it or choose another " + what);
  }
  if (!fs::is_directory(parent, ec)) {
    throw InputError(what + " " + printable(path) + ": " + printable_unquoted(parent.string()) + " is not a directory");
  }
  if (::access(parent.c_str(), W_OK | X_OK) != 0) {
    throw InputError(what + " " + printable(path) + ": cannot write in " + printable_unquoted(parent.string()) + ": " +
                     std::strerror(errno));
  }
}

}  // namespace

InputPaths::InputPaths(std::initializer_list<std::string> paths) {
  for (const std::string& path : paths) add(path);
}

void InputPaths::add(const std::string& path) {
  if (!path.empty()) inputs_.push_back({path, resolved(path)});
}

void InputPaths::add_all(const InputPaths& others) {
  inputs_.insert(inputs_.end(), others.inputs_.begin(), others.inputs_.end());
}

const std::string* InputPaths::held_by(const fs::path& path) const {
  const fs::path place = resolved(path);
  for (const Input& input : inputs_) {
    if (is_within(input.resolved, place)) return &input.given;
  }
  return nullptr;
}

const std::string* InputPaths::same_file_as(const fs::path& path) const {
  std::error_code ec;
  const fs::path place = resolved(path);
  for (const Input& input : inputs_) {
    if (input.resolved == place || fs::equivalent(input.resolved, place, ec)) return &input.given;
  }
  return nullptr;
}

std::string results_marker_text(const std::string& written_by) {
  // Appended piece by piece: one long + chain draws a GCC 12 -Wstringop-overflow false positive.
  std::string text = "allocsim ";
  text += ALLOCSIM_VERSION;
  text += " wrote this directory (";
  text += written_by;
  text += ").\n";
  text += "allocsim replaces a directory whole only while it holds this file; delete the file to keep\n";
  text += "the directory from being replaced.\n";
  return text;
}

bool written_by_allocsim(const fs::path& path) {
  std::error_code ec;
  return fs::symlink_status(path, ec).type() == fs::file_type::directory &&
         fs::symlink_status(path / kResultsMarker, ec).type() == fs::file_type::regular;
}

void check_output_file(const std::string& path, const InputPaths& inputs, const std::string& what) {
  const fs::path place = resolved(path);
  std::error_code ec;
  if (fs::is_directory(place, ec)) throw InputError(what + " " + printable(path) + ": is a directory");
  if (const std::string* input = inputs.same_file_as(place)) {
    throw InputError(what + " " + printable(path) + ": is " +
                     (*input == path ? "an input" : "the input " + printable(*input)) +
                     " of this command; allocsim does not overwrite its inputs, choose another " + what);
  }
  if (const std::string why = forbidden_place(place.parent_path()); !why.empty()) {
    throw InputError(what + " " + printable(path) + ": " + printable_unquoted(place.parent_path().string()) + " is " +
                     why + "; allocsim writes no file there");
  }
  check_writable_parent(path, fs::absolute(path).lexically_normal().parent_path(), what);
  // What access() cannot tell (a name too long for the file system; permissions,
  // which root's access() ignores; a temporary name someone else holds): the
  // temporary file the output will be written through, made and removed now.
  const std::string temporary = temporary_path_for(path);
  std::FILE* probe = nullptr;
  const RemovedOnInterrupt cleanup(temporary,
                                   [&] { probe = create_temporary_file(temporary, what + " " + printable(path)); });
  std::fclose(probe);
  std::remove(temporary.c_str());
}

void check_output_files(const std::vector<OutputFile>& outputs, const InputPaths& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].path.empty()) continue;
    check_output_file(outputs[i].path, inputs, outputs[i].flag);
    for (std::size_t j = 0; j < i; ++j) {
      if (!outputs[j].path.empty() && InputPaths{outputs[j].path}.same_file_as(outputs[i].path) != nullptr) {
        throw InputError(outputs[i].flag + " " + printable(outputs[i].path) + ": is also " + outputs[j].flag +
                         "; give the two outputs different paths");
      }
    }
  }
}

void check_outside_results_directory(const std::string& path, const std::string& directory, const std::string& what) {
  if (is_within(resolved(path), resolved(directory))) {
    throw InputError(what + " " + printable(path) + ": lies in the results directory " + printable(directory) +
                     ", which this command writes whole; choose a path outside it");
  }
}

void check_results_directory(const std::string& path, const InputPaths& inputs, const std::string& what) {
  const fs::path place = resolved(path);
  const std::string named = what + " " + printable(path) + ": ";
  if (const std::string why = forbidden_place(place); !why.empty()) {
    throw InputError(named + printable_unquoted(place.string()) + " is " + why + "; allocsim never replaces it");
  }
  std::error_code ec;
  if (is_within(resolved(fs::current_path(ec)), place)) {
    throw InputError(named + printable_unquoted(place.string()) + " holds the current directory; choose another " +
                     what);
  }
  if (const std::string* input = inputs.held_by(place)) {
    throw InputError(named + printable_unquoted(place.string()) + " holds " + printable(*input) +
                     ", an input of this command; choose another " + what);
  }
  const fs::path given = fs::absolute(path).lexically_normal();
  const fs::path own = given.has_filename() ? given : given.parent_path();
  if (is_staged_directory_name(own.filename().string())) {
    throw InputError(
        named + "names of the form .<name>.tmp.<number> are allocsim's staged directories; choose another " + what);
  }
  const fs::file_type type = fs::symlink_status(own, ec).type();
  if (type == fs::file_type::symlink) {
    throw InputError(named + printable_unquoted(own.string()) +
                     " is a symbolic link; allocsim replaces only a directory of its own there, remove the link or "
                     "choose another " +
                     what);
  }
  if (type != fs::file_type::not_found && !written_by_allocsim(own)) {
    throw InputError(named + printable_unquoted(place.string()) +
                     " exists and was not written by allocsim (it has no " + kResultsMarker +
                     " file); remove it or choose another " + what);
  }
  // The directory that holds results directories may be created, one level only.
  const fs::path parent = place.parent_path();
  if (!fs::exists(parent, ec)) {
    check_writable_parent(path, parent.parent_path(), what);
  } else {
    check_writable_parent(path, parent, what);
  }
}

}  // namespace allocsim
