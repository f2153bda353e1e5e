// The allocation plan shared by the native drivers (jemalloc, gperftools).
//
// allocsim writes the plan (one site per line):
//   rate <bytes>
//   site <name> <count> <freed 0|1> <size> [<size> ...]
// Allocation j of a site asks for sizes[j % sizes.size()] bytes; a freed site frees
// each allocation right after making it. Every site has its own non-inlined,
// externally visible function site_<name>, so a sampled allocation's stack names
// its site (resolved with dladdr; the driver is linked with -rdynamic).
#pragma once
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace driver {

struct Site {
  std::string name;
  std::uint64_t count = 0;
  bool freed = false;
  std::vector<std::size_t> sizes;
};

struct Plan {
  std::uint64_t rate = 0;
  std::vector<Site> sites;
};

[[noreturn]] inline void fail(const std::string& message) {
  std::fprintf(stderr, "driver: %s\n", message.c_str());
  std::exit(2);
}

inline Plan read_plan(const char* path) {
  std::ifstream in(path);
  if (!in) fail(std::string("cannot read plan ") + path);
  Plan plan;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "rate") {
      words >> plan.rate;
    } else if (kind == "site") {
      Site site;
      int freed = 0;
      words >> site.name >> site.count >> freed;
      site.freed = freed != 0;
      for (std::size_t size; words >> size;) site.sizes.push_back(size);
      if (site.sizes.empty()) fail("plan: site " + site.name + " has no sizes");
      plan.sites.push_back(site);
    } else if (!kind.empty()) {
      fail("plan: unknown line: " + line);
    }
  }
  if (plan.rate == 0) fail("plan: no rate");
  return plan;
}

// Blocks kept live until the profile is read, in static storage: the driver makes
// no allocation of its own between the sites.
inline constexpr std::size_t kMaxLiveBlocks = 1 << 20;
inline void* live_blocks[kMaxLiveBlocks];
inline std::size_t live_block_count = 0;

inline void keep(void* p) {
  if (live_block_count == kMaxLiveBlocks) fail("plan keeps too many blocks live");
  live_blocks[live_block_count++] = p;
}

extern "C" {
__attribute__((noinline)) inline void* driver_allocate(std::size_t size) {
  void* p = std::malloc(size);
  if (p == nullptr) fail("malloc failed");
  std::memset(p, 1, size < 64 ? size : 64);  // touch it, so it cannot be elided
  return p;
}

#define DRIVER_SITE(name)                                                \
  __attribute__((noinline)) void site_##name(const driver::Site& site) { \
    for (std::uint64_t j = 0; j < site.count; ++j) {                     \
      void* p = driver_allocate(site.sizes[j % site.sizes.size()]);      \
      if (site.freed)                                                    \
        std::free(p);                                                    \
      else                                                               \
        driver::keep(p);                                                 \
    }                                                                    \
    __asm__ volatile("" ::: "memory");                                   \
  }
DRIVER_SITE(startup)
DRIVER_SITE(small)
DRIVER_SITE(medium)
DRIVER_SITE(large)
DRIVER_SITE(mixed)
DRIVER_SITE(stacked)
DRIVER_SITE(marker)
DRIVER_SITE(freed)
#undef DRIVER_SITE
}

inline void run_plan(const Plan& plan) {
  using Function = void (*)(const Site&);
  struct Entry {
    const char* name;
    Function function;
  };
  static const Entry table[] = {{"startup", site_startup}, {"small", site_small}, {"medium", site_medium},
                                {"large", site_large},     {"mixed", site_mixed}, {"stacked", site_stacked},
                                {"marker", site_marker},   {"freed", site_freed}};
  for (const Site& site : plan.sites) {
    Function function = nullptr;
    for (const Entry& e : table) {
      if (site.name == e.name) function = e.function;
    }
    if (function == nullptr) fail("plan: no driver function for site " + site.name);
    function(site);
  }
}

// The site of a stack: the first frame inside a site_<name> function, "" if none.
inline std::string site_of(const std::vector<std::uintptr_t>& frames) {
  for (std::uintptr_t pc : frames) {
    Dl_info info;
    // A return address points just past the call; pc - 1 is inside the caller.
    if (dladdr(reinterpret_cast<void*>(pc - 1), &info) != 0 && info.dli_sname != nullptr &&
        std::strncmp(info.dli_sname, "site_", 5) == 0) {
      return info.dli_sname + 5;
    }
  }
  return "";
}

}  // namespace driver
