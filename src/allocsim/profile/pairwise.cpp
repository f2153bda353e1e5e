#include "allocsim/profile/pairwise.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <cstdio>

#include "allocsim/profile/entry_interval.h"

namespace allocsim::profile {
namespace {

// Whether an entry's samples are Poisson in its true bytes (exactly, or within the
// factor 1 - kPoissonLimit of their variance).
bool poisson_like(const SamplingModel& model, const ProfileEntry& entry) {
  if (recorded_whole(model, entry.object_size) || is_unsampled(model)) return false;
  return model.kind == ModelKind::poisson_bytes || sample_probability(model, entry.object_size) <= kPoissonLimit;
}

double conditional_poisson(const SamplingModel& model, const ProfileEntry& a, const ProfileEntry& b) {
  const double weight_a = samples_per_byte(model, a.object_size);
  const double weight_b = samples_per_byte(model, b.object_size);
  const double trials = a.samples + b.samples;
  if (trials == 0) return 1.0;
  const boost::math::binomial_distribution<double> split(trials, weight_a / (weight_a + weight_b));
  const double at_most = boost::math::cdf(split, a.samples);
  const double at_least = a.samples == 0 ? 1.0 : boost::math::cdf(boost::math::complement(split, a.samples - 1));
  return std::min(1.0, 2.0 * std::min(at_most, at_least));
}

bool disjoint_at(const SamplingModel& model, const ProfileEntry& a, const ProfileEntry& b, double alpha) {
  const double level = 1.0 - alpha / 2.0;
  const EntryInterval first = entry_interval(model, a.samples, a.object_size, level, a.mixed_sizes);
  const EntryInterval second = entry_interval(model, b.samples, b.object_size, level, b.mixed_sizes);
  return first.bytes_upper < second.bytes_lower || second.bytes_upper < first.bytes_lower;
}

double interval_overlap(const SamplingModel& model, const ProfileEntry& a, const ProfileEntry& b) {
  // Disjointness only grows with a (the intervals shrink), so the smallest disjoint
  // a is found on log a between kSmallestPValue and 1 (level 1/2).
  if (!disjoint_at(model, a, b, 1.0)) return 1.0;
  if (disjoint_at(model, a, b, kSmallestPValue)) return kSmallestPValue;
  double low = std::log(kSmallestPValue), high = 0.0;  // disjoint at high, not at low
  for (int step = 0; step < 40; ++step) {
    const double middle = (low + high) / 2.0;
    (disjoint_at(model, a, b, std::exp(middle)) ? high : low) = middle;
  }
  return std::exp(high);
}

}  // namespace

double equal_bytes_p_value(const HeapProfile& profile, std::size_t first, std::size_t second) {
  const ProfileEntry& a = profile.entries[first];
  const ProfileEntry& b = profile.entries[second];
  if (poisson_like(profile.model, a) && poisson_like(profile.model, b)) return conditional_poisson(profile.model, a, b);
  return interval_overlap(profile.model, a, b);
}

std::string p_value_text(double p) {
  if (p < 0) return "-";
  if (p <= kSmallestPValue) return "<1e-12";
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", p);
  return text;
}

}  // namespace allocsim::profile
