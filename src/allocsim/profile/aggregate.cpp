#include "allocsim/profile/aggregate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

#include "allocsim/profile/entry_match.h"
#include "allocsim/util/byte_units.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

// A sampling rate in its unit: bytes, or allocations for the fixed per-allocation model.
std::string rate_text(const SamplingModel& model) {
  if (model.kind != ModelKind::per_allocation_fixed) return bytes_approx(model.rate);
  char text[64];
  std::snprintf(text, sizeof text, "1 in %.0f allocations", model.rate);
  return text;
}

// The same scheme, rate and window as the first profile, or an InputError naming the file.
void require_poolable(const HeapProfile& first, const HeapProfile& other) {
  require_same_scheme(first, other, "aggregate pools profiles of one sampling scheme");
  if (other.model.rate != first.model.rate) {
    throw InputError("\"" + other.path + "\": sampled at " + rate_text(other.model) + " but \"" + first.path +
                     "\" at " + rate_text(first.model) + "; aggregate pools counts at one rate, and the rates differ");
  }
  if (other.window != first.window) {
    throw InputError("\"" + other.path + "\": its " + other.window + " window but \"" + first.path + "\"'s " +
                     first.window + "; give --window");
  }
}

struct Pooled {
  AggregateEntry entry;
  double sampled_bytes = 0;  // samples x object size, for a mixed record's average size
};

}  // namespace

Aggregate aggregate_profiles(const std::vector<HeapProfile>& profiles, double level, bool mean) {
  if (profiles.empty()) throw InputError("aggregate needs at least one profile");
  const HeapProfile& first = profiles.front();
  for (const HeapProfile& other : profiles) require_poolable(first, other);
  Aggregate result;
  result.model = first.model;
  result.window = first.window;
  result.profiles = profiles.size();
  result.mean = mean;
  result.level = level;
  std::map<std::pair<std::string, double>, Pooled> pooled;
  for (const HeapProfile& heap : profiles) {
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
      if (!e.mixed_sizes) p.entry.object_size = e.object_size;
    }
  }
  const double scale = mean ? 1.0 / static_cast<double>(profiles.size()) : 1.0;
  double smallest_size = INFINITY;
  for (auto& [key, p] : pooled) {
    AggregateEntry& a = p.entry;
    if (a.mixed_sizes && a.samples > 0) a.object_size = p.sampled_bytes / a.samples;
    a.interval = entry_interval(result.model, a.samples, a.object_size, level, a.mixed_sizes);
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
    result.detection_limit_95 = detection_limit_bytes(result.model, 0.95, smallest_size) * scale;
  }
  return result;
}

}  // namespace allocsim::profile
