#pragma once
// Which random stream each Monte Carlo in allocsim draws from: the stream id of a
// StreamKey (random_stream.h). The experiment's replications of scheme s at sweep
// point p use stream_id(p, s); every other purpose has its own id here, in one
// place, so that no two purposes draw the same numbers by accident. The values are
// those every committed result was made with: changing one changes results.
#include <cstdint>

#include "allocsim/random/random_stream.h"

namespace allocsim {

enum class StreamPurpose : std::uint64_t {
  // A synthetic trace's aspects: the aspect's number (1..5) is or-ed into the low
  // bits of this tag ("synth\0\0\0"), the chunk is the replication.
  synthetic_trace = 0x73796E7468000000,
  // Not a stream: mixed with a scenario's seed into the seed of its synthetic traces
  // that fix none ("trac").
  synthetic_trace_seed = 0x74726163,
  advice_check = stream_id(0x61647669 /* "advi" */, 0),
  margins_check = 0x6d617267,           // "marg"
  profile_rank_stability = 0x70726f66,  // "prof"
  conformance_model = 0xC0FF0E,
  conformance_simulation = 0x51A1A7ED,
};

constexpr std::uint64_t stream_of(StreamPurpose purpose) { return static_cast<std::uint64_t>(purpose); }

}  // namespace allocsim
