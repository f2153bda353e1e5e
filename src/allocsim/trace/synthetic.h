#pragma once
// Synthetic traces described in JSON: a number of allocations, their size
// distribution, how they spread over threads, stacks and types, how long they
// live and how the allocator rounds them. Schema: schema/synthetic-trace.schema.json.
//
// Event i happens at time i. Each aspect draws from its own random stream
// (seed, purpose), so changing, say, the stack rule leaves the sizes unchanged;
// each chunk of 4096 events of an aspect from its own part of that stream, so the
// chunks are drawn on every thread and give the same trace on any number of them.
#include <cstdint>
#include <optional>

#include "allocsim/json/json_reader.h"
#include "allocsim/trace/group_rule.h"
#include "allocsim/trace/lifetime.h"
#include "allocsim/trace/size_distribution.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline constexpr std::uint64_t kMaxSyntheticAllocations = 2'000'000'000;
inline constexpr std::uint32_t kMaxSyntheticThreads = std::uint32_t{1} << 20;

enum class ThreadAssignment {
  round_robin,  // event i on thread i mod threads
  random,       // each event on an independent uniformly drawn thread
  blocks,       // contiguous equal chunks: event i on thread floor(i * threads / allocations)
};

// What the allocator hands out for a request of s bytes.
struct AllocatedRounding {
  enum class Kind {
    none,          // unknown: Trace::allocated stays empty
    align,         // s rounded up to a multiple of alignment (0 stays 0)
    power_of_two,  // the smallest power of two >= s (1 for s = 0)
  };
  Kind kind = Kind::none;
  std::uint64_t alignment = 1;
};

struct SyntheticSpec {
  std::uint64_t allocations = 1;
  std::uint32_t threads = 1;
  ThreadAssignment thread_assignment = ThreadAssignment::round_robin;
  SizeDistribution sizes;
  GroupRule stacks;
  GroupRule types;
  Lifetime lifetime;
  AllocatedRounding allocated;
  std::optional<std::uint64_t> seed;  // overrides the seed given to generate_synthetic
};

// The events of a synthetic trace made piece by piece, in order: the same events
// as generate_synthetic, in the memory of one piece. Stack and type ids come raw,
// for group_rule.h to number once the whole trace is known.
struct SyntheticPiece {
  Trace events;                      // every column but stack and type
  std::vector<std::uint64_t> sizes;  // the requested sizes as drawn
  std::vector<std::uint32_t> raw_stacks, raw_types;
};

class SyntheticEvents {
 public:
  SyntheticEvents(const SyntheticSpec& spec, std::uint64_t seed);
  std::uint64_t left() const { return spec_.allocations - generated_; }
  // The next min(count, left()) events; with threads > 1 the aspects are drawn at
  // the same time (the same events: each has its own stream).
  void next(std::size_t count, SyntheticPiece& piece, unsigned threads = 1);

 private:
  const SyntheticSpec& spec_;
  std::uint64_t seed_;
  std::uint64_t generated_ = 0;
  SizeSampler sizes_;
  RandomStream size_random_, thread_random_, stack_random_, type_random_, lifetime_random_;
  RawGroupIds stacks_, types_;
};

// Where the trace goes: into memory (its size is checked against this machine's
// memory) or piece by piece into a file (synthetic_file.h).
enum class SyntheticTarget { memory, file };

// Reads every key of `spec` except "kind" (which the caller reads first), then finishes it.
SyntheticSpec parse_synthetic_spec(JsonObject& spec, SyntheticTarget target = SyntheticTarget::memory);

// Deterministic in (spec, seed); the result passes Trace::validate. Sizes are drawn,
// so their total is known only after: past kMaxTraceBytes it is an InputError
// naming `where` (the spec's JSON path).
Trace generate_synthetic(const SyntheticSpec& spec, std::uint64_t seed, const std::string& where = "$.trace",
                         unsigned threads = 1);

// What generate_synthetic(spec, seed, where) would refuse for its byte totals, found
// by drawing the sizes alone (none when no draw could pass the limit), so that a
// command running several scenarios refuses one before it writes the others.
void check_synthetic_byte_totals(const SyntheticSpec& spec, std::uint64_t seed, const std::string& where);

}  // namespace allocsim
