#pragma once
// Where a scenario's trace comes from. "kind" selects the source; each source reads
// and validates its own keys, so a scenario is fully checked before anything runs.
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "allocsim/json/json_reader.h"
#include "allocsim/trace/file_source.h"
#include "allocsim/trace/synthetic.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// A trace already in memory (Python's allocsim.Trace), never named in JSON: a
// caller puts it in a parsed scenario's sweep points in place of their source.
struct InMemoryTrace {
  std::shared_ptr<const Trace> trace;
};

struct TraceSource {
  std::variant<SyntheticSpec, FileTraceSpec, InMemoryTrace> spec;
};

// Reads a "trace" object (and finishes it: unknown keys are rejected). Relative
// file paths are taken from `base_directory` (the scenario file's directory).
TraceSource parse_trace_source(JsonObject& trace, const std::string& base_directory);

// Builds the trace (an in-memory one is copied); `seed` feeds synthetic generators
// that do not fix their own, which draw on up to `threads` threads.
Trace load_trace(const TraceSource& source, std::uint64_t seed, unsigned threads = 1);

// The files `source` reads: a file trace's path and the heaptrack file that names its
// frames (--names-from); none for the others. A command's outputs may not be these.
std::vector<std::string> trace_source_files(const TraceSource& source);

}  // namespace allocsim
