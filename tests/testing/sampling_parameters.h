#pragma once
// Parameters that make a registered scheme sample often on the registry-wide suites'
// small traces (hundreds of allocations of at most a few KiB), read from its
// descriptor: the rate at 256 bytes (10 for a rate in allocations), required
// parameters at a small value, and the few schemes with no rate to lower given theirs.
#include <nlohmann/json.hpp>

#include "allocsim/sampler/scheme_descriptor.h"

namespace allocsim::testing {

inline nlohmann::json sample_often_parameters(const SchemeDescriptor& d) {
  nlohmann::json params = nlohmann::json::object();
  if (d.rate) params[d.rate->parameter] = d.rate->unit == RateUnit::allocations ? 10 : 256;
  for (const ParameterInfo& p : d.parameters) {
    if (p.default_value.is_null()) params[p.name] = 0.01;  // ocaml's sampling_rate (lambda per word)
  }
  if (d.name == "optimal-size-class") params["samples"] = 50;  // no rate: its budget
  if (d.name == "gperftools") params["startup_counter"] = 0;   // no unsampled start
  if (d.name == "jfr") params["tlab"] = 1024;                  // no rate (events/s): small TLABs refill often
  if (d.name == "bun") params["min_interval"] = 0;             // its floor (64 KiB) is above the lowered rate
  if (d.name == "ddprof-java") {                               // no rate (a PID sets it): start at 256 bytes
    params["interval"] = 256;
    params["floor"] = 256;
  }
  return params;
}

}  // namespace allocsim::testing
