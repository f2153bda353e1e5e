#include "allocsim/trace/file_source.h"

#include <filesystem>
#include <fstream>

#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim {

namespace {

// The file `value` names, relative to `base_directory` unless absolute; fails unless
// it is a regular file allocsim can open.
std::string readable_file(const JsonValue& value, const std::string& base_directory, const std::string& what) {
  const std::filesystem::path given = value.string();
  if (given.empty()) value.fail("must name a " + what);
  const std::string path =
      (given.is_relative() && !base_directory.empty() ? std::filesystem::path(base_directory) / given : given).string();
  if (!std::filesystem::is_regular_file(path) || !std::ifstream(path, std::ios::binary)) {
    value.fail("cannot read " + what + " " + printable(path));
  }
  return path;
}

FreePairing parse_pairing(const JsonValue& value) {
  const std::string name = value.string();
  if (name == "lifo") return FreePairing::lifo;
  if (name == "fifo") return FreePairing::fifo;
  value.fail("unknown pairing " + printable(name) + " (known: lifo, fifo)");
}

HeaptrackClock parse_clock(const JsonValue& value) {
  const std::string name = value.string();
  if (name == "events") return HeaptrackClock::events;
  if (name == "milliseconds") return HeaptrackClock::milliseconds;
  value.fail("unknown clock " + printable(name) + " (known: events, milliseconds)");
}

}  // namespace

FileTraceSpec parse_file_trace_spec(JsonObject& spec, const std::string& base_directory) {
  FileTraceSpec file;
  JsonValue path_value = spec.at("path");
  file.path = readable_file(path_value, base_directory, "trace file");
  TraceFormat asserted = TraceFormat::detect;
  std::optional<JsonValue> format_value = spec.maybe("format");
  if (format_value) {
    const auto format = parse_trace_format(format_value->string());
    if (!format)
      format_value->fail("unknown format " + printable(format_value->string()) +
                         " (known: auto, heaptrack, csv, native)");
    asserted = *format;
  }
  try {
    file.format = detect_trace_format(file.path);
  } catch (const InputError& e) {
    path_value.fail(e.what());
  }
  if (asserted != TraceFormat::detect && asserted != file.format) {
    format_value->fail(printable(file.path) + " is a " + to_string(file.format) + " trace, not " + to_string(asserted));
  }
  const auto pairing = spec.maybe("pairing");
  const auto clock = spec.maybe("clock");
  const auto names_from = spec.maybe("names_from");
  for (const auto* option : {&pairing, &clock, &names_from}) {
    if (*option && file.format != TraceFormat::heaptrack) {
      (*option)->fail("only heaptrack files take \"pairing\", \"clock\" and \"names_from\"");
    }
  }
  if (pairing) file.heaptrack.pairing = parse_pairing(*pairing);
  if (clock) file.heaptrack.clock = parse_clock(*clock);
  if (names_from) file.heaptrack.names_from = readable_file(*names_from, base_directory, "names file");
  spec.finish();
  return file;
}

Trace load_file_trace(const FileTraceSpec& spec) {
  return read_trace_file(spec.path, spec.format, spec.heaptrack).trace;
}

}  // namespace allocsim
