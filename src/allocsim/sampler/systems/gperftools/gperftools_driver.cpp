// The conformance driver of `gperftools`: the real tcmalloc of gperftools replays a
// plan (conformance/gperftools/driver.cpp) and writes its heap sample, one line per
// sampled object, which pprof scales line by line.
#include "allocsim/sampler/conformance_system.h"
#include "allocsim/sampler/systems/gperftools/gperftools.h"

namespace allocsim {

ConformanceSystem gperftools_driver() {
  ConformanceSystem s;
  s.name = "gperftools";
  s.summary = "gperftools 2.10 tcmalloc (TCMALLOC_SAMPLE_PARAMETER), MallocExtension::GetHeapSample";
  s.packages = "libgoogle-perftools-dev";
  s.sources = {"conformance/gperftools/driver.cpp", "conformance/native/plan.h"};
  s.binary = "driver";
  s.build = std::string(kNativeDriverFlags) + " {src}/conformance/gperftools/driver.cpp -o {out} -ltcmalloc -ldl";
  s.run = "TCMALLOC_SAMPLE_PARAMETER={rate} {bin} {plan}";
  s.samples_include_freed = false;
  s.records_allocated_sizes = true;
  s.scaling = ProfileScaling::average_size;
  s.one_line_per_sample = true;
  // The main thread's first 16 MiB are unsampled (gperftools.h); what the process
  // allocated before the plan started is already counted against them.
  s.from_meta = [](nlohmann::json& parameters, const std::map<std::string, std::string>& meta) {
    if (meta.count("allocated_before_plan") == 0) return;
    parameters["startup_counter"] =
        kGperftoolsStartupCounter - driver_meta_uint(meta, "allocated_before_plan", kGperftoolsStartupCounter);
  };
  return s;
}

}  // namespace allocsim
