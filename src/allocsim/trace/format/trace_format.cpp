#include "allocsim/trace/format/trace_format.h"

#include <cstring>
#include <stdexcept>

#include "allocsim/trace/format/byte_source.h"
#include "allocsim/trace/format/csv_trace.h"
#include "allocsim/trace/format/native_trace.h"
#include "allocsim/util/error.h"

namespace allocsim {

const char* to_string(TraceFormat format) {
  switch (format) {
    case TraceFormat::detect: return "auto";
    case TraceFormat::heaptrack: return "heaptrack";
    case TraceFormat::csv: return "csv";
    case TraceFormat::native: return "native";
  }
  return "?";
}

std::optional<TraceFormat> parse_trace_format(std::string_view name) {
  for (TraceFormat f : {TraceFormat::detect, TraceFormat::heaptrack, TraceFormat::csv, TraceFormat::native}) {
    if (name == to_string(f)) return f;
  }
  return std::nullopt;
}

namespace {

// The first line of the decompressed text, or its first bytes if longer.
std::string first_line(const std::string& path) {
  constexpr std::size_t kLimit = 4096;
  const auto source = open_decompressed(path);
  std::string text(kLimit, '\0');
  std::size_t filled = 0;
  while (filled < kLimit) {
    const std::size_t n = source->read(text.data() + filled, kLimit - filled);
    if (n == 0) break;
    filled += n;
    if (text.find('\n') < filled) break;
  }
  text.resize(filled);
  return text.substr(0, text.find('\n'));
}

bool has_native_magic(const std::string& path) {
  const auto source = open_decompressed(path);
  char magic[sizeof kNativeTraceMagic] = {};
  std::size_t filled = 0;
  while (filled < sizeof magic) {
    const std::size_t n = source->read(magic + filled, sizeof magic - filled);
    if (n == 0) break;
    filled += n;
  }
  return filled == sizeof magic && std::memcmp(magic, kNativeTraceMagic, sizeof magic) == 0;
}

}  // namespace

TraceFormat detect_trace_format(const std::string& path) {
  if (detect_compression(path) == Compression::none && has_native_magic(path)) return TraceFormat::native;
  const std::string line = first_line(path);
  if (line.starts_with("v ")) return TraceFormat::heaptrack;
  if (is_csv_trace_header(line)) return TraceFormat::csv;
  throw InputError(path +
                   ": unknown trace format: not an allocsim native trace, a heaptrack file (first line "
                   "\"v ...\") or a CSV trace (header \"thread,op,size,stack,type,time,id\"); a heap profile (pprof, "
                   "jemalloc, gperftools) is read by `allocsim profile`");
}

TraceFormat output_format_for(const std::string& path) {
  return path.ends_with(".csv") ? TraceFormat::csv : TraceFormat::native;
}

TraceFile read_trace_file(const std::string& path, TraceFormat format, const HeaptrackOptions& heaptrack) {
  if (format == TraceFormat::detect) format = detect_trace_format(path);
  TraceFile file;
  file.format = format;
  switch (format) {
    case TraceFormat::heaptrack: {
      HeaptrackImport import = read_heaptrack(path, heaptrack);
      file.trace = std::move(import.trace);
      file.heaptrack = std::move(import.stats);
      break;
    }
    case TraceFormat::csv: file.trace = read_csv_trace(path); break;
    case TraceFormat::native: file.trace = read_native_trace(path); break;
    case TraceFormat::detect: break;
  }
  return file;
}

void write_trace_file(const Trace& trace, const std::string& path, TraceFormat format) {
  switch (format) {
    case TraceFormat::csv: write_csv_trace(trace, path); return;
    case TraceFormat::native: write_native_trace(trace, path); return;
    case TraceFormat::heaptrack:
    case TraceFormat::detect: break;
  }
  throw InputError(path + ": allocsim writes traces as csv or native, not " + std::string(to_string(format)));
}

}  // namespace allocsim
