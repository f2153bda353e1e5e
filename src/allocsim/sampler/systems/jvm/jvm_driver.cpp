// The conformance drivers of `jvm`: a Java program replays a plan
// (conformance/jvm/Driver.java) under a JVMTI agent (conformance/jvm/agent.c) that
// records SampledObjectAlloc events with their weights.
#include <algorithm>

#include "allocsim/sampler/conformance_system.h"
#include "allocsim/sampler/systems/jvm/jvm.h"
#include "allocsim/sampler/systems/jvm/jvm_tlab.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

// The JVM driver under one garbage collector, with TLABs of fixed size (no
// resizing) and no collection during the plan, so that the model's TLAB paths
// (jvm_tlab.h) see the same buffers. How the plan's first TLAB is known:
//   contiguous heap (region 0): the driver reports the bytes its main thread
//     allocated before the plan, all in the TLAB it filled before sampling was
//     switched on; what is left of it is unarmed;
//   G1 (region > 0): the driver probes its way to a TLAB refilled at region offset 16
//     after a failed refill (Driver.java --probe-tlab), so the plan starts 16 bytes
//     into an armed TLAB of min(TLABSize + 16, half a region) bytes at that offset.
ConformanceSystem jvm_driver(const std::string& name, const std::string& collector, std::uint64_t tlab,
                             std::uint64_t region) {
  ConformanceSystem s;
  s.name = name;
  s.summary = "OpenJDK 17 JEP 331 heap sampling (JVMTI SetHeapSamplingInterval, SampledObjectAlloc), " + collector +
              " collector, " + std::to_string(tlab / 1024) + " KiB TLABs";
  s.packages = "openjdk-17-jdk-headless";
  s.sources = {"conformance/jvm/Driver.java", "conformance/jvm/agent.c"};
  s.binary = "driver";
  s.build = "mkdir -p {out} && java_home=$(dirname $(dirname $(readlink -f $(command -v javac)))) && "
            "gcc -shared -fPIC -O2 -I$java_home/include -I$java_home/include/linux "
            "{src}/conformance/jvm/agent.c -o {out}/libagent.so && javac -d {out} {src}/conformance/jvm/Driver.java";
  const std::string heap =
      region > 0 ? "-Xms1g -Xmx1g -Xmn900m -XX:G1HeapRegionSize=" + std::to_string(region) + " -XX:-UseCompressedOops"
                 : "-Xms1g -Xmx1g";
  const std::string probe = region > 0 ? " --probe-tlab " + std::to_string(region) : "";
  s.run = "java -XX:+Use" + collector + "GC " + heap + " -XX:TLABSize=" + std::to_string(tlab) +
          " -XX:-ResizeTLAB -agentpath:{bin}/libagent.so={rate} -cp {bin} Driver {plan}" + probe +
          " && cat samples.csv";
  s.samples_include_freed = true;
  s.rate_parameter = "interval";  // JVMTI's name: SetHeapSamplingInterval
  s.scaling = ProfileScaling::none;
  s.scheme_parameters = {{"tlab", tlab}};
  const std::uint64_t largest = region / 2;  // G1's humongous threshold caps a TLAB
  if (region > 0) s.scheme_parameters.update({{"tlab_max", largest}, {"tlab_region", region}});
  s.from_meta = [tlab, region, largest](nlohmann::json& parameters, const std::map<std::string, std::string>& meta) {
    if (region == 0) {
      if (meta.count("allocated_before_plan") == 0) throw InputError("jvm driver: no meta allocated_before_plan");
      const std::uint64_t before = driver_meta_uint(meta, "allocated_before_plan", UINT64_MAX);
      const std::uint64_t usable = tlab - kJvmTlabReserve;
      parameters["initial_tlab"] = before < usable ? usable - before : 0;
      parameters["initial_tlab_armed"] = false;
      return;
    }
    constexpr std::uint64_t kProbe = 16;  // an empty byte[]
    if (meta.count("probe_tlab_offset") == 0 || driver_meta_uint(meta, "probe_tlab_offset", region) != kProbe) {
      throw InputError("jvm driver: meta probe_tlab_offset is not " + std::to_string(kProbe) +
                       " (the TLAB probe did not find a refill after a region start)");
    }
    const std::uint64_t first = std::min(tlab + kProbe, largest);
    parameters["initial_tlab"] = first - kJvmTlabReserve - kProbe;
    parameters["initial_tlab_armed"] = true;
    parameters["tlab_region_used"] = kProbe + first;
  };
  s.repeated_runs_expected = "HotSpot seeds its sampler from a thread's address truncated to 32 bits";
  return s;
}

}  // namespace

// jvm: G1, the default on machines with 2 or more cores and 1792 MB, with 1 MiB
// regions (what it picks for a 1 GiB heap) and 512 KiB TLABs (its largest, half a
// region, and what it starts with here); jvm-serial: the serial collector, the
// default below that, with 4 MiB TLABs in an eden larger than the plan.
std::vector<ConformanceSystem> jvm_drivers() {
  return {jvm_driver("jvm", "G1", 512 * 1024, 1024 * 1024), jvm_driver("jvm-serial", "Serial", 4 * 1024 * 1024, 0)};
}

}  // namespace allocsim
