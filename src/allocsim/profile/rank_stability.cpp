#include "allocsim/profile/rank_stability.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "allocsim/random/random_stream.h"
#include "allocsim/random/random_transforms.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

// Which stream of a seed rank stability draws from (other users of a seed take others).
constexpr std::uint64_t kRankStream = 0x70726f66;  // "prof"

// Successes in `trials` Bernoulli(p) trials, by geometric gaps between successes:
// as many uniforms as successes plus one.
double binomial_draw(RandomStream& stream, double trials, double p) {
  if (p >= 1.0) return trials;
  double position = 0, successes = 0;
  for (;;) {
    position += static_cast<double>(geometric_trials_from_uniform(stream.next_uniform(), p));
    if (position > trials) return successes;
    ++successes;
  }
}

// Points of a rate-1 Poisson process in [0, mean), by exponential gaps.
double poisson_draw(RandomStream& stream, double mean) {
  double position = 0, points = 0;
  for (;;) {
    position += exponential_from_uniform(stream.next_uniform(), 1.0);
    if (position > mean) return points;
    ++points;
  }
}

}  // namespace

std::vector<std::size_t> ranked_entries(const HeapProfile& profile) {
  std::vector<std::size_t> order(profile.entries.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return profile.entries[a].estimate_bytes > profile.entries[b].estimate_bytes;
  });
  return order;
}

double resample_samples(const HeapProfile& profile, std::size_t entry, std::uint64_t seed,
                        std::uint64_t replication) {
  const ProfileEntry& e = profile.entries[entry];
  RandomStream stream({seed, kRankStream, replication}, entry);
  // The fitted model: k samples estimate the Poisson mean k, or n = k / p objects.
  if (profile.model.kind == ModelKind::poisson_bytes) return poisson_draw(stream, e.samples);
  const double p = sample_probability(profile.model, e.object_size);
  return binomial_draw(stream, std::round(e.samples / p), p);
}

RankStability rank_stability(const HeapProfile& profile, const std::vector<std::size_t>& order,
                             std::size_t top, std::int64_t replications, std::uint64_t seed) {
  if (replications < 1) throw InputError("--replications must be >= 1");
  top = std::min(top, order.size());
  RankStability result;
  result.replications = replications;
  result.rank_kept.assign(top, 0.0);
  result.in_top.assign(top, 0.0);
  const std::size_t count = profile.entries.size();
  std::vector<double> bytes(count);
  std::vector<std::size_t> resampled_order(count);
  for (std::int64_t r = 0; r < replications; ++r) {
    for (std::size_t i = 0; i < count; ++i) {
      const ProfileEntry& e = profile.entries[i];
      bytes[i] = resample_samples(profile, i, seed, static_cast<std::uint64_t>(r)) /
                 samples_per_byte(profile.model, e.object_size);
    }
    std::iota(resampled_order.begin(), resampled_order.end(), std::size_t{0});
    std::stable_sort(resampled_order.begin(), resampled_order.end(),
                     [&](std::size_t a, std::size_t b) { return bytes[a] > bytes[b]; });
    std::size_t kept_in_top = 0;
    for (std::size_t rank = 0; rank < top; ++rank) {
      if (resampled_order[rank] == order[rank]) result.rank_kept[rank] += 1;
      const auto end = resampled_order.begin() + static_cast<std::ptrdiff_t>(top);
      if (std::find(resampled_order.begin(), end, order[rank]) != end) {
        result.in_top[rank] += 1;
        ++kept_in_top;
      }
    }
    if (kept_in_top == top) result.set_unchanged += 1;
  }
  const auto total = static_cast<double>(replications);
  for (double& p : result.rank_kept) p /= total;
  for (double& p : result.in_top) p /= total;
  result.set_unchanged /= total;
  return result;
}

}  // namespace allocsim::profile
