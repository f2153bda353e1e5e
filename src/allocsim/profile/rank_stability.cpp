#include "allocsim/profile/rank_stability.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <random>

#include "allocsim/engine/replications.h"
#include "allocsim/random/random_stream.h"
#include "allocsim/random/random_transforms.h"
#include "allocsim/random/stream_purpose.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

// Which stream of a seed rank stability draws from (other users of a seed take others).
constexpr std::uint64_t kRankStream = stream_of(StreamPurpose::profile_rank_stability);

// Above this many expected successes a draw takes libstdc++'s rejection samplers
// (O(1) uniforms each) instead of one uniform per success: an entry of 2^52 samples
// would otherwise never finish a resample.
constexpr double kDirectDrawLimit = 64;

// RandomStream as a uniform random bit generator for <random>'s distributions.
struct StreamBits {
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() { return stream.next_u64(); }
  RandomStream& stream;
};

// Successes in `trials` Bernoulli(p) trials; for few expected successes by geometric
// gaps between them (as many uniforms as successes plus one).
double binomial_draw(RandomStream& stream, double trials, double p) {
  if (p >= 1.0) return trials;
  if (trials * p > kDirectDrawLimit) {
    // libstdc++'s binomial_distribution computes 32 n in its own integer type, which
    // overflows past 2^58 trials: draw Binomial(n, p) as the sum of Binomials over
    // chunks of at most 2^57 trials (exact; at most 64 chunks below 2^63).
    constexpr double kChunk = 0x1p57;
    StreamBits bits{stream};
    double successes = 0;
    for (double left = trials; left > 0; left -= kChunk) {
      const auto chunk = static_cast<std::int64_t>(std::min(left, kChunk));
      successes += static_cast<double>(std::binomial_distribution<std::int64_t>(chunk, p)(bits));
    }
    return successes;
  }
  double position = 0, successes = 0;
  for (;;) {
    position += static_cast<double>(geometric_trials_from_uniform(stream.next_uniform(), p));
    if (position > trials) return successes;
    ++successes;
  }
}

// Points of a rate-1 Poisson process in [0, mean), by exponential gaps for a small mean.
double poisson_draw(RandomStream& stream, double mean) {
  if (mean > kDirectDrawLimit) {
    StreamBits bits{stream};
    return static_cast<double>(std::poisson_distribution<std::int64_t>(mean)(bits));
  }
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

double resample_samples(const HeapProfile& profile, std::size_t entry, std::uint64_t seed, std::uint64_t replication) {
  const ProfileEntry& e = profile.entries[entry];
  RandomStream stream({seed, kRankStream, replication}, entry);
  // The fitted model: k samples estimate the Poisson mean k, or n = k / p objects.
  if (profile.model.kind == ModelKind::poisson_bytes) return poisson_draw(stream, e.samples);
  const double p = sample_probability(profile.model, e.object_size);
  return binomial_draw(stream, std::round(e.samples / p), p);
}

namespace {

// Counts over a block of resamples; merged blocks add up (integers: exact in any order).
struct RankTally {
  std::vector<std::uint64_t> rank_kept, in_top;
  std::uint64_t set_unchanged = 0;

  void merge(const RankTally& block) {
    rank_kept.resize(block.rank_kept.size());
    in_top.resize(block.in_top.size());
    for (std::size_t i = 0; i < block.rank_kept.size(); ++i) {
      rank_kept[i] += block.rank_kept[i];
      in_top[i] += block.in_top[i];
    }
    set_unchanged += block.set_unchanged;
  }
};

// One worker's resampler: draws every entry of a replication, ranks them by bytes and
// tallies the top N against the profile's own order.
class RankResampler {
 public:
  RankResampler(const HeapProfile& profile, const std::vector<std::size_t>& order, std::size_t top)
      : profile_(profile),
        order_(order),
        top_(top),
        bytes_(profile.entries.size()),
        resampled_order_(profile.entries.size()),
        in_resampled_top_(profile.entries.size(), 0) {
    for (const ProfileEntry& entry : profile.entries) {
      samples_per_byte_.push_back(samples_per_byte(profile.model, entry.object_size));
    }
  }

  RankTally run_block(const StreamKey& first, std::uint64_t count) {
    RankTally tally;
    tally.rank_kept.assign(top_, 0);
    tally.in_top.assign(top_, 0);
    for (std::uint64_t r = first.replication; r < first.replication + count; ++r) {
      for (std::size_t i = 0; i < bytes_.size(); ++i) {
        bytes_[i] = resample_samples(profile_, i, first.seed, r) / samples_per_byte_[i];
      }
      // Only the top N are ranked (ties by index, as a stable sort would place them):
      // sorting every entry made each resample O(n log n).
      std::iota(resampled_order_.begin(), resampled_order_.end(), std::size_t{0});
      const auto end = resampled_order_.begin() + static_cast<std::ptrdiff_t>(top_);
      std::partial_sort(resampled_order_.begin(), end, resampled_order_.end(), [&](std::size_t a, std::size_t b) {
        return bytes_[a] > bytes_[b] || (bytes_[a] == bytes_[b] && a < b);
      });
      for (auto it = resampled_order_.begin(); it != end; ++it) in_resampled_top_[*it] = 1;
      std::size_t kept_in_top = 0;
      for (std::size_t rank = 0; rank < top_; ++rank) {
        if (resampled_order_[rank] == order_[rank]) ++tally.rank_kept[rank];
        if (in_resampled_top_[order_[rank]] != 0) {
          ++tally.in_top[rank];
          ++kept_in_top;
        }
      }
      for (auto it = resampled_order_.begin(); it != end; ++it) in_resampled_top_[*it] = 0;
      if (kept_in_top == top_) ++tally.set_unchanged;
    }
    return tally;
  }

 private:
  const HeapProfile& profile_;
  const std::vector<std::size_t>& order_;
  std::size_t top_;
  std::vector<double> samples_per_byte_;  // of each entry, fixed over the resamples
  std::vector<double> bytes_;
  std::vector<std::size_t> resampled_order_;
  std::vector<char> in_resampled_top_;  // marks of this resample's top N
};

}  // namespace

RankStability rank_stability(const HeapProfile& profile, const std::vector<std::size_t>& order, std::size_t top,
                             std::int64_t replications, std::uint64_t seed, unsigned threads) {
  if (replications < 1) throw InputError("--replications must be >= 1");
  top = std::min(top, order.size());
  // resample_samples keys its streams by (seed, kRankStream, replication) itself.
  const ReplicationRange range{{seed, kRankStream, 0}, static_cast<std::uint64_t>(replications)};
  const RankTally tally = run_replications<RankTally>(
      range, [&] { return std::make_unique<RankResampler>(profile, order, top); }, {threads, {}, {}});
  RankStability result;
  result.replications = replications;
  const auto total = static_cast<double>(replications);
  for (std::size_t rank = 0; rank < top; ++rank) {
    result.rank_kept.push_back(static_cast<double>(tally.rank_kept[rank]) / total);
    result.in_top.push_back(static_cast<double>(tally.in_top[rank]) / total);
  }
  result.set_unchanged = static_cast<double>(tally.set_unchanged) / total;
  return result;
}

}  // namespace allocsim::profile
