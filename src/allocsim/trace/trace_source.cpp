#include "allocsim/trace/trace_source.h"

namespace allocsim {

TraceSource parse_trace_source(JsonObject& trace) {
  std::string kind = "synthetic";
  if (auto v = trace.maybe("kind")) kind = v->string();
  if (kind == "synthetic") return TraceSource{parse_synthetic_spec(trace)};
  trace.fail("unknown trace kind \"" + kind + "\" (known: synthetic)");
}

Trace load_trace(const TraceSource& source, std::uint64_t seed) {
  return std::visit([&](const auto& spec) { return generate_synthetic(spec, seed); }, source.spec);
}

}  // namespace allocsim
