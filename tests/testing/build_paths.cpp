// The only file compiled with this checkout's paths (tests/CMakeLists.txt).
#include "testing/build_paths.h"

namespace allocsim::testing {

const std::string& cli_binary() {
  static const std::string path = ALLOCSIM_CLI;
  return path;
}

const std::string& source_dir() {
  static const std::string path = ALLOCSIM_SOURCE_DIR;
  return path;
}

}  // namespace allocsim::testing
