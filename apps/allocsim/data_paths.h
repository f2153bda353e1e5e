#pragma once
// Where `allocsim conformance` finds the driver sources (conformance/) and builds
// the drivers. Run from its build tree, the executable uses the checkout and build
// tree compiled into it; installed as <prefix>/bin/allocsim, it uses
// <prefix>/share/allocsim and a cache directory (${XDG_CACHE_HOME:-~/.cache}/allocsim).
#include <string>

namespace allocsim::cli {

struct DataPaths {
  std::string source_dir;  // holds conformance/
  std::string build_dir;   // drivers go under <build_dir>/conformance/
};

DataPaths data_paths();

}  // namespace allocsim::cli
