#pragma once
// The sites a profiler correctness test checks: each site's allocations by the size
// the scheme samples them at (its allocated size), so their true bytes and the exact
// distribution of their estimate follow. Sites come from a trace (its stacks) or from
// a site list, which becomes a trace for the engine to replay.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "allocsim/json/json_reader.h"
#include "allocsim/sampler/scheme.h"
#include "allocsim/trace/trace.h"

namespace allocsim::profile {

struct MarginSite {
  std::string name;
  std::uint32_t stack = 0;                       // the trace's stack id
  std::map<std::uint64_t, std::uint64_t> sizes;  // allocated size -> allocations
  double bytes = 0;                              // true allocated bytes
};

// A site list: {"sites": [{"name": "small", "allocations": [{"size": 64, "count":
// 20000}, ...]}, ...]}, every key checked (errors name the JSON path under `where`).
// The sizes are requested sizes; `allocations` may hold several sizes (a mixed site).
// The trace allocates the sites' objects round-robin, one allocation of each site in
// turn, in one thread, all live at the end; stack i is site i, named.
Trace trace_of_site_list(const nlohmann::json& list, const std::string& where);

// The stacks of `trace` holding at least `min_share` of its allocated bytes (as
// `scheme` allocates them), by decreasing bytes; every stack with bytes when
// `min_share` is 0. Names from the trace, else "stack N".
std::vector<MarginSite> sites_of_trace(const Trace& trace, const Scheme& scheme, double min_share);

// Every allocation of `trace` as one site, named "all": what shares are shares of.
MarginSite whole_workload(const Trace& trace, const Scheme& scheme);

}  // namespace allocsim::profile
