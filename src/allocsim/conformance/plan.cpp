#include "allocsim/conformance/plan.h"

#include <algorithm>
#include <cmath>

#include "allocsim/util/error.h"

namespace allocsim {

Plan standard_plan(std::uint64_t rate, double scale) {
  Plan plan;
  plan.rate = rate;
  plan.sites = {
      {"startup", 72, false, {262144}},
      {"small", 50000, false, {24}},
      {"medium", 3000, false, {3000}},
      {"large", 100, false, {200000}},
      {"mixed", 2000, false, {16, 512, 8192, 65536}},
      // Fifteen sizes from 8 KiB to 27 KiB (each a Go size class of its own, as the Go
      // driver needs) beside 1 MiB: a profile that sums a stack's objects before
      // scaling them by their average size (scale ~1 here) undercounts the small ones
      // (sampled with 6% to 19%) by ~10% of the site; pprof, scaling each object by its
      // own size, does not (gperftools.h).
      {"stacked",
       1600,
       false,
       {8192, 9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 1048576}},
      {"marker", 20, false, {rate}},
      {"freed", 10000, true, {200}},
  };
  double live = 0;  // checked in floating point before any count is rounded
  for (const PlanSite& site : plan.sites) {
    if (!site.freed)
      live += site.name == "startup" ? static_cast<double>(site.count) : static_cast<double>(site.count) * scale;
  }
  if (!(scale > 0) || live > static_cast<double>(kMaxPlanLiveBlocks)) {
    throw InputError("--scale: must be above 0 and keep at most " + std::to_string(kMaxPlanLiveBlocks) +
                     " blocks live; scale " + std::to_string(scale) + " keeps " + std::to_string(live));
  }
  for (PlanSite& site : plan.sites) {
    if (site.name == "startup") continue;
    site.count =
        std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(static_cast<double>(site.count) * scale)));
  }
  return plan;
}

std::string encode_plan(const Plan& plan) {
  // Word by word: GCC 12's -Wrestrict misfires on "literal" + std::to_string(...).
  std::string out = "rate";
  auto word = [&](const std::string& w) {
    out += ' ';
    out += w;
  };
  word(std::to_string(plan.rate));
  for (const PlanSite& site : plan.sites) {
    out += "\nsite";
    word(site.name);
    word(std::to_string(site.count));
    word(site.freed ? "1" : "0");
    for (std::uint64_t size : site.sizes) word(std::to_string(size));
  }
  return out + "\n";
}

Trace plan_trace(const Plan& plan, const std::map<std::uint64_t, std::uint64_t>& allocated, bool split_sizes) {
  Trace trace;
  std::uint64_t time = 0;
  for (const PlanSite& site : plan.sites) {
    const bool split = split_sizes && site.sizes.size() > 1;
    const auto first_stack = static_cast<std::uint32_t>(trace.stack_names.size());
    if (split) {
      for (std::uint64_t size : site.sizes) trace.stack_names.push_back(site.name + ":" + std::to_string(size));
    } else {
      trace.stack_names.push_back(site.name);
    }
    for (std::uint64_t j = 0; j < site.count; ++j) {
      const std::uint64_t size = site.size_of(j);
      const auto s = first_stack + static_cast<std::uint32_t>(split ? j % site.sizes.size() : 0);
      trace.thread.push_back(0);
      trace.requested.push_back(size);
      if (!allocated.empty()) {
        const auto it = allocated.find(size);
        if (it == allocated.end()) throw InputError("driver output: no allocated size for " + std::to_string(size));
        trace.allocated.push_back(it->second);
      }
      trace.stack.push_back(s);
      trace.type.push_back(0);
      trace.time.push_back(time++);
      trace.free_time.push_back(site.freed ? time++ : kNeverFreed);
    }
  }
  trace.thread_count = 1;
  trace.stack_count = static_cast<std::uint32_t>(trace.stack_names.size());
  trace.type_count = 1;
  trace.validate("conformance plan");
  return trace;
}

}  // namespace allocsim
