#include "allocsim/trace/synthetic.h"

#include <unistd.h>

#include <bit>
#include <cstdio>
#include <numeric>
#include <string>
#include <string_view>

#include "allocsim/json/byte_size.h"
#include "allocsim/util/huge_pages.h"

namespace allocsim {
namespace {

// One random stream per aspect of the trace. The "synth" tag in the stream id
// keeps them apart from the (sweep point, scheme) streams of the samplers.
enum class Purpose : std::uint64_t { sizes = 1, threads, stacks, types, lifetimes };
constexpr std::uint64_t kSyntheticStreamTag = 0x73796E7468000000;  // "synth\0\0\0"

RandomStream stream_for(std::uint64_t seed, Purpose purpose) {
  return RandomStream(StreamKey{seed, kSyntheticStreamTag | static_cast<std::uint64_t>(purpose), 0},
                      0);
}

ThreadAssignment parse_thread_assignment(const JsonValue& value) {
  const std::string name = value.string();
  if (name == "round_robin") return ThreadAssignment::round_robin;
  if (name == "random") return ThreadAssignment::random;
  if (name == "blocks") return ThreadAssignment::blocks;
  value.fail("unknown thread assignment \"" + name + "\" (known: round_robin, random, blocks)");
}

AllocatedRounding parse_allocated(JsonObject& object) {
  AllocatedRounding rounding;
  const JsonValue name_value = object.at("rounding");
  const std::string name = name_value.string();
  if (name == "none") {
    rounding.kind = AllocatedRounding::Kind::none;
  } else if (name == "align") {
    rounding.kind = AllocatedRounding::Kind::align;
    const JsonValue alignment = object.at("alignment");
    rounding.alignment = positive_byte_count(alignment);
    if (!std::has_single_bit(rounding.alignment) || rounding.alignment > kMaxSyntheticSize) {
      alignment.fail("must be a power of two <= 2^48, got " + alignment.raw().dump());
    }
  } else if (name == "power_of_two") {
    rounding.kind = AllocatedRounding::Kind::power_of_two;
  } else {
    name_value.fail("unknown rounding \"" + name + "\" (known: none, align, power_of_two)");
  }
  object.finish();
  return rounding;
}

GroupRule parse_group_rule_at(const JsonValue& value) {
  JsonObject object = value.object();
  return parse_group_rule(object);
}

// Sizes, and each draw's component when a group rule asks for it (components non-empty).
void draw_sizes(const SizeDistribution& distribution, RandomStream& random,
                std::vector<std::uint64_t>& requested, std::vector<std::uint32_t>& components) {
  SizeSampler sampler(distribution);
  const bool keep_components = !components.empty();
  for (std::size_t i = 0; i < requested.size(); ++i) {
    const SizeDraw draw = sampler.draw(random);
    requested[i] = draw.size;
    if (keep_components) components[i] = draw.component;
  }
}

std::vector<std::uint32_t> assign_threads(ThreadAssignment assignment, std::uint32_t threads,
                                          std::size_t n, RandomStream& random) {
  std::vector<std::uint32_t> thread;
  resize_on_huge_pages(thread, n);
  switch (assignment) {
    case ThreadAssignment::round_robin:
      for (std::size_t i = 0; i < n; ++i) thread[i] = static_cast<std::uint32_t>(i % threads);
      break;
    case ThreadAssignment::random:
      for (std::uint32_t& t : thread)
        t = static_cast<std::uint32_t>(uniform_below(random, threads));
      break;
    case ThreadAssignment::blocks:
      // i < 2^31 and threads <= 2^20, so the product fits easily.
      for (std::size_t i = 0; i < n; ++i) thread[i] = static_cast<std::uint32_t>(i * threads / n);
      break;
  }
  return thread;
}

std::vector<std::uint64_t> allocated_sizes(const AllocatedRounding& rounding,
                                           const std::vector<std::uint64_t>& requested) {
  std::vector<std::uint64_t> allocated(requested.size());
  const std::uint64_t mask = rounding.alignment - 1;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    allocated[i] = rounding.kind == AllocatedRounding::Kind::align ? (requested[i] + mask) & ~mask
                                                                   : std::bit_ceil(requested[i]);
  }
  return allocated;
}

std::uint64_t physical_memory() {
  return static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::string gigabytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / 1e9);
  return text;
}

// Bytes of memory the trace of `spec` and its skip-ahead index take.
std::uint64_t synthetic_trace_memory(const SyntheticSpec& spec) {
  // Trace columns: thread, stack and type (4 bytes each), requested, time and
  // free_time (8 each), allocated (8) when rounded; the index: one prefix sum (8)
  // per event, and each event's position in its thread (8) when there are several.
  std::uint64_t per_event = 3 * 4 + 3 * 8 + 8;
  if (spec.allocated.kind != AllocatedRounding::Kind::none) per_event += 8;
  if (spec.threads > 1) per_event += 8;
  return spec.allocations * per_event;
}

}  // namespace

SyntheticSpec parse_synthetic_spec(JsonObject& object) {
  SyntheticSpec spec;
  const JsonValue allocations = object.at("allocations");
  spec.allocations = allocations.positive_uint();
  if (spec.allocations > kMaxSyntheticAllocations) {
    allocations.fail("must be <= " + std::to_string(kMaxSyntheticAllocations) + ", got " +
                     allocations.raw().dump());
  }
  if (auto threads = object.maybe("threads")) {
    const std::uint64_t count = threads->positive_uint();
    if (count > kMaxSyntheticThreads) {
      threads->fail("must be <= " + std::to_string(kMaxSyntheticThreads) + ", got " +
                    threads->raw().dump());
    }
    spec.threads = static_cast<std::uint32_t>(count);
  }
  if (auto assignment = object.maybe("thread_assignment")) {
    spec.thread_assignment = parse_thread_assignment(*assignment);
  }
  JsonObject sizes = object.at("sizes").object();
  spec.sizes = parse_size_distribution(sizes);
  if (auto stacks = object.maybe("stacks")) spec.stacks = parse_group_rule_at(*stacks);
  if (auto types = object.maybe("types")) spec.types = parse_group_rule_at(*types);
  if (auto lifetime = object.maybe("lifetime")) {
    JsonObject lifetime_object = lifetime->object();
    spec.lifetime = parse_lifetime(lifetime_object);
  }
  if (auto allocated = object.maybe("allocated")) {
    JsonObject allocated_object = allocated->object();
    spec.allocated = parse_allocated(allocated_object);
  }
  if (auto seed = object.maybe("seed")) spec.seed = seed->uint();
  object.finish();
  if (synthetic_trace_memory(spec) > physical_memory()) {
    allocations.fail(std::to_string(spec.allocations) + " allocations need " +
                     gigabytes(synthetic_trace_memory(spec)) + " for the trace and its index, more than the " +
                     gigabytes(physical_memory()) + " of memory of this machine");
  }
  return spec;
}

Trace generate_synthetic(const SyntheticSpec& spec, std::uint64_t seed, const std::string& where) {
  if (spec.seed) seed = *spec.seed;
  const std::size_t n = spec.allocations;
  Trace trace;

  const bool needs_components =
      spec.stacks.kind == GroupRuleKind::component || spec.types.kind == GroupRuleKind::component;
  std::vector<std::uint32_t> components(needs_components ? n : 0);
  resize_on_huge_pages(trace.requested, n);
  RandomStream size_random = stream_for(seed, Purpose::sizes);
  draw_sizes(spec.sizes, size_random, trace.requested, components);

  RandomStream thread_random = stream_for(seed, Purpose::threads);
  trace.thread = assign_threads(spec.thread_assignment, spec.threads, n, thread_random);
  trace.thread_count = spec.threads;

  RandomStream stack_random = stream_for(seed, Purpose::stacks);
  GroupColumn stacks =
      assign_groups(spec.stacks, trace.requested, components, "stack", stack_random);
  trace.stack = std::move(stacks.ids);
  trace.stack_names = std::move(stacks.names);
  trace.stack_count = static_cast<std::uint32_t>(trace.stack_names.size());

  RandomStream type_random = stream_for(seed, Purpose::types);
  GroupColumn types = assign_groups(spec.types, trace.requested, components, "type", type_random);
  trace.type = std::move(types.ids);
  trace.type_names = std::move(types.names);
  trace.type_count = static_cast<std::uint32_t>(trace.type_names.size());

  resize_on_huge_pages(trace.time, n);
  std::iota(trace.time.begin(), trace.time.end(), std::uint64_t{0});
  resize_on_huge_pages(trace.free_time, n);
  RandomStream lifetime_random = stream_for(seed, Purpose::lifetimes);
  fill_free_times(spec.lifetime, trace.time, trace.free_time, lifetime_random);

  if (spec.allocated.kind != AllocatedRounding::Kind::none) {
    trace.allocated = allocated_sizes(spec.allocated, trace.requested);
  }
  trace.check_byte_totals(where);
  return trace;
}

}  // namespace allocsim
