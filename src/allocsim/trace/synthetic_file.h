#pragma once
// A synthetic trace written straight to a native file, piece by piece: the file
// holds exactly the trace generate_synthetic makes, in the memory of one piece,
// so a trace of 10^9 allocations is written on a machine that could not hold it.
#include <cstdint>
#include <string>

#include "allocsim/trace/synthetic.h"

namespace allocsim {

inline constexpr std::size_t kSyntheticPieceEvents = std::size_t{1} << 22;

struct SyntheticFileSummary {
  std::uint64_t events = 0;
  std::uint32_t stacks = 0;
  std::uint32_t threads = 0;
};

// Written atomically. Rules that number their ids only once every event is known
// (random, size_bucket, component, by_size) make the events twice: once to see
// which ids occur, once to write them. Byte totals past kMaxTraceBytes are an
// InputError naming `where`, and nothing is written.
SyntheticFileSummary write_synthetic_native(const SyntheticSpec& spec, std::uint64_t seed, const std::string& path,
                                            const std::string& where, std::size_t piece_events = kSyntheticPieceEvents);

}  // namespace allocsim
