#include "allocsim/trace/trace_source.h"

#include "allocsim/util/printable.h"

namespace allocsim {

TraceSource parse_trace_source(JsonObject& trace, const std::string& base_directory) {
  std::string kind = "synthetic";
  if (auto v = trace.maybe("kind")) kind = v->string();
  if (kind == "synthetic") return TraceSource{parse_synthetic_spec(trace)};
  if (kind == "file") return TraceSource{parse_file_trace_spec(trace, base_directory)};
  trace.fail("unknown trace kind " + printable(kind) + " (known: synthetic, file)");
}

Trace load_trace(const TraceSource& source, std::uint64_t seed, unsigned threads) {
  struct Loader {
    std::uint64_t seed;
    unsigned threads;
    Trace operator()(const SyntheticSpec& spec) const { return generate_synthetic(spec, seed, "$.trace", threads); }
    Trace operator()(const FileTraceSpec& spec) const { return load_file_trace(spec); }
    Trace operator()(const InMemoryTrace& spec) const { return *spec.trace; }
  };
  return std::visit(Loader{seed, threads}, source.spec);
}

std::vector<std::string> trace_source_files(const TraceSource& source) {
  const auto* file = std::get_if<FileTraceSpec>(&source.spec);
  if (file == nullptr) return {};
  if (file->heaptrack.names_from.empty()) return {file->path};
  return {file->path, file->heaptrack.names_from};
}

}  // namespace allocsim
