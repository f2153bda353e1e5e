#pragma once
// The allocation plan every conformance driver performs: a few call sites, each
// allocating `count` blocks whose sizes cycle through `sizes`, in plan order on one
// thread. Freed sites free each block right after allocating it; the others keep
// theirs live until the profile is read. The same plan becomes an allocsim trace
// (one stack per site), so the model replays exactly what the driver did.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "allocsim/trace/trace.h"

namespace allocsim {

// The most blocks a plan keeps live: the native drivers' table
// (conformance/native/plan.h, kMaxLiveBlocks).
inline constexpr std::uint64_t kMaxPlanLiveBlocks = std::uint64_t{1} << 20;

struct PlanSite {
  std::string name;  // the driver's function site_<name> (or its equivalent)
  std::uint64_t count = 0;
  bool freed = false;
  std::vector<std::uint64_t> sizes;

  std::uint64_t size_of(std::uint64_t j) const { return sizes[j % sizes.size()]; }
};

struct Plan {
  std::uint64_t rate = 0;  // the sampling rate the driver runs at
  std::vector<PlanSite> sites;
};

// A startup site of 72 blocks of 256 KiB (18 MiB: gperftools' main thread samples
// nothing in its first 16 MiB), then many small, medium and large blocks, one site mixing sizes from 16 B to 64 KiB,
// one mixing fifteen sizes from 8 to 27 KiB with 1 MiB (where per-object and per-stack
// scaling of a profile differ),
// marker blocks of exactly `rate` bytes and a site whose blocks are all freed.
// `scale` multiplies every count but the startup site's (the quick mode uses fewer
// allocations); InputError when the plan would keep more than kMaxPlanLiveBlocks
// blocks live.
Plan standard_plan(std::uint64_t rate, double scale = 1.0);

// The text the drivers read:  "rate R" then "site NAME COUNT FREED SIZE..." lines.
std::string encode_plan(const Plan& plan);

// The plan as a trace: allocation j of each site in order, a freed block's free
// right after it; stack = site index (named), thread 0. `allocated` maps a request
// to the allocator's size (the trace's allocated column); empty leaves it out.
// `split_sizes`: each size of a site with several sizes becomes a stack of its own,
// named "<site>:<size>" (which object sizes a site's samples land on).
Trace plan_trace(const Plan& plan, const std::map<std::uint64_t, std::uint64_t>& allocated = {},
                 bool split_sizes = false);

}  // namespace allocsim
