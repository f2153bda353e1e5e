#include "allocsim/trace/synthetic.h"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <functional>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>

#include "allocsim/json/byte_size.h"
#include "allocsim/random/stream_purpose.h"
#include "allocsim/trace/size_bounds.h"
#include "allocsim/util/huge_pages.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/parallel.h"
#include "allocsim/util/printable.h"

namespace allocsim {
namespace {

// One random stream per aspect of the trace (StreamPurpose::synthetic_trace).
enum class Purpose : std::uint64_t { sizes = 1, threads, stacks, types, lifetimes };

// Below this many events, starting threads for the aspects costs more than it saves.
constexpr std::size_t kParallelAspectsFrom = std::size_t{1} << 15;

// Each aspect's stream is cut in chunks of kChunkEvents events: chunk c draws from
// the stream (seed, aspect) with counter prefix c, so the chunks of one aspect can
// be drawn at the same time, on any number of threads, and give the same trace.
// A trace of at most kChunkEvents events draws from chunk 0 alone.
constexpr std::uint64_t kChunkEvents = 4096;

RandomStream stream_for(std::uint64_t seed, Purpose purpose, std::uint64_t chunk) {
  return RandomStream(
      StreamKey{seed, stream_of(StreamPurpose::synthetic_trace) | static_cast<std::uint64_t>(purpose), chunk}, 0);
}

// Draws one aspect of the events [first, first + m) of a trace: fill(random,
// begin, end) draws the piece's events [begin, end), which lie in one chunk, from
// that chunk's stream. `carried` is the aspect's stream at event `first` (where
// the previous piece stopped inside a chunk) and becomes its stream at first + m.
// Returns `tasks` tasks (fewer for short pieces) that share the chunks in order.
using ChunkFill = std::function<void(RandomStream& random, std::size_t begin, std::size_t end)>;
std::vector<std::function<void()>> aspect_tasks(std::uint64_t seed, Purpose purpose, std::uint64_t first, std::size_t m,
                                                RandomStream& carried, std::size_t tasks, ChunkFill fill) {
  std::vector<std::size_t> starts{0};  // piece-relative first event of each chunk met
  for (std::uint64_t e = (first / kChunkEvents + 1) * kChunkEvents; e < first + m; e += kChunkEvents) {
    starts.push_back(static_cast<std::size_t>(e - first));
  }
  const std::size_t chunks = starts.size();
  starts.push_back(m);
  tasks = std::clamp<std::size_t>(tasks, 1, chunks);
  std::vector<std::function<void()>> out;
  for (std::size_t t = 0; t < tasks; ++t) {
    const std::size_t begin = chunks * t / tasks, end = chunks * (t + 1) / tasks;
    // The carried stream is copied now: the task that ends the piece writes it.
    out.push_back([=, &carried, carried_in = carried] {
      RandomStream random;
      for (std::size_t c = begin; c < end; ++c) {
        const bool continues = c == 0 && first % kChunkEvents != 0;
        random = continues ? carried_in : stream_for(seed, purpose, (first + starts[c]) / kChunkEvents);
        fill(random, starts[c], starts[c + 1]);
      }
      if (end == chunks) carried = random;
    });
  }
  return out;
}

ThreadAssignment parse_thread_assignment(const JsonValue& value) {
  const std::string name = value.string();
  if (name == "round_robin") return ThreadAssignment::round_robin;
  if (name == "random") return ThreadAssignment::random;
  if (name == "blocks") return ThreadAssignment::blocks;
  value.fail("unknown thread assignment " + printable(name) + " (known: round_robin, random, blocks)");
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
      alignment.fail("must be a power of two <= 2^48, got " + json_text(alignment.raw()));
    }
  } else if (name == "power_of_two") {
    rounding.kind = AllocatedRounding::Kind::power_of_two;
  } else {
    name_value.fail("unknown rounding " + printable(name) + " (known: none, align, power_of_two)");
  }
  object.finish();
  return rounding;
}

GroupRule parse_group_rule_at(const JsonValue& value) {
  JsonObject object = value.object();
  return parse_group_rule(object);
}

std::uint32_t thread_of(ThreadAssignment assignment, std::uint32_t threads, std::uint64_t i, std::uint64_t n,
                        RandomStream& random) {
  switch (assignment) {
    case ThreadAssignment::round_robin: return static_cast<std::uint32_t>(i % threads);
    case ThreadAssignment::random: return static_cast<std::uint32_t>(uniform_below(random, threads));
    case ThreadAssignment::blocks: return static_cast<std::uint32_t>(i * threads / n);  // i < 2^31, threads <= 2^20
  }
  return 0;
}

std::uint64_t allocated_size(const AllocatedRounding& rounding, std::uint64_t requested) {
  const std::uint64_t mask = rounding.alignment - 1;
  return rounding.kind == AllocatedRounding::Kind::align ? (requested + mask) & ~mask : std::bit_ceil(requested);
}

bool needs_components(const SyntheticSpec& spec) {
  return spec.stacks.kind == GroupRuleKind::component || spec.types.kind == GroupRuleKind::component;
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
  // Trace columns: thread (2 bytes), requested, stack and type (4 each), time and
  // free_time (8 each), allocated (4) when rounded; the sizes as drawn (8) while
  // the trace is made; the index: one prefix sum (8) per event, and each event's
  // position in its thread (8) when there are several.
  std::uint64_t per_event = 2 + 3 * 4 + 2 * 8 + 8 + 8;
  if (spec.allocated.kind != AllocatedRounding::Kind::none) per_event += 4;
  if (spec.threads > 1) per_event += 8;
  return spec.allocations * per_event;
}

// The fewest bytes the trace can hold, requested and allocated (rounding up keeps
// the smallest size the smallest): past kMaxTraceBytes whatever is drawn, so
// refused when the spec is read. Totals past it for some draws only are found once
// the trace is made (generate_synthetic).
void check_least_bytes(const SyntheticSpec& spec, const JsonValue& allocations) {
  const std::uint64_t requested = smallest_size(spec.sizes);
  const bool rounded = spec.allocated.kind != AllocatedRounding::Kind::none;
  for (const auto& [size, what] : {std::pair{requested, "requested"},
                                   std::pair{rounded ? allocated_size(spec.allocated, requested) : 0, "allocated"}}) {
    if (static_cast<unsigned __int128>(spec.allocations) * size > kMaxTraceBytes) {
      allocations.fail(std::to_string(spec.allocations) + " allocations of at least " + std::to_string(size) + " " +
                       what + " bytes each add up to more than 2^62 = " + std::to_string(kMaxTraceBytes) +
                       " bytes, the most a trace may hold");
    }
  }
}

}  // namespace

SyntheticSpec parse_synthetic_spec(JsonObject& object, SyntheticTarget target) {
  SyntheticSpec spec;
  const JsonValue allocations = object.at("allocations");
  spec.allocations = allocations.positive_uint();
  if (spec.allocations > kMaxSyntheticAllocations) {
    allocations.fail("must be <= " + std::to_string(kMaxSyntheticAllocations) + ", got " +
                     json_text(allocations.raw()));
  }
  if (auto threads = object.maybe("threads")) {
    const std::uint64_t count = threads->positive_uint();
    if (count > kMaxSyntheticThreads) {
      threads->fail("must be <= " + std::to_string(kMaxSyntheticThreads) + ", got " + json_text(threads->raw()));
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
  check_least_bytes(spec, allocations);
  if (target == SyntheticTarget::memory && synthetic_trace_memory(spec) > physical_memory()) {
    allocations.fail(std::to_string(spec.allocations) + " allocations need " + gigabytes(synthetic_trace_memory(spec)) +
                     " for the trace and its index, more than the " + gigabytes(physical_memory()) +
                     " of memory of this machine");
  }
  return spec;
}

SyntheticEvents::SyntheticEvents(const SyntheticSpec& spec, std::uint64_t seed)
    : spec_(spec), seed_(seed), sizes_(spec.sizes), stacks_(spec.stacks), types_(spec.types) {}

void SyntheticEvents::next(std::size_t count, SyntheticPiece& piece, unsigned threads) {
  const std::uint64_t first = generated_;
  const std::size_t m = static_cast<std::size_t>(std::min<std::uint64_t>(count, left()));
  const std::uint64_t n = spec_.allocations;
  Trace& events = piece.events;
  const unsigned aspect_threads = m >= kParallelAspectsFrom ? threads : 1;
  // Chunks are shared among about two tasks per thread and aspect.
  const std::size_t tasks = aspect_threads > 1 ? 2 * std::size_t{aspect_threads} : 1;
  const auto add_aspect = [&](std::vector<std::function<void()>>& to, Purpose purpose, RandomStream& carried,
                              std::size_t aspect_tasks_wanted, ChunkFill fill) {
    for (auto& task : aspect_tasks(seed_, purpose, first, m, carried, aspect_tasks_wanted, std::move(fill))) {
      to.push_back(std::move(task));
    }
  };

  // Every aspect that does not read the sizes is drawn first, at the same time as
  // the sizes; then the rules that read the sizes or their mixture components.
  // The buffers are sized first, also on every thread: their first touch, a page
  // fault per page, costs as much as drawing some aspects.
  std::vector<std::uint32_t> components, thread;
  std::vector<std::uint64_t> time, free_time;
  const std::function<void()> size_buffers[] = {
      [&] { components.resize(needs_components(spec_) ? m : 0); },
      [&] { piece.sizes.resize(m); },
      [&] { thread.resize(m); },
      [&] {
        resize_on_huge_pages(time, m);
        std::iota(time.begin(), time.end(), first);
      },
      [&] { resize_on_huge_pages(free_time, m); },
      [&] { piece.raw_stacks.resize(m); },
      [&] { piece.raw_types.resize(m); },
  };
  run_tasks(size_buffers, aspect_threads);
  std::vector<std::function<void()>> before_sizes_known, after_sizes_known;
  // A sampler with sequence positions carries them from chunk to chunk, in order;
  // any other draws each chunk from a copy.
  const bool sizes_in_order = sizes_.has_positions();
  add_aspect(before_sizes_known, Purpose::sizes, size_random_, sizes_in_order ? 1 : tasks,
             [&](RandomStream& random, std::size_t begin, std::size_t end) {
               const auto draw_sizes = [&](SizeSampler& sampler) {
                 for (std::size_t i = begin; i < end; ++i) {
                   const SizeDraw draw = sampler.draw(random);
                   piece.sizes[i] = draw.size;
                   if (!components.empty()) components[i] = draw.component;
                 }
               };
               if (sizes_in_order) return draw_sizes(sizes_);
               SizeSampler copy = sizes_;
               draw_sizes(copy);
             });
  add_aspect(before_sizes_known, Purpose::threads, thread_random_, tasks,
             [&](RandomStream& random, std::size_t begin, std::size_t end) {
               for (std::size_t i = begin; i < end; ++i) {
                 thread[i] = thread_of(spec_.thread_assignment, spec_.threads, first + i, n, random);
               }
             });
  add_aspect(before_sizes_known, Purpose::lifetimes, lifetime_random_, tasks,
             [&](RandomStream& random, std::size_t begin, std::size_t end) {
               fill_free_times(spec_.lifetime, std::span(time).subspan(begin, end - begin), n - 1,
                               std::span(free_time).subspan(begin, end - begin), random, first + begin);
             });
  const auto add_ids = [&](const GroupRule& rule, const RawGroupIds& ids, Purpose purpose, RandomStream& carried,
                           std::vector<std::uint32_t>& raw) {
    add_aspect(
        reads_sizes(rule) ? after_sizes_known : before_sizes_known, purpose, carried, tasks,
        [&piece, &components, first, ids = &ids, raw = &raw](RandomStream& random, std::size_t begin, std::size_t end) {
          const auto span = [&](auto& v) { return std::span(v).subspan(begin, end - begin); };
          ids->draw(first + begin, span(piece.sizes),
                    components.empty() ? std::span<const std::uint32_t>() : span(components), random, span(*raw));
        });
  };
  add_ids(spec_.stacks, stacks_, Purpose::stacks, stack_random_, piece.raw_stacks);
  add_ids(spec_.types, types_, Purpose::types, type_random_, piece.raw_types);
  after_sizes_known.push_back([&] {
    events.thread.clear();
    events.thread.reserve(m);
    events.thread.append(thread.begin(), thread.end());
  });
  after_sizes_known.push_back([&] {
    events.requested.clear();
    events.requested.reserve(m);
    events.requested.append(piece.sizes.begin(), piece.sizes.end());
    events.allocated.clear();
    if (spec_.allocated.kind != AllocatedRounding::Kind::none) {
      events.allocated.reserve(m);
      for (const std::uint64_t size : piece.sizes) events.allocated.push_back(allocated_size(spec_.allocated, size));
    }
  });
  run_tasks(before_sizes_known, aspect_threads);
  run_tasks(after_sizes_known, aspect_threads);
  events.time = std::move(time);
  events.free_time = std::move(free_time);
  events.thread_count = spec_.threads;
  generated_ += m;
}

void check_synthetic_byte_totals(const SyntheticSpec& spec, std::uint64_t seed, const std::string& where) {
  const bool rounded = spec.allocated.kind != AllocatedRounding::Kind::none;
  const auto allocated_of = [&](std::uint64_t size) { return rounded ? allocated_size(spec.allocated, size) : 0; };
  const std::uint64_t largest = largest_size(spec.sizes);
  if (static_cast<unsigned __int128>(spec.allocations) * std::max(largest, allocated_of(largest)) <= kMaxTraceBytes) {
    return;  // within the limit whatever is drawn
  }
  // The sizes alone, drawn from their stream chunk by chunk as SyntheticEvents::next
  // draws them (one task: a sampler with sequence positions carries them in order).
  SizeSampler sampler(spec.sizes);
  RandomStream carried;
  ByteTotals totals;
  constexpr std::size_t kPiece = std::size_t{1} << 20;
  for (std::uint64_t first = 0; first < spec.allocations; first += kPiece) {
    const auto m = static_cast<std::size_t>(std::min<std::uint64_t>(kPiece, spec.allocations - first));
    const auto add = [&](RandomStream& random, std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        const std::uint64_t size = sampler.draw(random).size;
        totals.add(size, allocated_of(size));
      }
    };
    for (auto& task : aspect_tasks(spec.seed.value_or(seed), Purpose::sizes, first, m, carried, 1, add)) task();
  }
  totals.check(where);
}

Trace generate_synthetic(const SyntheticSpec& spec, std::uint64_t seed, const std::string& where, unsigned threads) {
  SyntheticEvents events(spec, spec.seed.value_or(seed));
  SyntheticPiece piece;
  events.next(spec.allocations, piece, threads);
  Trace trace = std::move(piece.events);
  GroupColumn stacks, types;
  const unsigned numbering_threads = spec.allocations >= kParallelAspectsFrom ? threads : 1;
  const std::function<void()> numbering[] = {
      [&] { stacks = number_raw_ids(spec.stacks, "stack", std::move(piece.raw_stacks), piece.sizes); },
      [&] { types = number_raw_ids(spec.types, "type", std::move(piece.raw_types), piece.sizes); },
  };
  run_tasks(numbering, numbering_threads);
  trace.stack = std::move(stacks.ids);
  trace.stack_names = std::move(stacks.names);
  trace.stack_count = static_cast<std::uint32_t>(trace.stack_names.size());
  trace.type = std::move(types.ids);
  trace.type_names = std::move(types.names);
  trace.type_count = static_cast<std::uint32_t>(trace.type_names.size());
  trace.check_byte_totals(where);
  return trace;
}

}  // namespace allocsim
