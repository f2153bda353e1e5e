#pragma once
// Trace files of every format allocsim reads, told apart by content: the native
// magic bytes, else (after zstd/gzip decompression) the first line: "v ..." for
// heaptrack, a column header for CSV.
#include <optional>
#include <string>
#include <string_view>

#include "allocsim/trace/format/heaptrack_reader.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

enum class TraceFormat { detect, heaptrack, csv, native };
const char* to_string(TraceFormat format);
// "auto", "heaptrack", "csv", "native".
std::optional<TraceFormat> parse_trace_format(std::string_view name);

// InputError if the file cannot be read or is none of the formats.
TraceFormat detect_trace_format(const std::string& path);
// The format to write a file in: CSV for a ".csv" name, native otherwise.
TraceFormat output_format_for(const std::string& path);

struct TraceFile {
  Trace trace;
  TraceFormat format = TraceFormat::native;  // as read
  std::optional<HeaptrackStats> heaptrack;   // for heaptrack files
};

TraceFile read_trace_file(const std::string& path, TraceFormat format = TraceFormat::detect,
                          const HeaptrackOptions& heaptrack = {});
// `format` is csv or native; written atomically.
void write_trace_file(const Trace& trace, const std::string& path, TraceFormat format);

}  // namespace allocsim
