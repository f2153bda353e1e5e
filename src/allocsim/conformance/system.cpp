#include "allocsim/conformance/system.h"

#include <charconv>

#include "allocsim/sampler/systems/gperftools/gperftools.h"
#include "allocsim/sampler/systems/jvm/jvm_tlab.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

// The driver's meta value `key` as an integer in [0, max]; InputError naming the key
// and the bound otherwise.
std::uint64_t meta_uint(const std::map<std::string, std::string>& meta, const std::string& key, std::uint64_t max) {
  const std::string& text = meta.at(key);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || value > max) {
    throw InputError("driver meta " + key + ": expected an integer from 0 to " + std::to_string(max) + ", got \"" +
                     text + "\"");
  }
  return value;
}

// Native drivers: frame pointers and exported, non-merged site functions, so each
// sampled stack resolves to its site with dladdr.
constexpr const char* kNativeFlags =
    "g++ -std=c++20 -O1 -fno-inline -fno-ipa-icf -fno-optimize-sibling-calls -fno-omit-frame-pointer -rdynamic";

ConformanceSystem jemalloc_system() {
  ConformanceSystem s;
  s.name = "jemalloc";
  s.summary = "jemalloc 5.3 heap profiling (prof:true, lg_prof_sample), prof_recent and prof.dump";
  s.packages = "libjemalloc-dev";
  s.sources = {"conformance/jemalloc/driver.cpp", "conformance/native/plan.h"};
  s.binary = "driver";
  s.build = std::string(kNativeFlags) + " {src}/conformance/jemalloc/driver.cpp -o {out} -ljemalloc -ldl";
  s.run = "MALLOC_CONF=prof:true,prof_active:true,lg_prof_sample:{lg_rate} {bin} {plan} {work}/heap.prof";
  s.rate_power_of_two = true;
  s.samples_include_freed = true;
  s.scaling = ProfileScaling::average_size;
  s.scheme = "jemalloc";
  s.scheme_parameters = nlohmann::json::object();
  s.estimator = "bytes";
  s.default_rate = 131072;
  return s;
}

ConformanceSystem gperftools_system() {
  ConformanceSystem s;
  s.name = "gperftools";
  s.summary = "gperftools 2.10 tcmalloc (TCMALLOC_SAMPLE_PARAMETER), MallocExtension::GetHeapSample";
  s.packages = "libgoogle-perftools-dev";
  s.sources = {"conformance/gperftools/driver.cpp", "conformance/native/plan.h"};
  s.binary = "driver";
  s.build = std::string(kNativeFlags) + " {src}/conformance/gperftools/driver.cpp -o {out} -ltcmalloc -ldl";
  s.run = "TCMALLOC_SAMPLE_PARAMETER={rate} {bin} {plan}";
  s.samples_include_freed = false;
  s.records_allocated_sizes = true;
  s.scaling = ProfileScaling::average_size;
  s.scheme = "gperftools";
  s.scheme_parameters = nlohmann::json::object();
  // The main thread's first 16 MiB are unsampled (gperftools.h); what the process
  // allocated before the plan started is already counted against them.
  s.from_meta = [](nlohmann::json& parameters, const std::map<std::string, std::string>& meta) {
    if (meta.count("allocated_before_plan") == 0) return;
    parameters["startup_counter"] =
        kGperftoolsStartupCounter - meta_uint(meta, "allocated_before_plan", kGperftoolsStartupCounter);
  };
  // pprof scales each line of the heap sample, and each sampled object is a line.
  s.estimator = "bytes";
  s.default_rate = 131072;
  return s;
}

ConformanceSystem go_system() {
  ConformanceSystem s;
  s.name = "go";
  s.summary = "Go 1.19 runtime heap profile (runtime.MemProfileRate), runtime.MemProfile records";
  s.packages = "golang-go";
  s.sources = {"conformance/go/driver.go"};
  s.binary = "driver";
  s.build = "HOME={dir} GOCACHE={dir}/gocache GOPATH={dir}/gopath go build -o {out} {src}/conformance/go/driver.go";
  s.run = "GODEBUG=memprofilerate={rate} {bin} {plan}";
  s.samples_include_freed = true;
  s.scaling = ProfileScaling::none;
  s.scheme = "go";
  s.scheme_parameters = nlohmann::json::object();
  // The driver sets MemProfileRate itself because Go 1.19 overwrites
  // GODEBUG=memprofilerate with the default 512 KiB before main (driver.go): the
  // rate main starts with must be that default, or the runtime is not the modelled one.
  s.from_meta = [](nlohmann::json&, const std::map<std::string, std::string>& meta) {
    constexpr std::uint64_t kDefaultRate = 512 * 1024;
    if (meta.count("rate_at_main") == 0) throw InputError("go driver: no meta rate_at_main");
    const std::uint64_t at_main = meta_uint(meta, "rate_at_main", UINT64_MAX);
    if (at_main != kDefaultRate) {
      throw InputError("go driver: meta rate_at_main is " + std::to_string(at_main) + ", not Go 1.19's default " +
                       std::to_string(kDefaultRate) + " that overwrites GODEBUG=memprofilerate (another Go version?)");
    }
  };
  s.estimator = "bytes";
  s.default_rate = 131072;
  return s;
}

// The JVM driver under one garbage collector, with TLABs of fixed size (no
// resizing) and no collection during the plan, so that the model's TLAB paths
// (jvm_tlab.h) see the same buffers. How the plan's first TLAB is known:
//   contiguous heap (region 0): the driver reports the bytes its main thread
//     allocated before the plan, all in the TLAB it filled before sampling was
//     switched on; what is left of it is unarmed;
//   G1 (region > 0): the driver probes its way to a TLAB refilled at region offset 16
//     after a failed refill (Driver.java --probe-tlab), so the plan starts 16 bytes
//     into an armed TLAB of min(TLABSize + 16, half a region) bytes at that offset.
ConformanceSystem jvm_system(const std::string& name, const std::string& collector, std::uint64_t tlab,
                             std::uint64_t region) {
  ConformanceSystem s;
  s.name = name;
  s.summary = "OpenJDK 17 JEP 331 heap sampling (JVMTI SetHeapSamplingInterval, SampledObjectAlloc), " +
              collector + " collector, " + std::to_string(tlab / 1024) + " KiB TLABs";
  s.packages = "openjdk-17-jdk-headless";
  s.sources = {"conformance/jvm/Driver.java", "conformance/jvm/agent.c"};
  s.binary = "driver";
  s.build =
      "mkdir -p {out} && java_home=$(dirname $(dirname $(readlink -f $(command -v javac)))) && "
      "gcc -shared -fPIC -O2 -I$java_home/include -I$java_home/include/linux "
      "{src}/conformance/jvm/agent.c -o {out}/libagent.so && javac -d {out} {src}/conformance/jvm/Driver.java";
  const std::string heap =
      region > 0 ? "-Xms1g -Xmx1g -Xmn900m -XX:G1HeapRegionSize=" + std::to_string(region) + " -XX:-UseCompressedOops"
                 : "-Xms1g -Xmx1g";
  const std::string probe = region > 0 ? " --probe-tlab " + std::to_string(region) : "";
  s.run = "java -XX:+Use" + collector + "GC " + heap + " -XX:TLABSize=" + std::to_string(tlab) +
          " -XX:-ResizeTLAB -agentpath:{bin}/libagent.so={rate} -cp {bin} Driver {plan}" + probe + " && cat samples.csv";
  s.samples_include_freed = true;
  s.scaling = ProfileScaling::none;
  s.scheme = "jvm";
  s.scheme_parameters = {{"tlab", tlab}};
  const std::uint64_t largest = region / 2;  // G1's humongous threshold caps a TLAB
  if (region > 0) s.scheme_parameters.update({{"tlab_max", largest}, {"tlab_region", region}});
  s.rate_parameter = "interval";
  s.from_meta = [tlab, region, largest](nlohmann::json& parameters, const std::map<std::string, std::string>& meta) {
    if (region == 0) {
      if (meta.count("allocated_before_plan") == 0) throw InputError("jvm driver: no meta allocated_before_plan");
      const std::uint64_t before = meta_uint(meta, "allocated_before_plan", UINT64_MAX);
      const std::uint64_t usable = tlab - kJvmTlabReserve;
      parameters["initial_tlab"] = before < usable ? usable - before : 0;
      parameters["initial_tlab_armed"] = false;
      return;
    }
    constexpr std::uint64_t kProbe = 16;  // an empty byte[]
    if (meta.count("probe_tlab_offset") == 0 || meta_uint(meta, "probe_tlab_offset", region) != kProbe) {
      throw InputError("jvm driver: meta probe_tlab_offset is not " + std::to_string(kProbe) +
                       " (the TLAB probe did not find a refill after a region start)");
    }
    const std::uint64_t first = std::min(tlab + kProbe, largest);
    parameters["initial_tlab"] = first - kJvmTlabReserve - kProbe;
    parameters["initial_tlab_armed"] = true;
    parameters["tlab_region_used"] = kProbe + first;
  };
  s.estimator = "bytes";
  s.default_rate = 131072;
  s.repeated_runs_expected = "HotSpot seeds its sampler from a thread's address truncated to 32 bits";
  return s;
}

}  // namespace

const std::vector<ConformanceSystem>& conformance_systems() {
  // jvm: G1, the default on machines with 2 or more cores and 1792 MB, with 1 MiB
  // regions (what it picks for a 1 GiB heap) and 512 KiB TLABs (its largest, half a
  // region, and what it starts with here); jvm-serial: the serial collector, the
  // default below that, with 4 MiB TLABs in an eden larger than the plan.
  static const std::vector<ConformanceSystem> systems = {
      jemalloc_system(), gperftools_system(), go_system(), jvm_system("jvm", "G1", 512 * 1024, 1024 * 1024),
      jvm_system("jvm-serial", "Serial", 4 * 1024 * 1024, 0)};
  return systems;
}

const ConformanceSystem* find_conformance_system(const std::string& name) {
  for (const auto& s : conformance_systems()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace allocsim
