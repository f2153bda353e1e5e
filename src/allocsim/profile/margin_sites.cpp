#include "allocsim/profile/margin_sites.h"

#include <algorithm>
#include <numeric>

#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

// Allocations a site list may ask for in all: its trace is held in memory, some 40
// bytes an allocation with the engine check's weights (10^7 took 380 MB), so a few
// dozen bytes of JSON must not ask for gigabytes.
constexpr std::uint64_t kMaxSiteListAllocations = 10'000'000;

struct ListedSite {
  std::string name;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> sizes;  // (size, count) in order
};

std::vector<ListedSite> read_sites(const nlohmann::json& list, const std::string& where) {
  JsonObject root(list, where + ": $");
  std::vector<ListedSite> sites;
  std::uint64_t total = 0;
  for (const JsonValue& value : root.at("sites").non_empty_array()) {
    JsonObject site = value.object();
    ListedSite listed{site.at("name").string(), {}};
    for (const JsonValue& allocation : site.at("allocations").non_empty_array()) {
      JsonObject entry = allocation.object();
      const std::uint64_t size = entry.at("size").positive_uint();
      JsonValue count_value = entry.at("count");
      const std::uint64_t count = count_value.positive_uint();
      total += std::min(count, kMaxSiteListAllocations + 1);
      if (total > kMaxSiteListAllocations) {
        count_value.fail("the site list allocates more than 10^7 objects in all");
      }
      entry.finish();
      listed.sizes.emplace_back(size, count);
    }
    for (const ListedSite& earlier : sites) {
      if (earlier.name == listed.name) site.at("name").fail("a second site named \"" + listed.name + "\"");
    }
    site.finish();
    sites.push_back(std::move(listed));
  }
  root.finish();
  return sites;
}

}  // namespace

Trace trace_of_site_list(const nlohmann::json& list, const std::string& where) {
  const std::vector<ListedSite> sites = read_sites(list, where);
  // Each site's allocations in order, taken round-robin across the sites.
  std::vector<std::vector<std::uint64_t>> queues(sites.size());
  for (std::size_t s = 0; s < sites.size(); ++s) {
    for (const auto& [size, count] : sites[s].sizes) queues[s].insert(queues[s].end(), count, size);
  }
  Trace trace;
  std::vector<std::size_t> next(sites.size(), 0);
  for (bool any = true; any;) {
    any = false;
    for (std::uint32_t s = 0; s < sites.size(); ++s) {
      if (next[s] == queues[s].size()) continue;
      trace.requested.push_back(queues[s][next[s]++]);
      trace.stack.push_back(s);
      any = true;
    }
  }
  const std::size_t n = trace.requested.size();
  trace.thread.assign(n, 0);
  trace.type.assign(n, 0);
  trace.time.resize(n);
  std::iota(trace.time.mutable_data(), trace.time.mutable_data() + n, std::uint64_t{0});
  trace.free_time.assign(n, kNeverFreed);
  trace.stack_count = static_cast<std::uint32_t>(sites.size());
  for (const ListedSite& site : sites) trace.stack_names.push_back(site.name);
  trace.validate(where);
  return trace;
}

std::vector<MarginSite> sites_of_trace(const Trace& trace, const Scheme& scheme, double min_share) {
  std::vector<MarginSite> stacks(trace.stack_count);
  double total = 0;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const std::uint64_t size = scheme.allocated_size(trace, i);
    MarginSite& site = stacks[trace.stack[i]];
    ++site.sizes[size];
    site.bytes += static_cast<double>(size);
    total += static_cast<double>(size);
  }
  std::vector<MarginSite> sites;
  for (std::uint32_t g = 0; g < trace.stack_count; ++g) {
    MarginSite& site = stacks[g];
    if (site.bytes == 0 || site.bytes < min_share * total) continue;
    site.stack = g;
    site.name = g < trace.stack_names.size() && !trace.stack_names[g].empty() ? trace.stack_names[g]
                                                                              : "stack " + std::to_string(g);
    sites.push_back(std::move(site));
  }
  std::stable_sort(sites.begin(), sites.end(),
                   [](const MarginSite& a, const MarginSite& b) { return a.bytes > b.bytes; });
  return sites;
}

MarginSite whole_workload(const Trace& trace, const Scheme& scheme) {
  MarginSite whole{"all", 0, {}, 0};
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const std::uint64_t size = scheme.allocated_size(trace, i);
    ++whole.sizes[size];
    whole.bytes += static_cast<double>(size);
  }
  return whole;
}

UnsampledStart unsampled_start(const Trace& trace, const Scheme& scheme, std::uint64_t startup_bytes,
                               std::uint64_t repeats) {
  UnsampledStart start;
  if (startup_bytes == 0) return start;
  std::uint64_t counter = startup_bytes;
  for (std::uint64_t run = 0; run < repeats; ++run) {
    for (std::size_t i = 0; i < trace.size(); ++i) {
      if (trace.thread_count > 1 && trace.thread[i] != 0) continue;
      const std::uint64_t size = scheme.allocated_size(trace, i);
      if (counter < size) {  // sampled for certain: the countdown is fresh after it
        start.crossing = std::pair{trace.stack[i], size};
        return start;
      }
      ++start.hidden[{trace.stack[i], size}];
      counter -= size;
    }
  }
  return start;
}

void take_out_start(MarginSite& site, const UnsampledStart& start, bool every_stack) {
  const auto take = [&](std::uint64_t size, std::uint64_t count) {
    const auto found = site.sizes.find(size);
    if (found == site.sizes.end()) return;
    found->second -= std::min(found->second, count);
    if (found->second == 0) site.sizes.erase(found);
  };
  for (const auto& [at, count] : start.hidden) {
    if (every_stack || at.first == site.stack) take(at.second, count);
  }
  if (start.crossing && (every_stack || start.crossing->first == site.stack)) {
    const std::uint64_t size = start.crossing->second;
    if (site.sizes.count(size) != 0) {
      take(size, 1);
      ++site.certain[size];
    }
  }
}

}  // namespace allocsim::profile
