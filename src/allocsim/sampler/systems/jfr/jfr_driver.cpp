// The conformance driver of `jfr`: a Java program (conformance/jfr/Driver.java)
// replays the plan at a fixed allocation pace under a JFR recording of
// jdk.ObjectAllocationSample alone, and the JDK's `jfr print --json` reads the
// recording back; jfr_samples_csv turns that into the driver lines the conformance
// layer compares (conformance/driver_output.h).
#include <cctype>
#include <map>
#include <sstream>

#include "allocsim/sampler/conformance_system.h"
#include "allocsim/sampler/systems/jfr/jfr.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

// The pace of the plan, bytes a second: 128 MiB/s, so that the full plan (~216 MB)
// takes ~1.6 s (8 throttle windows) and its 256 KiB TLABs refill ~510 times a second,
// 3.4 times the 150/s target.
constexpr std::uint64_t kJfrDriverAllocRate = 128ULL << 20;
constexpr std::uint64_t kJfrDriverTlab = 256 << 10;

// The plan's site of a stack: its first frame named Driver.site<Name>, as <name>.
std::string site_of(const nlohmann::json& frames) {
  for (const nlohmann::json& frame : frames) {
    const nlohmann::json& method = frame.at("method");
    const std::string name = method.at("name").get<std::string>();
    if (name.size() <= 4 || name.compare(0, 4, "site") != 0) continue;
    const nlohmann::json& type = method.at("type");
    if (!type.is_object() || type.value("name", "") != "Driver") continue;
    std::string site = name.substr(4);
    site[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(site[0])));
    return site;
  }
  return "";
}

}  // namespace

std::string jfr_samples_csv(const std::string& output) {
  std::istringstream in(output);
  std::string csv, line, json;
  while (std::getline(in, line)) {
    if (line.rfind("meta,", 0) == 0) {
      csv += line + "\n";
    } else {
      json += line + "\n";
    }
  }
  nlohmann::json recording;
  try {
    recording = nlohmann::json::parse(json);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("jfr print --json: not JSON: ") + e.what());
  }
  struct Totals {
    std::uint64_t events = 0;
    double weight = 0;
  };
  std::map<std::string, Totals> sites;
  std::uint64_t events = 0, elsewhere = 0;
  try {
    for (const nlohmann::json& event : recording.at("recording").at("events")) {
      if (event.at("type") != "jdk.ObjectAllocationSample") continue;
      ++events;
      const nlohmann::json& values = event.at("values");
      const nlohmann::json& stack = values.at("stackTrace");
      const std::string site = stack.is_object() ? site_of(stack.at("frames")) : "";
      if (site.empty()) {
        ++elsewhere;
        continue;
      }
      Totals& totals = sites[site];
      ++totals.events;
      totals.weight += values.at("weight").get<double>();
      // JDK 17's event has no object size: the site alone.
      csv += "sample," + site + ",0,0,1\n";
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("jfr print --json: unexpected event: ") + e.what());
  }
  for (const auto& [site, totals] : sites) {
    std::ostringstream row;
    row.precision(17);
    row << "estimate," << site << ',' << totals.events << ',' << totals.weight << '\n';
    csv += row.str();
  }
  csv += "meta,events," + std::to_string(events) + "\n";
  csv += "meta,events_outside_plan," + std::to_string(elsewhere) + "\n";
  return csv;
}

// jfr: OpenJDK 17's JFR under the serial collector (one contiguous eden larger than the
// plan, no collection during it) with fixed 256 KiB TLABs (the model's default), the
// throttle the conformance rate (150/s, default.jfc's, by default), the plan paced at
// kJfrDriverAllocRate (the model's "rate" clock at that rate).
std::vector<ConformanceSystem> jfr_drivers() {
  ConformanceSystem s;
  s.name = "jfr";
  s.summary = "OpenJDK 17 JDK Flight Recorder jdk.ObjectAllocationSample (throttle R/s), Serial collector, " +
              std::to_string(kJfrDriverTlab / 1024) + " KiB TLABs, plan paced at " +
              std::to_string(kJfrDriverAllocRate >> 20) + " MiB/s";
  s.packages = "openjdk-17-jdk-headless";
  s.sources = {"conformance/jfr/Driver.java"};
  s.binary = "driver";
  s.build = "mkdir -p {out} && javac -d {out} {src}/conformance/jfr/Driver.java";
  s.run = "java -XX:+UseSerialGC -Xms1g -Xmx1g -Xmn800m -XX:TLABSize=" + std::to_string(kJfrDriverTlab) +
          " -XX:-ResizeTLAB -cp {bin} Driver {plan} {rate} " + std::to_string(kJfrDriverAllocRate) +
          " recording.jfr && jfr print --json --events jdk.ObjectAllocationSample recording.jfr";
  s.samples_include_freed = true;
  s.samples_have_sizes = false;
  s.translate_output = jfr_samples_csv;
  s.rate_parameter = "throttle";
  s.default_rate = kJfrDefaultThrottle;
  s.scaling = ProfileScaling::none;
  s.estimator = "bytes";
  s.scheme_parameters = {
      {"tlab", kJfrDriverTlab}, {"tlab_max", 0}, {"clock", "rate"}, {"alloc_rate", kJfrDriverAllocRate}};
  s.repeated_runs_expected =
      "JDK 17's event has no object size, and at a fixed pace the sites of the accepted events can repeat";
  return {s};
}

}  // namespace allocsim
