#include "allocsim/profile/aggregate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "allocsim/profile/entry_match.h"
#include "allocsim/profile/mixed_rate_interval.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

// The same scheme and window as the first profile, or an InputError naming the file.
void require_poolable(const HeapProfile& first, const HeapProfile& other) {
  require_same_scheme(first, other, "aggregate pools profiles of one sampling scheme");
  if (other.window != first.window) {
    throw InputError("\"" + other.path + "\": its " + other.window + " window but \"" + first.path + "\"'s " +
                     first.window + "; give --window");
  }
}

struct Pooled {
  AggregateEntry entry;
  double sampled_bytes = 0;    // samples x object size, for a mixed record's average size
  std::vector<double> counts;  // samples in each profile
};

// The true bytes, summed over the profiles, that a site of objects of `size` bytes
// needs to appear in at least one with probability `chance` when spread evenly over
// them (aggregate.h): each profile's log miss probability per byte, ln(1 - p)/s per
// object (-1/T_i for the byte-rate models), summed, against ln(1 - chance).
double even_spread_limit(const std::vector<SamplingModel>& models, double chance, double size) {
  double log_miss_per_byte = 0;
  for (const SamplingModel& model : models) log_miss_per_byte += std::log(probability_no_sample(model, 1, size)) / size;
  // 0 where some profile records the size whole (a log miss of -infinity)
  const double per_profile = std::max(0.0, std::log1p(-chance) / log_miss_per_byte);
  const bool whole_objects = models.front().kind == ModelKind::per_allocation_fixed;
  return static_cast<double>(models.size()) * (whole_objects ? std::ceil(per_profile / size) * size : per_profile);
}

// The same when all of them are in one profile, the one that needs the most.
double worst_profile_limit(const std::vector<SamplingModel>& models, double chance, double size) {
  double worst = 0;
  for (const SamplingModel& model : models) worst = std::max(worst, detection_limit_bytes(model, chance, size));
  return worst;
}

}  // namespace

Aggregate aggregate_profiles(const std::vector<HeapProfile>& profiles, double level, bool mean) {
  if (profiles.empty()) throw InputError("aggregate needs at least one profile");
  const HeapProfile& first = profiles.front();
  Aggregate result;
  for (const HeapProfile& other : profiles) {
    require_poolable(first, other);
    result.models.push_back(other.model);
    result.rates_differ = result.rates_differ || other.model.rate != first.model.rate;
  }
  result.model = first.model;
  result.window = first.window;
  result.profiles = profiles.size();
  result.mean = mean;
  result.level = level;
  std::map<std::pair<std::string, double>, Pooled> pooled;
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    const HeapProfile& heap = profiles[i];
    for (const ProfileEntry& e : heap.entries) {
      const EntryMatch match = match_entry(heap, e);
      Pooled& p = pooled[match.key()];
      p.entry.stack = match.stack;
      p.entry.label = match.label;
      p.entry.mixed_sizes = e.mixed_sizes;
      p.entry.samples += std::round(e.samples);
      p.entry.profiles_with_samples += e.samples > 0;
      p.entry.estimate_bytes += e.estimate_bytes;
      p.sampled_bytes += std::round(e.samples) * e.object_size;
      p.counts.resize(profiles.size());
      p.counts[i] += std::round(e.samples);
      if (!e.mixed_sizes) p.entry.object_size = e.object_size;
    }
  }
  const double scale = mean ? 1.0 / static_cast<double>(profiles.size()) : 1.0;
  double smallest_size = INFINITY;
  for (auto& [key, p] : pooled) {
    AggregateEntry& a = p.entry;
    if (a.mixed_sizes && a.samples > 0) a.object_size = p.sampled_bytes / a.samples;
    a.interval = result.rates_differ ? mixed_rate_interval(result.models, p.counts, a.object_size, level, a.mixed_sizes)
                                     : entry_interval(result.model, a.samples, a.object_size, level, a.mixed_sizes);
    a.estimate_bytes *= scale;
    for (double* bound :
         {&a.interval.objects_lower, &a.interval.objects_upper, &a.interval.bytes_lower, &a.interval.bytes_upper}) {
      *bound *= scale;
    }
    smallest_size = std::min(smallest_size, a.object_size);
    result.entries.push_back(std::move(a));
  }
  std::stable_sort(result.entries.begin(), result.entries.end(), [](const AggregateEntry& x, const AggregateEntry& y) {
    return x.estimate_bytes > y.estimate_bytes;
  });
  // The total a site needs over all N profiles (aggregate.h); the fixed per-allocation
  // model is quoted for the smallest entry's size, as profile_report does.
  if (!result.entries.empty()) {
    result.detection_limit_95_worst = worst_profile_limit(result.models, 0.95, smallest_size) * scale;
    result.detection_limit_95 = result.rates_differ ? even_spread_limit(result.models, 0.95, smallest_size) * scale
                                                    : result.detection_limit_95_worst;
  }
  return result;
}

}  // namespace allocsim::profile
