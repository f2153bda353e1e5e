// The only benchmark file compiled with this checkout's paths (bench/CMakeLists.txt).
#include "bench_paths.h"

namespace allocsim::bench {

const std::string& source_dir() {
  static const std::string path = ALLOCSIM_SOURCE_DIR;
  return path;
}

}  // namespace allocsim::bench
