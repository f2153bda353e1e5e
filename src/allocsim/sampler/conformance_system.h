#pragma once
// A real allocation sampler allocsim can drive on this machine: how its driver
// (conformance/<name>/ in the repository) is built and run, and which parameters
// and estimator of its scheme model it. Each system declares its drivers in its own
// folder (sampler/systems/<name>/<name>_driver.cpp) through SchemeDescriptor's
// `conformance`; the conformance layer runs them.
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
  average_size,  // jeprof / pprof: bytes / (1 - exp(-(bytes/objects)/R)) per line
};

struct ConformanceSystem {
  std::string name;
  std::string summary;
  std::string packages;                  // Debian packages the driver needs
  std::vector<std::string> sources;      // driver files, relative to the repository root
  std::string binary;                    // the built driver (file or folder) under build/conformance/<name>/
  std::string build;                     // shell command; {src} {out} {dir} are substituted
  std::string run;                       // shell command; {bin} {plan} {work} {rate} {lg_rate} substituted
  bool rate_power_of_two = false;        // jemalloc: lg_prof_sample
  bool samples_include_freed = true;     // sample lines list freed allocations too
  bool records_allocated_sizes = false;  // size lines feed the trace's allocated column
  // Sample lines carry the object's size (false: the tool records none, as JFR 17's
  // jdk.ObjectAllocationSample, so requested and usable are 0 and neither the sizes
  // of the samples nor which size of a site they land on are compared).
  bool samples_have_sizes = true;
  ProfileScaling scaling = ProfileScaling::none;
  // Each sampled object is a line of the profile (gperftools' heap sample), so the
  // per-line scaling can be rewritten from the samples alone.
  bool one_line_per_sample = false;
  nlohmann::json scheme_parameters = nlohmann::json::object();  // without the rate (added from --rate)
  std::string estimator = "bytes";                              // the model estimator matching the tool's estimate
  // Model parameters that depend on what the driver measured (its meta lines of the
  // first run); none by default.
  std::function<void(nlohmann::json& parameters, const std::map<std::string, std::string>& meta)> from_meta;
  std::uint64_t default_rate = 131072;
  // The driver's raw standard output rewritten as the CSV lines of
  // conformance/driver_output.h (JFR: meta lines, then `jfr print --json`); empty: the
  // driver writes those lines itself. InputError on output it cannot read.
  std::function<std::string(const std::string& output)> translate_output;
  // Why processes may repeat another's sample list exactly (a seed of few bits); empty:
  // every run must differ, or the verdict fails. Repeats are counted either way.
  std::string repeated_runs_expected;

  // The name under which the rate is given to the model (one of the rate parameter's
  // names); empty: the descriptor's rate parameter, filled in by the registry.
  std::string rate_parameter;
  // The modelling scheme: filled in by the registry from the system's descriptor.
  std::string scheme;
};

// Native drivers: frame pointers and exported, non-merged site functions, so each
// sampled stack resolves to its site with dladdr.
inline constexpr const char* kNativeDriverFlags =
    "g++ -std=c++20 -O1 -fno-inline -fno-ipa-icf -fno-optimize-sibling-calls -fno-omit-frame-pointer -rdynamic";

// The driver's meta value `key` as an integer in [0, max]; InputError naming the key
// and the bound otherwise.
std::uint64_t driver_meta_uint(const std::map<std::string, std::string>& meta, const std::string& key,
                               std::uint64_t max);

}  // namespace allocsim
