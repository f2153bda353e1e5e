#include "allocsim/profile/sampling_model.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/scheme.h"
#include "allocsim/util/byte_units.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

// The entry model of a scheme's sampling family (scheme_descriptor.h); none for a
// family without one.
std::optional<ModelKind> kind_of(SamplingFamily family) {
  switch (family) {
    case SamplingFamily::per_allocation_exponential: return ModelKind::per_allocation_exponential;
    case SamplingFamily::poisson_bytes: return ModelKind::poisson_bytes;
    case SamplingFamily::per_allocation_fixed: return ModelKind::per_allocation_fixed;
    case SamplingFamily::none: break;
  }
  return std::nullopt;
}

}  // namespace

double sample_probability(const SamplingModel& model, double size) {
  if (recorded_whole(model, size)) return 1.0;
  if (model.kind == ModelKind::per_allocation_fixed) return 1.0 / model.rate;
  // Both byte-rate models: at least one point of a rate-1/T Poisson process in s bytes.
  return -std::expm1(-size / model.rate);
}

bool certain_to_be_sampled(const SamplingModel& model, double size) {
  if (recorded_whole(model, size)) return true;
  return model.kind != ModelKind::poisson_bytes && sample_probability(model, size) > 1.0 - 1e-15;
}

double samples_per_byte(const SamplingModel& model, double size) {
  if (recorded_whole(model, size)) return 1.0 / size;  // one sample weighing its size
  if (model.kind == ModelKind::poisson_bytes) return 1.0 / model.rate;
  return sample_probability(model, size) / size;
}

double probability_no_sample(const SamplingModel& model, double objects, double size) {
  if (recorded_whole(model, size)) return objects > 0 ? 0.0 : 1.0;
  if (model.kind == ModelKind::per_allocation_fixed) {
    return std::exp(objects * std::log1p(-1.0 / model.rate));
  }
  return std::exp(-objects * size / model.rate);
}

double detection_limit_bytes(const SamplingModel& model, double chance, double size) {
  const double log_miss = std::log1p(-chance);  // ln(1 - chance) < 0
  if (model.kind == ModelKind::per_allocation_fixed) {
    return std::ceil(log_miss / std::log1p(-1.0 / model.rate)) * size;
  }
  return -model.rate * log_miss;
}

SamplingModel model_for_scheme(std::string_view scheme, double rate, const std::string& where) {
  if (!(rate >= 1.0) || !std::isfinite(rate)) {
    throw InputError(where + ": the sampling rate must be a number >= 1");
  }
  const SchemeDescriptor* descriptor = find_scheme(scheme);
  if (descriptor != nullptr && kind_of(descriptor->family)) {
    return {*kind_of(descriptor->family), rate, descriptor->name};
  }
  std::string names;
  for (const SchemeDescriptor& known : scheme_registry()) {
    if (!kind_of(known.family)) continue;
    if (!names.empty()) names += ", ";  // piecewise: GCC 12 LTO warns on "literal" + string
    names += known.name;
  }
  throw InputError(where + ": no entry model for scheme \"" + std::string(scheme) + "\" (models exist for: " + names +
                   ")");
}

SamplingModel with_pass_through(SamplingModel model, const Scheme& scheme) {
  if (scheme.recorded_whole_from() != UINT64_MAX) {
    model.recorded_whole_from = static_cast<double>(scheme.recorded_whole_from());
  }
  model.unsampled_start = static_cast<double>(scheme.unsampled_start());
  return model;
}

SamplingModel model_for_profile_format(std::string_view format, double rate) {
  for (const SchemeDescriptor& system : scheme_registry()) {
    for (const std::string& written : system.profile_formats) {
      if (written != format || !kind_of(system.family)) continue;
      // The system as it ships, at the profile's rate where the system accepts it (a
      // profile may state a rate its scheme refuses, as jemalloc's 2^63).
      nlohmann::json at_rate = nlohmann::json::object();
      if (system.rate && rate >= 1 && rate < 0x1p63 && rate == std::floor(rate)) {
        at_rate[system.rate->parameter] = static_cast<std::uint64_t>(rate);
      }
      std::unique_ptr<Scheme> shipped;
      try {
        shipped = create_scheme(system.name, at_rate, system.name);
      } catch (const InputError&) {
        shipped = create_scheme(system.name, nlohmann::json::object(), system.name);
      }
      return with_pass_through({*kind_of(system.family), rate, system.name}, *shipped);
    }
  }
  throw std::logic_error("no scheme declares that it writes " + std::string(format) + " profiles");
}

std::string rate_words(const SamplingModel& model) {
  if (is_unsampled(model)) return "every allocation recorded";
  if (model.kind == ModelKind::per_allocation_fixed) {
    char text[64];
    std::snprintf(text, sizeof text, "rate 1 in %.6g allocations", model.rate);
    return text;
  }
  return "rate " + bytes_exact(model.rate);
}

std::string model_name(ModelKind kind) {
  switch (kind) {
    case ModelKind::per_allocation_exponential: return "binomial, p = 1 - exp(-s/T) per allocation";
    case ModelKind::poisson_bytes: return "Poisson(B/T) samples in B bytes";
    case ModelKind::per_allocation_fixed: return "binomial, p = 1/T per allocation";
  }
  return "";
}

std::string model_description(const SamplingModel& model) {
  if (!std::isfinite(model.recorded_whole_from)) return model_name(model.kind);
  char whole[96];
  std::snprintf(whole, sizeof whole, "; allocations of %.0f bytes or more recorded whole", model.recorded_whole_from);
  return model_name(model.kind) + whole;
}

}  // namespace allocsim::profile
