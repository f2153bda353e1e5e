#pragma once
// What one driver process reports (CSV lines on its standard output):
//   meta,<key>,<value>                             version, rate, seeding facts
//   sample,<site>,<requested>,<usable>,<live 0|1>  one per sampled allocation
//   profile,<site>,<objects>,<bytes>               one per stack of the tool's profile, as
//                                                  the tool wrote it (before any scaling)
//   estimate,<site>,<objects>,<bytes>              a per-site estimate the tool computed itself
//   size,<requested>,<allocated>                   the allocator's size for a planned request
// Lines of sites the plan does not name are kept (the verdict ignores them).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace allocsim {

struct DriverSample {
  std::string site;
  std::uint64_t requested = 0;
  std::uint64_t usable = 0;
  bool live = true;
};

struct DriverTotals {
  std::string site;
  double objects = 0;
  double bytes = 0;
};

struct DriverRun {
  std::map<std::string, std::string> meta;
  std::vector<DriverSample> samples;
  std::vector<DriverTotals> profile;
  std::vector<DriverTotals> estimates;
  std::map<std::uint64_t, std::uint64_t> sizes;
};

// InputError "<path>: line <n>: <reason>" on a malformed line.
DriverRun read_driver_output(const std::string& path);

}  // namespace allocsim
