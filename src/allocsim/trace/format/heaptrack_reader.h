#pragma once
// Reads heaptrack data files (heaptrack 1.x, file format version 1 to 3), both
// kinds, compressed with zstd or gzip as heaptrack writes them, or uncompressed:
//
// - interpreted files (what `heaptrack prog` leaves): a free names only an
//   "allocation info", a (size, stack) pair, not the allocation it releases. When
//   several allocations of that info are live, the pairing rule picks one (LIFO
//   by default: the most recent). Totals and live bytes per (size, stack) are exact,
//   which individual allocation is live is a guess.
// - raw files (`heaptrack -r`): a free names the pointer, so lifetimes are exact. A
//   free of a pointer never seen allocated (memory from before tracking started, or
//   from an unhooked function such as memalign) is skipped, as heaptrack does.
//
// A cut file: an interpreted file must end with the "# strings" and "# ips" counts
// heaptrack writes last, so one cut at a line boundary is rejected; a raw file has
// no such mark, and a raw file cut at a line boundary reads as a shorter run.
//
// heaptrack records no thread ids: every event is on thread 0. Time is the event
// order (each allocation and matched free is one tick) or heaptrack's coarse
// millisecond stamps ('c' lines). Stacks: see heaptrack_stacks.h.
//
// Names for a raw file (HeaptrackOptions::names_from): heaptrack_interpret copies the raw
// file's call-path tree node for node, so node k of both files is the same call path;
// the reader checks every node's parent and the node count, and refuses a pair that
// differs ("not of the same run").
#include <cstdint>
#include <string>

#include "allocsim/trace/trace.h"

namespace allocsim {

enum class HeaptrackKind { interpreted, raw };
enum class FreePairing { lifo, fifo };
enum class HeaptrackClock { events, milliseconds };

const char* to_string(HeaptrackKind kind);
const char* to_string(FreePairing pairing);
const char* to_string(HeaptrackClock clock);

struct HeaptrackOptions {
  FreePairing pairing = FreePairing::lifo;
  HeaptrackClock clock = HeaptrackClock::events;
  // A raw file's frame names from an interpreted file of the same run (what
  // heaptrack_interpret makes of it, the command heaptrack -r prints): exact
  // lifetimes from the raw file, function names from the interpreted one. "" = none.
  std::string names_from{};  // {}: aggregates may leave it out
};

struct HeaptrackStats {
  HeaptrackKind kind = HeaptrackKind::interpreted;
  std::uint64_t file_version = 0;
  std::string heaptrack_version;  // "1.4.0"
  std::string command;            // the traced command line
  std::uint64_t allocations = 0;
  std::uint64_t frees = 0;             // linked to an allocation
  std::uint64_t ambiguous_frees = 0;   // interpreted: more than one live candidate
  std::uint64_t unmatched_frees = 0;   // raw: pointer never seen allocated, skipped
  std::uint64_t last_millisecond = 0;  // the last 'c' stamp
  bool attached = false;               // 'A': recording began mid-run (heaptrack -p)
};

struct HeaptrackImport {
  Trace trace;
  HeaptrackStats stats;
};

// Throws InputError "<path>: line <n>: <reason>" (or "<path>: byte <offset>: ..." for a
// broken compressed stream).
HeaptrackImport read_heaptrack(const std::string& path, const HeaptrackOptions& options = {});

}  // namespace allocsim
