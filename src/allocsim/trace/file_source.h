#pragma once
// A trace read from a file: {"kind": "file", "path": "traces/x.ast", "format": "auto"}.
// A relative path is taken from the scenario file's directory. The file must exist
// and be of a readable format when the scenario is parsed; "format" (auto,
// heaptrack, csv, native) asserts which. heaptrack files also take "pairing" (lifo,
// fifo), "clock" (events, milliseconds) and, for a raw file, "names_from" (the interpreted
// file of the same run, relative like "path"): see heaptrack_reader.h.
#include <string>

#include "allocsim/json/json_reader.h"
#include "allocsim/trace/format/trace_format.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

struct FileTraceSpec {
  std::string path;                          // resolved
  TraceFormat format = TraceFormat::native;  // as detected
  HeaptrackOptions heaptrack;
};

// Reads every key of `spec` except "kind", then finishes it.
FileTraceSpec parse_file_trace_spec(JsonObject& spec, const std::string& base_directory);
Trace load_file_trace(const FileTraceSpec& spec);

}  // namespace allocsim
