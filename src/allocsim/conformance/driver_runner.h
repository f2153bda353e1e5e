#pragma once
// Builds a system's driver (cached: rebuilt when a source is newer than the binary
// or the build command differs from the one in its stamp file) and runs it as K separate processes, a few at a time,
// each in its own working directory with its output captured.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/conformance/system.h"

namespace allocsim {

struct DriverPaths {
  std::string source_dir;  // the repository root (holds conformance/)
  std::string work_dir;    // build/conformance/<system>
};

// The driver binary, built if needed. InputError (with the compiler's last lines
// and the package to install) when the build fails, and naming the directory when
// the work directory cannot be created.
std::string build_driver(const ConformanceSystem& system, const DriverPaths& paths);

// Runs `runs` processes of `binary` on `plan_file`; returns each run's output file
// (run r's standard output). InputError naming the run and its error output when a
// process fails.
std::vector<std::string> run_drivers(const ConformanceSystem& system, const DriverPaths& paths,
                                     const std::string& binary, const std::string& plan_file, std::uint64_t rate,
                                     std::uint64_t runs, unsigned parallel);

}  // namespace allocsim
