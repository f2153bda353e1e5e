#include "data_paths.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace allocsim::cli {
namespace {

namespace fs = std::filesystem;

std::string cache_directory() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return (fs::path(xdg) / "allocsim").string();
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return (fs::path(home) / ".cache" / "allocsim").string();
  }
  return (fs::temp_directory_path() / "allocsim").string();
}

}  // namespace

DataPaths data_paths() {
  const DataPaths compiled_in{ALLOCSIM_SOURCE_DIR, ALLOCSIM_BUILD_DIR};
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (error) return compiled_in;
  const fs::path bin = executable.parent_path();
  if (fs::equivalent(bin, fs::path(ALLOCSIM_BUILD_DIR) / "bin", error)) return compiled_in;
  const fs::path share = bin.parent_path() / "share" / "allocsim";
  if (!fs::is_directory(share / "conformance", error)) return compiled_in;
  return {share.string(), cache_directory()};
}

}  // namespace allocsim::cli
