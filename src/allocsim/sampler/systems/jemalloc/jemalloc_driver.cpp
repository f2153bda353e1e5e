// The conformance driver of `jemalloc`: the real allocator, with heap profiling on,
// replays a plan (conformance/jemalloc/driver.cpp) and dumps its profile; jeprof's
// per-stack scaling turns the dump into estimates (ProfileScaling::average_size).
#include "allocsim/sampler/conformance_system.h"
#include "allocsim/sampler/systems/jemalloc/jemalloc.h"

namespace allocsim {

ConformanceSystem jemalloc_driver() {
  ConformanceSystem s;
  s.name = "jemalloc";
  s.summary = "jemalloc 5.3 heap profiling (prof:true, lg_prof_sample), prof_recent and prof.dump";
  s.packages = "libjemalloc-dev";
  s.sources = {"conformance/jemalloc/driver.cpp", "conformance/native/plan.h"};
  s.binary = "driver";
  s.build = std::string(kNativeDriverFlags) + " {src}/conformance/jemalloc/driver.cpp -o {out} -ljemalloc -ldl";
  s.run = "MALLOC_CONF=prof:true,prof_active:true,lg_prof_sample:{lg_rate} {bin} {plan} {work}/heap.prof";
  s.rate_power_of_two = true;
  s.samples_include_freed = true;
  s.scaling = ProfileScaling::average_size;
  return s;
}

}  // namespace allocsim
