#include "allocsim/profile/mixed_rate_interval.h"

#include <cmath>
#include <vector>

#include "allocsim/profile/weighted_poisson_interval.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
EntryInterval mixed_rate_interval(std::span<const SamplingModel> models, std::span<const double> samples, double size,
                                  double level, bool mixed_sizes) {
  if (models.empty() || models.size() != samples.size()) {
    throw InputError("a mixed-rate interval needs one count per profile");
  }
  if (!(size > 0) || !std::isfinite(size)) throw InputError("the object size must be > 0");
  double certain_bytes = 0;
  bool per_allocation = false;
  std::vector<WeightedCount> sampled;
  for (std::size_t i = 0; i < models.size(); ++i) {
    if (!(samples[i] >= 0) || !std::isfinite(samples[i])) throw InputError("a count of samples must be >= 0");
    const double bytes_per_sample = 1.0 / samples_per_byte(models[i], size);
    if (certain_to_be_sampled(models[i], size)) {
      certain_bytes += bytes_per_sample * samples[i];
    } else {
      sampled.push_back({bytes_per_sample, samples[i]});
      per_allocation = per_allocation || models[i].kind != ModelKind::poisson_bytes;
    }
  }
  EntryInterval result;
  result.bytes_lower = result.bytes_upper = certain_bytes;
  if (sampled.empty()) {
    result.method = "exact: every profile records objects of this size whole";
  } else {
    const WeightedInterval sum = weighted_poisson_interval(sampled, level);
    result.bytes_lower += sum.lower;
    result.bytes_upper += sum.upper;
    result.method = "Fay-Feuer gamma interval for a weighted sum of Poisson counts (rates differ; approximate)";
    if (per_allocation) result.method += "; binomial counts taken as Poisson";
  }
  result.objects_lower = result.bytes_lower / size;
  result.objects_upper = result.bytes_upper / size;
  if (mixed_sizes) result.method += "; mixed sizes taken at their average (approximate)";
  return result;
}

}  // namespace allocsim::profile
