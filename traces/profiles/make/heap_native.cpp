// Writes the heap profile of jemalloc 5.3 (prof.dump, heap_v2 text) or gperftools 2.10
// (MallocExtension::GetHeapSample, the legacy heap_v2 text) for a program whose call
// sites allocate known bytes. Built twice: -DHEAP_JEMALLOC with -ljemalloc, or
// -DHEAP_GPERFTOOLS with -ltcmalloc. The sampling rate comes from the environment
// (MALLOC_CONF=prof:true,lg_prof_sample:N or TCMALLOC_SAMPLE_PARAMETER=N). Under
// gperftools' heap profiler (HEAPPROFILE=PREFIX in the environment, which records every
// allocation) it also dumps that profile, "@ heapprofile", to PREFIX.0001.heap while
// the blocks are live.
//
// Usage: heap_native OUT [MEDIUM_FACTOR]
//
// MEDIUM_FACTOR (default 1) multiplies site_medium's 2000 blocks, a known change for
// scripts/diff-real-check.sh; at most 2.5, so every block still fits live's reserved
// capacity (a regrown vector would be one more record). Without it the allocations
// are as before.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#if defined(HEAP_JEMALLOC)
#include <jemalloc/jemalloc.h>
#elif defined(HEAP_GPERFTOOLS)
#include <gperftools/heap-profiler.h>
#include <gperftools/malloc_extension.h>
#else
#error "build with -DHEAP_JEMALLOC or -DHEAP_GPERFTOOLS"
#endif

namespace {

std::vector<void*> live;
int medium_count = 2000;  // site_medium's blocks

[[noreturn]] void fail(const char* message) {
  std::fprintf(stderr, "heap_native: %s\n", message);
  std::exit(2);
}

__attribute__((noinline)) void* touch(std::size_t size) {
  void* p = std::malloc(size);
  if (p == nullptr) fail("malloc failed");
  std::memset(p, 1, size < 64 ? size : 64);
  return p;
}

}  // namespace

// One non-inlined function per site, so each sample's stack names its site.
extern "C" {
__attribute__((noinline)) void site_small() {
  for (int j = 0; j < 20000; ++j) live.push_back(touch(64));
}
__attribute__((noinline)) void site_medium() {
  for (int j = 0; j < medium_count; ++j) live.push_back(touch(4096));
}
__attribute__((noinline)) void site_large() {
  for (int j = 0; j < 20; ++j) live.push_back(touch(1 << 20));
}
__attribute__((noinline)) void site_mixed() {
  for (int j = 0; j < 4000; ++j) live.push_back(touch(j % 2 == 0 ? 256 : 8192));
}
__attribute__((noinline)) void site_freed() {
  for (int j = 0; j < 10000; ++j) std::free(touch(1024));
}
}

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) fail("usage: heap_native OUT [MEDIUM_FACTOR]");
  if (argc == 3) {
    char* end = nullptr;
    const double factor = std::strtod(argv[2], &end);
    if (end == argv[2] || *end != '\0' || !(factor > 0 && factor <= 2.5)) fail("MEDIUM_FACTOR: not a number in (0, 2.5]");
    medium_count = static_cast<int>(2000 * factor + 0.5);
  }
  live.reserve(30000);
  site_small();
  site_medium();
  site_large();
  site_mixed();
  site_freed();
#if defined(HEAP_JEMALLOC)
  const char* path = argv[1];
  if (mallctl("prof.dump", nullptr, nullptr, &path, sizeof(path)) != 0) fail("prof.dump failed");
#else
  std::string sample;
  MallocExtension::instance()->GetHeapSample(&sample);
  std::ofstream(argv[1]) << sample;
  if (IsHeapProfilerRunning()) HeapProfilerDump("the sites' blocks live");
#endif
  for (void* p : live) std::free(p);
  return 0;
}
