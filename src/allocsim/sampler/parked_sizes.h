#pragma once
// The requested sizes of a replay's observed events, read before Scheme::weigh uses
// them. Skip-ahead leaves the size column cold: each observation's size is a cache
// miss of its own. Read in a weigh loop whose body waits on exp, divisions and
// rounding, those misses follow one another; read in a loop that does nothing else,
// they are independent loads and the processor overlaps them (`perf annotate`: 87%
// of JemallocScheme::weigh on that one load, T = 512 KiB; docs/speed.md).
//
// Each size is parked, bit for bit, in one register of its observation's row; the
// weigh loop reads it first and must then overwrite that register in every row.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

template <std::size_t W>
void park_requested_sizes(const Trace& trace, std::span<const Observation> observations, const RegisterRows<W>& rows,
                          std::size_t parked) {
  for (std::size_t o = 0; o < observations.size(); ++o) {
    rows[o][parked] = std::bit_cast<double>(static_cast<std::uint64_t>(trace.requested[observations[o].event]));
  }
}

// Observation o's requested size, parked in register `parked` of its row.
template <class Row>
std::uint64_t parked_size(const Row& row, std::size_t parked) {
  return std::bit_cast<std::uint64_t>(row[parked]);
}

}  // namespace allocsim
