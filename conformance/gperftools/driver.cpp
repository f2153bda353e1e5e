// Drives gperftools' tcmalloc sampler (2.10) through the allocation plan and reports
// the live sampled objects of its heap sample.
//
// Run with TCMALLOC_SAMPLE_PARAMETER=<T>. Output (CSV on stdout):
//   meta,<key>,<value>                        version, rate, allocated_before_plan
//   sample,<site>,<requested>,<allocated>,1   one per live sampled object of
//       MallocExtension::GetHeapSample (its entries "count: bytes [..] @ pcs" hold the
//       requested size; freed objects leave the sample)
//   profile,<site>,<objects>,<bytes>          one per entry of the heap sample, as pprof reads
//       it: pprof scales each entry (line) by its own average size, and tcmalloc writes
//       each sampled object as an entry of its own, so entries are not summed per stack
//   size,<requested>,<allocated>              tc_nallocx for every planned size
// Usage: driver PLAN
#include <gperftools/malloc_extension.h>
#include <gperftools/nallocx.h>
#include <gperftools/tcmalloc.h>

#include <cinttypes>

#include "../native/plan.h"

int main(int argc, char** argv) {
  if (argc != 2) driver::fail("usage: driver PLAN");
  const driver::Plan plan = driver::read_plan(argv[1]);
  const char* parameter = std::getenv("TCMALLOC_SAMPLE_PARAMETER");
  if (parameter == nullptr || std::strtoull(parameter, nullptr, 10) != plan.rate) {
    driver::fail("TCMALLOC_SAMPLE_PARAMETER does not match the plan's rate");
  }

  // Bytes in use before the plan starts (mostly libstdc++'s start-up allocations): they
  // count against the main thread's unsampled first 16 MiB.
  std::size_t allocated_before_plan = 0;
  MallocExtension::instance()->GetNumericProperty("generic.current_allocated_bytes", &allocated_before_plan);

  driver::run_plan(plan);

  std::string sample;
  MallocExtension::instance()->GetHeapSample(&sample);
  std::printf("meta,version,%s\n", tc_version(nullptr, nullptr, nullptr));
  std::printf("meta,rate,%" PRIu64 "\n", plan.rate);
  std::printf("meta,allocated_before_plan,%zu\n", allocated_before_plan);
  std::istringstream lines(sample);
  std::string line;
  while (std::getline(lines, line)) {
    std::uint64_t objects = 0, bytes = 0;
    const std::size_t at = line.find('@');
    if (at == std::string::npos || std::sscanf(line.c_str(), " %" SCNu64 ": %" SCNu64, &objects, &bytes) != 2) continue;
    if (line.compare(0, 12, "heap profile") == 0) continue;
    std::vector<std::uintptr_t> frames;
    std::istringstream pcs(line.substr(at + 1));
    for (std::string pc; pcs >> pc;) frames.push_back(std::stoull(pc, nullptr, 16));
    const std::string site = driver::site_of(frames);
    if (site.empty()) continue;
    for (std::uint64_t o = 0; o < objects; ++o) {
      const std::uint64_t size = bytes / objects;
      std::printf("sample,%s,%" PRIu64 ",%zu,1\n", site.c_str(), size, nallocx(size, 0));
    }
    std::printf("profile,%s,%" PRIu64 ",%" PRIu64 "\n", site.c_str(), objects, bytes);
  }
  for (const driver::Site& site : plan.sites) {
    for (std::size_t size : site.sizes) std::printf("size,%zu,%zu\n", size, nallocx(size, 0));
  }
  return 0;
}
