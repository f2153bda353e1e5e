#include "allocsim/sampler/registry.h"

#include "allocsim/sampler/references/optimal_size_class.h"
#include "allocsim/sampler/references/per_allocation.h"
#include "allocsim/sampler/references/per_byte.h"
#include "allocsim/sampler/references/poisson.h"
#include "allocsim/sampler/systems/async-profiler/async_profiler.h"
#include "allocsim/sampler/systems/bun/bun.h"
#include "allocsim/sampler/systems/chromium/chromium.h"
#include "allocsim/sampler/systems/dd-trace-php/dd_trace_php.h"
#include "allocsim/sampler/systems/dd-trace-rb/dd_trace_rb.h"
#include "allocsim/sampler/systems/ddprof-java/ddprof_java.h"
#include "allocsim/sampler/systems/ddprof/ddprof.h"
#include "allocsim/sampler/systems/dotnet-tick/dotnet_tick.h"
#include "allocsim/sampler/systems/dotnet/dotnet.h"
#include "allocsim/sampler/systems/go/go.h"
#include "allocsim/sampler/systems/gperftools/gperftools.h"
#include "allocsim/sampler/systems/heapprofd/heapprofd.h"
#include "allocsim/sampler/systems/jemalloc/jemalloc.h"
#include "allocsim/sampler/systems/jfr/jfr.h"
#include "allocsim/sampler/systems/jvm/jvm.h"
#include "allocsim/sampler/systems/memleak/memleak.h"
#include "allocsim/sampler/systems/mimalloc/mimalloc.h"
#include "allocsim/sampler/systems/memray/memray.h"
#include "allocsim/sampler/systems/ocaml/ocaml.h"
#include "allocsim/sampler/systems/scalene/scalene.h"
#include "allocsim/sampler/systems/tcmalloc/tcmalloc.h"
#include "allocsim/sampler/systems/v8/v8.h"
#include "allocsim/util/did_you_mean.h"
#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim {

const std::vector<SchemeDescriptor>& scheme_registry() {
  static const std::vector<SchemeDescriptor> registry = {
      heapprofd_scheme(),  heapprofd_pre12_scheme(), memray_scheme(),         dotnet_tick_scheme(),
      per_byte_scheme(),   poisson_scheme(),         jemalloc_scheme(),       tcmalloc_scheme(),
      gperftools_scheme(), dotnet_scheme(),          per_allocation_scheme(), go_scheme(),
      jvm_scheme(),        async_profiler_scheme(),  chromium_scheme(),       ddprof_scheme(),
      v8_scheme(),         ocaml_scheme(),           dd_trace_php_scheme(),   optimal_size_class_scheme(),
      jfr_scheme(),        memleak_scheme(),         scalene_scheme(),        dd_trace_rb_scheme(),
      ddprof_java_scheme(),
      mimalloc_scheme(),   bun_scheme(),
  };
  return registry;
}

const SchemeDescriptor* find_scheme(std::string_view name) {
  for (const auto& d : scheme_registry()) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

std::string known_scheme_names() {
  std::string known;
  for (const auto& d : scheme_registry()) known += (known.empty() ? "" : ", ") + d.name;
  return known;
}

std::string scheme_suggestion(std::string_view name) {
  std::vector<std::string> names;
  for (const auto& d : scheme_registry()) names.push_back(d.name);
  return did_you_mean(name, names);
}

std::unique_ptr<Scheme> create_scheme(std::string_view name, const nlohmann::json& params, const std::string& path) {
  const SchemeDescriptor* descriptor = find_scheme(name);
  if (descriptor == nullptr) {
    throw InputError(path + ": unknown scheme " + printable(name) + scheme_suggestion(name) +
                     " (known: " + known_scheme_names() + ")");
  }
  JsonObject object(params, path);
  SchemeParameters parameters(object, descriptor->parameters);
  auto scheme = descriptor->create(parameters);
  object.finish();
  return scheme;
}

nlohmann::json describe_schemes_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : scheme_registry()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& p : d.parameters) {
      params.push_back(
          {{"name", p.name}, {"type", p.type}, {"default", p.default_value}, {"description", p.description}});
    }
    out.push_back({{"name", d.name},
                   {"summary", d.summary},
                   {"source", d.source},
                   {"parameters", params},
                   {"variants", d.variants}});
  }
  return out;
}

}  // namespace allocsim
