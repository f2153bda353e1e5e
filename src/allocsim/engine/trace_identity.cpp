#include "allocsim/engine/trace_identity.h"

#include <set>
#include <stdexcept>
#include <variant>

#include "allocsim/trace/format/mapped_file.h"
#include "allocsim/trace/format/xxhash64.h"

namespace allocsim {
namespace {

TraceIdentity identity_of(const SweepPoint& point, std::size_t index, std::uint64_t seed) {
  if (const auto* file = std::get_if<FileTraceSpec>(&point.trace.spec)) {
    const MappedFile bytes(file->path);
    if (file->heaptrack.names_from.empty()) return {file->path, xxhash64(bytes.data(), bytes.size())};
    // Names from a second file are part of the trace: a part file binds both.
    const MappedFile names(file->heaptrack.names_from);
    Xxhash64 hash;
    hash.update(bytes.data(), bytes.size());
    hash.update(names.data(), names.size());
    return {file->path + " named by " + file->heaptrack.names_from, hash.digest()};
  }
  if (std::holds_alternative<SyntheticSpec>(point.trace.spec)) {
    // The spec and the seed decide every event (synthetic.h).
    Xxhash64 hash;
    hash.update(point.trace_key.data(), point.trace_key.size());
    hash.update(&seed, sizeof seed);
    return {"synthetic trace of sweep point " + std::to_string(index), hash.digest()};
  }
  // Only Python puts traces in memory, and it writes no part files.
  throw std::logic_error("a trace held in memory has no identity a part file could bind");
}

}  // namespace

std::vector<TraceIdentity> trace_identities(const Scenario& scenario) {
  std::vector<TraceIdentity> identities;
  std::set<std::string> seen;
  for (std::size_t p = 0; p < scenario.points.size(); ++p) {
    if (seen.insert(scenario.points[p].trace_key).second) {
      identities.push_back(identity_of(scenario.points[p], p, scenario.seed));
    }
  }
  return identities;
}

}  // namespace allocsim
