#include "allocsim/engine/unit_cost.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/format/native_trace.h"
#include "allocsim/trace/size_mean.h"

namespace allocsim {
namespace {

// Nanoseconds, measured on this project's shared 2-core machine (docs/scaling.md,
// "The cost of a work unit", gives the commands and every number):
//   c: streaming replay per event: replay_bench `*/streaming/T=2097152` (few
//      samples) on 10^6 events, 1.0-2.0 ns for poisson, heapprofd, jemalloc, tcmalloc;
//   a: per expected sample point, the whole engine: `allocsim run --threads 1` of
//      poisson at 4 KiB on 2 x 10^5 lognormal sizes (the sampler's own share, the
//      replay_bench `*/skip_ahead/` slope between 4 KiB and 512 KiB, is 13-30 ns);
//   b: per group slot x window x estimator: the same run at 1 GiB with 4000 stacks
//      against 1 stack;
//   d: per replication: replay_bench skip-ahead at 2 MiB less its samples (0-20 us).
constexpr double kStreamingPerEvent = 1.5;  // c
constexpr double kPerSample = 54.0;         // a
constexpr double kPerGroupEntry = 35.0;     // b
constexpr double kPerReplication = 5000.0;  // d

// Slots of a group kind whose count the description does not give (log2 size
// buckets, size components, distinct sizes): a typical number.
constexpr double kUnknownGroupCount = 16;
// Bytes per event of a trace file read as text (CSV rows, heaptrack lines): its
// events are taken as its size over this.
constexpr double kTextBytesPerEvent = 32;

double rule_groups(const GroupRule& rule) {
  switch (rule.kind) {
    case GroupRuleKind::constant: return 1;
    case GroupRuleKind::round_robin:
    case GroupRuleKind::random: return rule.count;
    default: return kUnknownGroupCount;
  }
}

// Slots of `groups` for a trace with `stacks` and `types` (unknown: kUnknownGroupCount).
double slot_count(const std::vector<GroupKind>& groups, double stacks, double types) {
  double slots = 0;
  for (GroupKind kind : groups) {
    switch (kind) {
      case GroupKind::total: slots += 1; break;
      case GroupKind::stack: slots += stacks; break;
      case GroupKind::type: slots += types; break;
      case GroupKind::size_bucket: slots += kUnknownGroupCount; break;
    }
  }
  return std::max(slots, 1.0);
}

TraceEstimate estimate_file(const FileTraceSpec& file, const std::vector<GroupKind>& groups) {
  if (file.format == TraceFormat::native) {
    if (const auto counts = read_native_trace_counts(file.path)) {
      return {std::max(static_cast<double>(counts->events), 1.0), std::nullopt,
              slot_count(groups, counts->stacks, counts->types)};
    }
  }
  std::error_code error;
  const auto bytes = std::filesystem::file_size(file.path, error);
  const double events = error ? 1.0 : std::max(static_cast<double>(bytes) / kTextBytesPerEvent, 1.0);
  return {events, std::nullopt, slot_count(groups, kUnknownGroupCount, kUnknownGroupCount)};
}

// The scheme's rate parameter (under its name or an alias): a number, or a byte
// size with a unit; the descriptor's default when the entry has none.
std::optional<double> rate_of(const SchemeInstance& scheme, const SchemeDescriptor& descriptor) {
  const ParameterInfo* parameter = descriptor.rate_parameter();
  if (parameter == nullptr) return std::nullopt;
  if (const nlohmann::json* given = parameter->find_in(scheme.params)) {
    if (given->is_number()) return given->get<double>();
    if (given->is_string()) return parse_byte_size(given->get<std::string>(), parameter->name);
  }
  if (parameter->default_value.is_number()) return parameter->default_value.get<double>();
  return std::nullopt;
}

}  // namespace

TraceEstimate estimate_trace(const TraceSource& source, const std::vector<GroupKind>& groups) {
  if (const auto* synthetic = std::get_if<SyntheticSpec>(&source.spec)) {
    const double events = std::max(static_cast<double>(synthetic->allocations), 1.0);
    return {events, events * mean_size(synthetic->sizes),
            slot_count(groups, rule_groups(synthetic->stacks), rule_groups(synthetic->types))};
  }
  if (const auto* in_memory = std::get_if<InMemoryTrace>(&source.spec)) {
    const Trace& trace = *in_memory->trace;
    double bytes = 0;
    for (std::uint64_t size : trace.requested) bytes += static_cast<double>(size);
    return {std::max(static_cast<double>(trace.size()), 1.0), bytes,
            slot_count(groups, trace.stack_count, trace.type_count)};
  }
  return estimate_file(std::get<FileTraceSpec>(source.spec), groups);
}

bool replays_skip_ahead(const SchemeInstance& scheme, ReplayMode replay) {
  const SchemeDescriptor* descriptor = find_scheme(scheme.name);
  return replay == ReplayMode::skip_ahead && descriptor != nullptr && descriptor->skip_ahead;
}

double expected_samples(const SchemeInstance& scheme, const TraceEstimate& trace) {
  const SchemeDescriptor* descriptor = find_scheme(scheme.name);
  const std::optional<double> rate = descriptor != nullptr ? rate_of(scheme, *descriptor) : std::nullopt;
  if (!rate || !(*rate > 0)) return trace.events;
  if (descriptor->rate->unit == RateUnit::allocations) return trace.events / std::max(*rate, 1.0);
  if (!trace.bytes) return trace.events;
  return std::min(trace.events, *trace.bytes / *rate);
}

double replication_cost(const Scenario& scenario, const TraceEstimate& trace, const SchemeInstance& scheme) {
  const double entries = trace.slots * static_cast<double>(scenario.windows.size()) *
                         static_cast<double>(scheme.scheme->estimators().size());
  const double streaming = replays_skip_ahead(scheme, scenario.replay) ? 0.0 : kStreamingPerEvent * trace.events;
  // Whole nanoseconds: a machine whose libm rounds exp or log (mean_size) otherwise in
  // the last bit still plans the same shards, and sums of these stay exact.
  return std::round(streaming + kPerSample * expected_samples(scheme, trace) + kPerGroupEntry * entries +
                    kPerReplication);
}

}  // namespace allocsim
