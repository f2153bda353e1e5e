#include "allocsim/util/staged_directory.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "allocsim/util/atomic_file.h"
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

// ".<name>.tmp.<pid>" (and ".old" after it) siblings of `target` left by processes
// that no longer exist.
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
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ec);
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

}  // namespace

StagedDirectory::StagedDirectory(const std::string& target)
    : target_(without_trailing_separator(target)),
      staging_((fs::path(parent_of(target_)) / (staging_prefix(target_) + std::to_string(::getpid()))).string()),
      // Created while an interrupt is held back: the interrupt's clean-up either
      // runs before (and nothing is created) or after (and removes the staging).
      cleanup_(staging_, [this] { create_staging(); }) {}

void StagedDirectory::create_staging() const {
  const std::string parent = parent_of(target_);
  create_output_directory(parent);
  remove_abandoned_siblings(parent, target_);
  std::error_code ec;
  fs::remove_all(staging_, ec);
  if (!fs::create_directory(staging_, ec) || ec) {
    throw InputError(target_ + ": cannot create directory: " + (ec ? ec.message() : "exists"));
  }
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
    if (!fs::exists(target_, ec)) {
      fs::rename(staging_, target_, ec);
      if (ec) throw InputError(target_ + ": cannot create: " + ec.message());
      return;
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
  if (!retired.empty()) fs::remove_all(retired, ec);
}

}  // namespace allocsim
