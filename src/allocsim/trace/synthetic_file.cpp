#include "allocsim/trace/synthetic_file.h"

#include "allocsim/trace/format/atomic_output.h"
#include "allocsim/trace/format/native_trace.h"

namespace allocsim {

namespace {

// Which stack and type ids occur, from a first pass over the events.
void observe_groups(const SyntheticSpec& spec, std::uint64_t seed, std::size_t piece_events,
                    PieceGroupNumbering& stacks, PieceGroupNumbering& types) {
  const bool observe_stacks = stacks.needs_observation();
  const bool observe_types = types.needs_observation();
  if (!observe_stacks && !observe_types) return;
  SyntheticEvents events(spec, seed);
  SyntheticPiece piece;
  while (events.left() > 0) {
    events.next(piece_events, piece);
    if (observe_stacks) stacks.observe(piece.raw_stacks, piece.sizes);
    if (observe_types) types.observe(piece.raw_types, piece.sizes);
  }
  if (observe_stacks) stacks.finish_observation();
  if (observe_types) types.finish_observation();
}

}  // namespace

SyntheticFileSummary write_synthetic_native(const SyntheticSpec& spec, std::uint64_t seed, const std::string& path,
                                            const std::string& where, std::size_t piece_events) {
  seed = spec.seed.value_or(seed);
  PieceGroupNumbering stacks(spec.stacks, "stack", spec.allocations);
  PieceGroupNumbering types(spec.types, "type", spec.allocations);
  observe_groups(spec, seed, piece_events, stacks, types);

  AtomicOutput output(path);
  NativeTraceWriter writer([&output](std::uint64_t offset, std::string_view bytes) { output.write_at(offset, bytes); },
                           spec.allocations, spec.allocated.kind != AllocatedRounding::Kind::none);
  SyntheticEvents events(spec, seed);
  SyntheticPiece piece;
  ByteTotals totals;
  while (events.left() > 0) {
    events.next(piece_events, piece);
    piece.events.stack = stacks.apply(piece.raw_stacks, piece.sizes);
    piece.events.type = types.apply(piece.raw_types, piece.sizes);
    piece.events.add_byte_totals(0, piece.events.size(), totals);
    writer.append(piece.events);
  }
  totals.check(where);

  Trace ids;
  ids.thread_count = spec.threads;
  ids.stack_names = stacks.names();
  ids.stack_count = static_cast<std::uint32_t>(ids.stack_names.size());
  ids.type_names = types.names();
  ids.type_count = static_cast<std::uint32_t>(ids.type_names.size());
  writer.finish(ids);
  output.commit();
  return {spec.allocations, ids.stack_count, ids.thread_count};
}

}  // namespace allocsim
