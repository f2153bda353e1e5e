// Drives jemalloc 5.3's heap-profiling sampler through the allocation plan and
// reports what it sampled and what its profile estimates.
//
// Run with MALLOC_CONF=prof:true,prof_active:true,lg_prof_sample:<lg R>.
// Output (CSV on stdout):
//   meta,<key>,<value>
//   sample,<site>,<requested>,<usable>,<live 0|1>   one per sampled allocation, from
//       experimental.prof_recent (alloc_max = -1 keeps every record; "size" is the
//       request, "usize" the size class, "released" whether it was freed)
//   profile,<site>,<objects>,<bytes>                one per stack of the heap_v2 profile
//       written by prof.dump (live objects), as written: 5.3's prof_unbias stores values
//       that jeprof's per-stack scaling turns into the unbiased estimate
//   size,<requested>,<usable>                       nallocx for every planned size
// Usage: driver PLAN DUMP_PATH
#include <jemalloc/jemalloc.h>

#include <cinttypes>
#include <nlohmann/json.hpp>

#include "../native/plan.h"

namespace {

void write_to_string(void* out, const char* text) { static_cast<std::string*>(out)->append(text); }

template <class T>
T read_ctl(const char* name) {
  T value{};
  std::size_t size = sizeof(value);
  if (mallctl(name, &value, &size, nullptr, 0) != 0) driver::fail(std::string("mallctl ") + name + " failed");
  return value;
}

std::vector<std::uintptr_t> parse_frames(const nlohmann::json& trace) {
  std::vector<std::uintptr_t> frames;
  for (const auto& pc : trace) frames.push_back(std::stoull(pc.get<std::string>(), nullptr, 16));
  return frames;
}

void report_recent_samples() {
  std::string json;
  struct {
    void (*write_cb)(void*, const char*);
    void* cbopaque;
  } packet = {write_to_string, &json};
  if (mallctl("experimental.prof_recent.alloc_dump", nullptr, nullptr, &packet, sizeof(packet)) != 0) {
    driver::fail("experimental.prof_recent.alloc_dump failed");
  }
  const auto dump = nlohmann::json::parse(json);
  for (const auto& record : dump.at("recent_alloc")) {
    const std::string site = driver::site_of(parse_frames(record.at("alloc_trace")));
    if (site.empty()) continue;
    std::printf("sample,%s,%" PRIu64 ",%" PRIu64 ",%d\n", site.c_str(), record.at("size").get<std::uint64_t>(),
                record.at("usize").get<std::uint64_t>(), record.at("released").get<bool>() ? 0 : 1);
  }
}

// heap_v2: "@ pc pc ..." then "  t*: <objects>: <bytes> [<objects>: <bytes>]".
void report_heap_profile(const char* path) {
  if (mallctl("prof.dump", nullptr, nullptr, &path, sizeof(path)) != 0) driver::fail("prof.dump failed");
  std::FILE* in = std::fopen(path, "r");
  if (in == nullptr) driver::fail(std::string("cannot read ") + path);
  char line[1 << 16];
  std::string site;
  while (std::fgets(line, sizeof line, in) != nullptr) {
    if (line[0] == '@') {
      std::vector<std::uintptr_t> frames;
      for (char* p = line + 1; *p != '\0' && *p != '\n';) {
        char* end = nullptr;
        const auto pc = std::strtoull(p, &end, 16);
        if (end == p) break;
        frames.push_back(pc);
        p = end;
      }
      site = driver::site_of(frames);
      continue;
    }
    std::uint64_t objects = 0, bytes = 0;
    if (!site.empty() && std::sscanf(line, " t*: %" SCNu64 ": %" SCNu64, &objects, &bytes) == 2) {
      std::printf("profile,%s,%" PRIu64 ",%" PRIu64 "\n", site.c_str(), objects, bytes);
      site.clear();
    }
  }
  std::fclose(in);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) driver::fail("usage: driver PLAN DUMP_PATH");
  if (!read_ctl<bool>("config.prof")) driver::fail("this jemalloc was built without --enable-prof");
  if (!read_ctl<bool>("opt.prof")) driver::fail("profiling is off: set MALLOC_CONF=prof:true,...");
  const ssize_t unlimited = -1;
  if (mallctl("experimental.prof_recent.alloc_max", nullptr, nullptr, const_cast<ssize_t*>(&unlimited),
              sizeof(unlimited)) != 0) {
    driver::fail("experimental.prof_recent.alloc_max failed");
  }
  const driver::Plan plan = driver::read_plan(argv[1]);
  const std::size_t lg_sample = read_ctl<std::size_t>("opt.lg_prof_sample");
  if ((std::uint64_t{1} << lg_sample) != plan.rate) driver::fail("lg_prof_sample does not match the plan's rate");

  driver::run_plan(plan);

  std::printf("meta,version,%s\n", read_ctl<const char*>("version"));
  std::printf("meta,rate,%" PRIu64 "\n", std::uint64_t{1} << lg_sample);
  report_recent_samples();
  report_heap_profile(argv[2]);
  for (const driver::Site& site : plan.sites) {
    for (std::size_t size : site.sizes) std::printf("size,%zu,%zu\n", size, nallocx(size, 0));
  }
  return 0;
}
