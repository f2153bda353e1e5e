#include "allocsim/util/staged_directory.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "allocsim/util/error.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;

const std::string kTemporaryInfix = ".tmp.";

// Appended piece by piece: "." + name draws a GCC 12 -Wrestrict false positive.
std::string staging_prefix(const std::string& target) {
  std::string prefix = ".";
  prefix += fs::path(target).filename().string();
  prefix += kTemporaryInfix;
  return prefix;
}

bool is_empty_directory(const fs::path& path) {
  std::error_code ec;
  return fs::symlink_status(path, ec).type() == fs::file_type::directory && fs::is_empty(path, ec) && !ec;
}

// ".<name>.tmp.<pid>" (and ".old" after it) siblings of `target` left by processes
// that no longer exist. Each is removed only if allocsim wrote it: it holds the
// marker, or it is empty (a process killed between creating it and the marker).
void remove_abandoned_siblings(const std::string& parent, const std::string& target) {
  const std::string prefix = staging_prefix(target);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    const std::string digits = rest.substr(0, rest.find_first_not_of("0123456789"));
    if (digits.empty() || digits.size() > 9 || (rest != digits && rest != digits + ".old")) continue;
    const long pid = std::stol(digits);
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    if (written_by_allocsim(entry.path()) || is_empty_directory(entry.path())) fs::remove_all(entry.path(), ec);
  }
}

// "a/./b/" as "a/b": the path a rename takes.
std::string without_trailing_separator(const std::string& path) {
  fs::path normal = fs::path(path).lexically_normal();
  if (!normal.has_filename() && normal.has_parent_path()) normal = normal.parent_path();
  return normal.string();
}

std::string parent_of(const std::string& target) {
  const fs::path parent = fs::path(target).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

std::string checked_target(const std::string& target, const InputPaths& inputs, const std::string& what) {
  check_results_directory(target, inputs, what);
  return without_trailing_separator(target);
}

}  // namespace

bool is_staged_directory_name(const std::string& name) {
  const std::size_t infix = name.rfind(kTemporaryInfix);
  if (name.empty() || name.front() != '.' || infix == std::string::npos || infix == 0) return false;
  std::string rest = name.substr(infix + kTemporaryInfix.size());
  if (rest.size() > 4 && rest.ends_with(".old")) rest.resize(rest.size() - 4);
  return !rest.empty() && rest.find_first_not_of("0123456789") == std::string::npos;
}

StagedDirectory::StagedDirectory(const std::string& target, const InputPaths& inputs, const std::string& written_by,
                                 const std::string& what)
    : target_(checked_target(target, inputs, what)),
      what_(what),
      staging_((fs::path(parent_of(target_)) / (staging_prefix(target_) + std::to_string(::getpid()))).string()),
      // Created while an interrupt is held back: the interrupt's clean-up either
      // runs before (and nothing is created) or after (and removes the staging).
      cleanup_(staging_, [&] { create_staging(written_by); }) {}

void StagedDirectory::create_staging(const std::string& written_by) const {
  const std::string parent = parent_of(target_);
  std::error_code ec;
  fs::create_directory(parent, ec);  // only the one directory that holds results directories
  if (ec) throw InputError(what_ + " \"" + parent + "\": cannot create directory: " + ec.message());
  remove_abandoned_siblings(parent, target_);
  if (fs::exists(staging_, ec)) {  // a sibling of this very pid: an earlier staging of this process
    if (!written_by_allocsim(staging_) && !is_empty_directory(staging_)) {
      throw InputError(staging_ + ": exists and was not written by allocsim; remove it");
    }
    fs::remove_all(staging_, ec);
  }
  if (!fs::create_directory(staging_, ec) || ec) {
    throw InputError(target_ + ": cannot create directory: " + (ec ? ec.message() : "exists"));
  }
  // Written directly: this runs with the interrupt registry held (no nested registration).
  std::ofstream marker(fs::path(staging_) / kResultsMarker, std::ios::binary);
  marker << results_marker_text(written_by);
  if (!marker.flush()) throw InputError(staging_ + ": cannot write " + kResultsMarker);
}

StagedDirectory::~StagedDirectory() {
  if (committed_) return;
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

void StagedDirectory::commit() {
  std::error_code ec;
  std::string retired;  // where the old content is left, to be removed after the commit
  // Where the old content may be left stays registered until it is removed: an
  // interrupt after the swap then removes the old content, not just the staging.
  const RemovedOnInterrupt retired_by_swap(staging_);
  const RemovedOnInterrupt retired_aside(staging_ + ".old");
  cleanup_.commit([&] {
    // A new directory takes the name only while nothing has it (another process may
    // have put its results there since the check).
    if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE) == 0) return;
    const int error = errno;
    if (error == EINVAL && !fs::exists(target_, ec)) {  // a file system without RENAME_NOREPLACE
      fs::rename(staging_, target_, ec);
      if (ec) throw InputError(target_ + ": cannot create: " + ec.message());
      return;
    }
    if (error != EEXIST && error != ENOTEMPTY && error != EINVAL) {
      throw InputError(target_ + ": cannot create: " + std::strerror(error));
    }
    if (!written_by_allocsim(target_)) {
      throw InputError(what_ + " \"" + target_ + "\": exists and was not written by allocsim (it has no " +
                       kResultsMarker + " file); remove it or choose another " + what_);
    }
    // Linux swaps two paths in one step (renameat2 RENAME_EXCHANGE); where the file
    // system cannot, the old content is moved aside first.
    if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) == 0) {
      retired = staging_;
      return;
    }
    retired = staging_ + ".old";
    fs::rename(target_, retired, ec);
    if (ec) throw InputError(target_ + ": cannot replace: " + ec.message());
    fs::rename(staging_, target_, ec);
    if (ec) {
      std::error_code ignored;
      fs::rename(retired, target_, ignored);
      throw InputError(target_ + ": cannot replace: " + ec.message());
    }
  });
  committed_ = true;
  if (!retired.empty() && written_by_allocsim(retired)) fs::remove_all(retired, ec);
}

}  // namespace allocsim
