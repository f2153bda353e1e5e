#pragma once
// A partial-state file: the exact accumulator states of some of a scenario's work
// units (a shard's share, or an MPI rank's), with a header naming the scenario, so
// that `allocsim merge` rebuilds results bit-identical to a single-process run.
//
// Layout (host byte order, checked by a marker): magic "ALLOCSIM-PART\n", format
// version, byte-order marker; allocsim version; scenario hash, seed, replications,
// replay mode, scenario source and document; shard K, N; the scenario's unit count;
// the identity of each of the scenario's traces (engine/trace_identity.h: its name,
// then its hash); the part's units, each its index then its BlockResult; an FNV-1a
// checksum of all the bytes before it.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/engine/scheme_evaluator.h"
#include "allocsim/engine/trace_identity.h"
#include "allocsim/engine/work_units.h"
#include "allocsim/scenario/scenario.h"

namespace allocsim {

struct PartHeader {
  std::string allocsim_version;
  std::uint64_t scenario_hash = 0;
  std::uint64_t seed = 0;
  std::uint64_t replications = 0;
  ReplayMode replay = ReplayMode::skip_ahead;
  std::string source;    // the scenario's file name, as given
  std::string document;  // the scenario's JSON text
  Shard shard;
  std::uint64_t scenario_units = 0;   // in plan_work_units(scenario)
  std::vector<TraceIdentity> traces;  // trace_identities(scenario) when the part was made
};

struct PartialState {
  PartHeader header;
  std::vector<std::uint64_t> units;  // indices into plan_work_units, increasing
  std::vector<BlockResult> results;  // one per unit
};

// What identifies a scenario's results: its document, source, seed, replications
// and replay mode (FNV-1a, 64 bits).
std::uint64_t scenario_hash(const Scenario& scenario);

// Reads every trace file of the scenario to hash it (trace_identities).
PartHeader part_header(const Scenario& scenario, Shard shard);

std::string encode_partial_state(const PartialState& state);
// A malformed, truncated or corrupt file is an InputError naming `where`.
PartialState decode_partial_state(const std::string& bytes, const std::string& where);

// Rewrites the last 8 bytes as the checksum of the bytes before them: what a
// forged file does, so that tests and the fuzz target reach the checks behind
// the checksum. Files shorter than 8 bytes are left as they are.
void seal_partial_state(std::string& bytes);

// The scenario a part was made from, parsed again with its overrides.
Scenario scenario_of(const PartHeader& header);

}  // namespace allocsim
