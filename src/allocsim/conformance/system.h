#pragma once
// A real allocation sampler allocsim can drive on this machine: how its driver
// (conformance/<name>/ in the repository) is built and run, and which allocsim
// scheme, with which parameters and estimator, models it.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace allocsim {

// How the tool's profile lines (per stack: objects, bytes as written) become its
// estimate of a site's live bytes.
enum class ProfileScaling {
  none,          // the driver reports the estimate itself ("estimate" lines)
  average_size,  // jeprof / pprof: bytes / (1 - exp(-(bytes/objects)/R)) per stack
};

struct ConformanceSystem {
  std::string name;
  std::string summary;
  std::string packages;                    // Debian packages the driver needs
  std::vector<std::string> sources;        // driver files, relative to the repository root
  std::string binary;                      // the built driver (file or folder) under build/conformance/<name>/
  std::string build;                       // shell command; {src} {out} {dir} are substituted
  std::string run;                         // shell command; {bin} {plan} {work} {rate} {lg_rate} substituted
  bool rate_power_of_two = false;          // jemalloc: lg_prof_sample
  bool samples_include_freed = true;       // sample lines list freed allocations too
  bool records_allocated_sizes = false;    // size lines feed the trace's allocated column
  ProfileScaling scaling = ProfileScaling::none;
  std::string scheme;                      // allocsim's model
  nlohmann::json scheme_parameters;        // without the rate (added from --rate)
  std::string rate_parameter = "rate";     // the scheme's name for the rate
  std::string estimator;                   // the model estimator matching the tool's estimate
  // Model parameters that depend on what the driver measured (its meta lines of the
  // first run); none by default.
  std::function<void(nlohmann::json& parameters, const std::map<std::string, std::string>& meta)> from_meta;
  std::uint64_t default_rate = 0;
  // Why processes may repeat another's sample list exactly (a seed of few bits); empty:
  // every run must differ, or the verdict fails. Repeats are counted either way.
  std::string repeated_runs_expected;
};

const std::vector<ConformanceSystem>& conformance_systems();
// nullptr if unknown.
const ConformanceSystem* find_conformance_system(const std::string& name);

}  // namespace allocsim
