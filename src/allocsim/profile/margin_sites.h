#pragma once
// The sites a profiler correctness test checks: each site's allocations by the size
// the scheme samples them at (its allocated size), so their true bytes and the exact
// distribution of their estimate follow. Sites come from a trace (its stacks) or from
// a site list, which becomes a trace for the engine to replay.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
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
  // Allocations certain to be sampled outside the model (size -> allocations): the one
  // that ends an unseen start (take_out_unsampled_start). They and the allocations the
  // start hides are not in `sizes`; `bytes` stays the site's true bytes.
  std::map<std::uint64_t, std::uint64_t> certain{};  // {}: aggregates may leave it out
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

// A start in which thread 0 samples nothing for its first `startup_bytes`
// (gperftools' main thread, whose first counter is 16 MiB: Scheme::unsampled_start),
// then samples the allocation that crosses it for certain, the sampling fresh after
// it: the allocations it hides, by (stack, allocated size), and the crossing one.
// `repeats`: the workload is `trace` run that many times over (a workload multiplier:
// the window is fixed in bytes, so it may end in a later run, or hide a smaller
// fraction of a larger workload).
struct UnsampledStart {
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint64_t> hidden;  // (stack, size) -> allocations
  std::optional<std::pair<std::uint32_t, std::uint64_t>> crossing;          // none: the window never ends
};
UnsampledStart unsampled_start(const Trace& trace, const Scheme& scheme, std::uint64_t startup_bytes,
                               std::uint64_t repeats = 1);

// Takes `start` out of `site`: its hidden allocations leave `sizes`, the crossing one
// moves to `certain`. `site` holds the allocations of stack `site.stack`, or of every
// stack when `every_stack` (whole_workload).
void take_out_start(MarginSite& site, const UnsampledStart& start, bool every_stack = false);

}  // namespace allocsim::profile
