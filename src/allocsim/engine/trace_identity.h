#pragma once
// What a part file binds each trace of its scenario by, so that `merge` refuses
// parts run on other traces, or on a trace file changed since the shards ran.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/scenario/scenario.h"

namespace allocsim {

struct TraceIdentity {
  std::string name;        // the trace file's path, or "synthetic trace of sweep point P"
  std::uint64_t hash = 0;  // XXH64 of the file's bytes, or of the resolved spec and the scenario seed
};

// One per distinct trace of the scenario (by trace_key), in the order of the
// points that first use them. A trace file that cannot be read is an InputError.
std::vector<TraceIdentity> trace_identities(const Scenario& scenario);

}  // namespace allocsim
