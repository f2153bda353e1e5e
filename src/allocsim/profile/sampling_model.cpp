#include "allocsim/profile/sampling_model.h"

#include <array>
#include <cmath>

#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

struct SchemeModel {
  std::string_view scheme;
  ModelKind kind;
};

// From each scheme's summary in `allocsim schemes`: "at most one sample per
// allocation, leftover discarded" is per_allocation_exponential; "leftover carried,
// several samples per allocation" is poisson_bytes (per-byte Bernoulli(1/T) trials
// are Binomial(B, 1/T), Poisson(B/T) to within 1/T).
constexpr std::array kSchemeModels = {
    SchemeModel{"go", ModelKind::per_allocation_exponential},
    SchemeModel{"jemalloc", ModelKind::per_allocation_exponential},
    SchemeModel{"gperftools", ModelKind::per_allocation_exponential},
    SchemeModel{"tcmalloc", ModelKind::per_allocation_exponential},
    SchemeModel{"jvm", ModelKind::per_allocation_exponential},
    SchemeModel{"v8", ModelKind::per_allocation_exponential},
    SchemeModel{"heapprofd", ModelKind::poisson_bytes},
    SchemeModel{"memray", ModelKind::poisson_bytes},
    SchemeModel{"poisson", ModelKind::poisson_bytes},
    SchemeModel{"per-byte", ModelKind::poisson_bytes},
    SchemeModel{"per-allocation", ModelKind::per_allocation_fixed},
};

}  // namespace

double sample_probability(const SamplingModel& model, double size) {
  if (model.kind == ModelKind::per_allocation_fixed) return 1.0 / model.rate;
  // Both byte-rate models: at least one point of a rate-1/T Poisson process in s bytes.
  return -std::expm1(-size / model.rate);
}

double samples_per_byte(const SamplingModel& model, double size) {
  if (model.kind == ModelKind::poisson_bytes) return 1.0 / model.rate;
  return sample_probability(model, size) / size;
}

double probability_no_sample(const SamplingModel& model, double objects, double size) {
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
  for (const SchemeModel& known : kSchemeModels) {
    if (known.scheme == scheme) return {known.kind, rate, std::string(scheme)};
  }
  std::string names;
  for (const SchemeModel& known : kSchemeModels) {
    if (!names.empty()) names += ", ";  // piecewise: GCC 12 LTO warns on "literal" + string
    names += known.scheme;
  }
  throw InputError(where + ": no entry model for scheme \"" + std::string(scheme) +
                   "\" (models exist for: " + names + ")");
}

std::string model_name(ModelKind kind) {
  switch (kind) {
    case ModelKind::per_allocation_exponential:
      return "binomial, p = 1 - exp(-s/T) per allocation";
    case ModelKind::poisson_bytes:
      return "Poisson(B/T) samples in B bytes";
    case ModelKind::per_allocation_fixed:
      return "binomial, p = 1/T per allocation";
  }
  return "";
}

}  // namespace allocsim::profile
