#include "allocsim/util/output_path.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim {

namespace fs = std::filesystem;

void check_output_path(const std::string& path, OutputKind kind, const std::string& what) {
  const fs::path target = fs::absolute(path).lexically_normal();
  std::error_code ec;
  const bool is_directory = fs::is_directory(target, ec);
  if (fs::exists(target, ec) && is_directory != (kind == OutputKind::directory)) {
    throw InputError(what + " " + printable(path) + ": " + (is_directory ? "is a directory" : "is not a directory"));
  }
  fs::path existing = target.parent_path();
  while (!fs::exists(existing, ec) && existing != existing.parent_path()) existing = existing.parent_path();
  if (!fs::is_directory(existing, ec)) {
    throw InputError(what + " " + printable(path) + ": " + existing.string() + " is not a directory");
  }
  if (::access(existing.c_str(), W_OK | X_OK) != 0) {
    throw InputError(what + " " + printable(path) + ": cannot write in " + existing.string() + ": " +
                     std::strerror(errno));
  }
}

}  // namespace allocsim
