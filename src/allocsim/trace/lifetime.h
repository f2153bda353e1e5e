#pragma once
// How long a synthetic allocation lives, as read from JSON
// ({"distribution": "exponential", "mean": 1000}). Lifetimes count allocation
// events (trace ticks): an allocation at time t with lifetime L is freed at
// t + L, and one whose free would come after the last event stays live at the end.
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "allocsim/json/json_reader.h"
#include "allocsim/random/random_stream.h"

namespace allocsim {

// Never freed: everything is live at the end of the trace.
struct ForeverLifetime {};
// round(X), halves up, X exponential with this mean: P(L >= k) = exp(-(k - 1/2) / mean), k >= 1.
struct ExponentialLifetime {
  double mean = 1;
};
// Exactly this many ticks.
struct ConstantLifetime {
  std::uint64_t allocations = 0;
};
// Every integer in [min, max] equally likely.
struct UniformLifetime {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

// Allocation k (0-based, over the whole trace) lives ticks[k mod ticks.size()], like
// a "sequence" of sizes: a loop whose allocations are freed on a fixed schedule
// (kNeverFreed: "forever").
struct SequenceLifetime {
  std::vector<std::uint64_t> ticks;
};

using Lifetime =
    std::variant<ForeverLifetime, ExponentialLifetime, ConstantLifetime, UniformLifetime, SequenceLifetime>;

// Reads "distribution" and that family's keys from `object`, then finishes it.
Lifetime parse_lifetime(JsonObject& object);

// free_time[i] = time[i] + L_i, or kNeverFreed where that lies after `end`, the
// time of the trace's last event (the spans may be a piece of the trace, whose first
// allocation is allocation `first` of the trace). Both spans have the same length;
// time is non-decreasing.
void fill_free_times(const Lifetime& lifetime, std::span<const std::uint64_t> time, std::uint64_t end,
                     std::span<std::uint64_t> free_time, RandomStream& random, std::uint64_t first = 0);

}  // namespace allocsim
