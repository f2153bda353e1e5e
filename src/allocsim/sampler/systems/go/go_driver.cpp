// The conformance driver of `go`: a Go 1.19 program replays a plan
// (conformance/go/driver.go) and reports runtime.MemProfile's records, already
// scaled by the runtime (the driver writes the estimates itself).
#include "allocsim/sampler/conformance_system.h"
#include "allocsim/sampler/systems/go/go.h"
#include "allocsim/util/error.h"

namespace allocsim {

ConformanceSystem go_driver() {
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
  // The driver sets MemProfileRate itself because Go 1.19 overwrites
  // GODEBUG=memprofilerate with the default 512 KiB before main (driver.go): the
  // rate main starts with must be that default, or the runtime is not the modelled one.
  s.from_meta = [](nlohmann::json&, const std::map<std::string, std::string>& meta) {
    constexpr std::uint64_t kDefaultRate = 512 * 1024;
    if (meta.count("rate_at_main") == 0) throw InputError("go driver: no meta rate_at_main");
    const std::uint64_t at_main = driver_meta_uint(meta, "rate_at_main", UINT64_MAX);
    if (at_main != kDefaultRate) {
      throw InputError("go driver: meta rate_at_main is " + std::to_string(at_main) + ", not Go 1.19's default " +
                       std::to_string(kDefaultRate) + " that overwrites GODEBUG=memprofilerate (another Go version?)");
    }
  };
  return s;
}

}  // namespace allocsim
