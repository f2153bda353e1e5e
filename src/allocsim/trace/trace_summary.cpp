#include "allocsim/trace/trace_summary.h"

#include <algorithm>
#include <array>

#include "allocsim/trace/live_peak.h"
#include "allocsim/trace/size_bucket.h"
#include "allocsim/util/error.h"

namespace allocsim {

TraceSummary summarize_trace(const Trace& trace, const std::string& where, std::size_t top) {
  auto add = [&](std::uint64_t& total, std::uint64_t value) {
    if (__builtin_add_overflow(total, value, &total)) throw InputError(where + ": byte total overflows 64 bits");
  };
  TraceSummary s;
  const std::size_t n = trace.size();
  s.allocations = n;
  s.threads = trace.thread_count;
  s.stacks = trace.stack_count;
  s.types = trace.type_count;
  s.has_allocated_sizes = trace.has_allocated_sizes();
  std::array<TraceSummary::Bucket, 65> buckets{};
  std::vector<TraceSummary::Stack> stacks(trace.stack_count);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t size = trace.requested[i];
    add(s.bytes, size);
    if (s.has_allocated_sizes) add(s.allocated_bytes, trace.allocated[i]);
    if (trace.live_at_end(i)) {
      ++s.live_allocations;
      add(s.live_bytes, size);
    } else {
      ++s.frees;
    }
    TraceSummary::Bucket& bucket = buckets[size_bucket_of(size)];
    ++bucket.allocations;
    bucket.bytes += size;
    TraceSummary::Stack& stack = stacks[trace.stack[i]];
    ++stack.allocations;
    stack.bytes += size;
  }
  if (n > 0) {
    s.first_time = trace.time.front();
    s.last_time = trace.time.back();
    for (std::size_t i = 0; i < n; ++i) {
      if (!trace.live_at_end(i)) s.last_time = std::max(s.last_time, trace.free_time[i]);
    }
  }
  const LivePeak peak = live_peak(trace);
  s.peak_time = peak.time;
  s.peak_live_bytes = peak.bytes;
  for (std::uint32_t b = 0; b < buckets.size(); ++b) {
    if (buckets[b].allocations == 0) continue;
    TraceSummary::Bucket bucket = buckets[b];
    bucket.label = size_bucket_label(b);
    bucket.lo = b == 0 ? 0 : std::uint64_t{1} << (b - 1);
    bucket.hi = b == 64 ? 0 : std::uint64_t{1} << b;
    s.size_histogram.push_back(bucket);
  }
  for (std::uint32_t id = 0; id < stacks.size(); ++id) {
    const bool named = id < trace.stack_names.size() && !trace.stack_names[id].empty();
    stacks[id].name = named ? trace.stack_names[id] : "stack-" + std::to_string(id);
  }
  std::stable_sort(stacks.begin(), stacks.end(), [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
  stacks.resize(std::min(top, stacks.size()));
  s.top_stacks = std::move(stacks);
  return s;
}

nlohmann::ordered_json to_json(const TraceSummary& s) {
  nlohmann::ordered_json out;
  out["allocations"] = s.allocations;
  out["frees"] = s.frees;
  out["bytes"] = s.bytes;
  out["live_allocations"] = s.live_allocations;
  out["live_bytes"] = s.live_bytes;
  out["threads"] = s.threads;
  out["stacks"] = s.stacks;
  out["types"] = s.types;
  out["allocated_bytes"] = s.has_allocated_sizes ? nlohmann::ordered_json(s.allocated_bytes) : nullptr;
  out["first_time"] = s.first_time;
  out["last_time"] = s.last_time;
  out["peak_time"] = s.peak_time;
  out["peak_live_bytes"] = s.peak_live_bytes;
  out["size_histogram"] = nlohmann::ordered_json::array();
  for (const auto& b : s.size_histogram) {
    out["size_histogram"].push_back({{"bucket", b.label},
                                     {"lo", b.lo},
                                     {"hi", b.hi == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(b.hi)},
                                     {"allocations", b.allocations},
                                     {"bytes", b.bytes}});
  }
  out["top_stacks"] = nlohmann::ordered_json::array();
  for (const auto& st : s.top_stacks) {
    out["top_stacks"].push_back({{"stack", st.name}, {"allocations", st.allocations}, {"bytes", st.bytes}});
  }
  return out;
}

TraceTotals trace_totals(const Trace& trace) {
  TraceTotals s;
  s.allocations = trace.size();
  s.threads = trace.thread_count;
  s.stacks = trace.stack_count;
  s.types = trace.type_count;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const double bytes = static_cast<double>(trace.requested[i]);
    s.requested_bytes += bytes;
    if (trace.live_at_end(i)) {
      ++s.live_allocations;
      s.live_requested_bytes += bytes;
    }
  }
  return s;
}

}  // namespace allocsim
