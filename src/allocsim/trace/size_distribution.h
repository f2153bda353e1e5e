#pragma once
// Request-size distributions for synthetic traces, as read from JSON
// ({"distribution": "lognormal", "median": 256, "sigma": 1.5}), and the sampler
// that draws integer sizes from them.
//
// Integer sizes from continuous families:
//   lognormal, pareto: round to nearest (halves up), then clamp to [min, max];
//                      min is at least 1, so a continuous draw is never 0 bytes.
//   log_uniform:       floor of a log-uniform value on [min, max + 1), so that
//                      P(size = k) = ln((k + 1) / k) / ln((max + 1) / min).
// No size exceeds kMaxSyntheticSize (2^48): larger parameters are rejected, and
// lognormal and pareto are clamped or truncated there.
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "allocsim/json/json_reader.h"
#include "allocsim/random/random_stream.h"

namespace allocsim {

inline constexpr std::uint64_t kMaxSyntheticSize = std::uint64_t{1} << 48;

struct ConstantSize {
  std::uint64_t size = 0;
};
// sizes[0], sizes[1], ..., sizes[k-1], sizes[0], ...: a program's allocation loop.
struct SequenceSizes {
  std::vector<std::uint64_t> sizes;
};
// Every integer in [min, max] equally likely.
struct UniformSize {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};
// floor(X), X log-uniform on [min, max + 1).
struct LogUniformSize {
  std::uint64_t min = 1;
  std::uint64_t max = 1;
};
// round(median * exp(sigma * Z)), Z standard normal, clamped to [min, max].
struct LognormalSize {
  double median = 1;
  double sigma = 1;
  std::uint64_t min = 1;
  std::uint64_t max = kMaxSyntheticSize;
};
// round(X), X Pareto: P(X > x) = (scale / x)^shape for x >= scale, conditioned on X <= max.
struct ParetoSize {
  double scale = 1;
  double shape = 1;
  std::uint64_t max = kMaxSyntheticSize;
};
// sizes[j] with probability weights[j] / sum(weights).
struct HistogramSizes {
  std::vector<std::uint64_t> sizes;
  std::vector<double> weights;
};
// Bucket j with probability weights[j] / sum(weights), then uniform on [lo, hi] inclusive.
struct SizeRange {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
};
struct BucketSizes {
  std::vector<SizeRange> ranges;
  std::vector<double> weights;
};
struct SizeDistribution;
// Component j with probability weights[j] / sum(weights).
struct MixtureSizes {
  std::vector<double> weights;
  std::vector<SizeDistribution> components;
};

struct SizeDistribution {
  std::variant<ConstantSize, SequenceSizes, UniformSize, LogUniformSize, LognormalSize, ParetoSize, HistogramSizes,
               BucketSizes, MixtureSizes>
      family;
};

// Reads "distribution" and that family's keys from `object`, then finishes it.
// Errors name the JSON path: "$.trace.sizes.sigma: must be > 0, got -1".
SizeDistribution parse_size_distribution(JsonObject& object);

// One draw: the size, and which part of the distribution produced it (the
// mixture component, or the position in a sequence; 0 for other families).
struct SizeDraw {
  std::uint64_t size = 0;
  std::uint32_t component = 0;
};

// Draws sizes. Stateful only through sequence positions; allocates nothing per draw.
class SizeSampler {
 public:
  explicit SizeSampler(const SizeDistribution& distribution);
  SizeSampler(const SizeSampler&);
  SizeSampler(SizeSampler&&) noexcept;
  SizeSampler& operator=(SizeSampler&&) noexcept;
  ~SizeSampler();

  SizeDraw draw(RandomStream& random) { return draw_node(0, random); }
  // Whether draws depend on earlier ones (a sequence's position): if not, a copy
  // draws the same sizes from the same stream as the original.
  bool has_positions() const;

 private:
  struct Node;               // one family with its precomputed constants
  std::vector<Node> nodes_;  // nodes_[0] is the root; mixture components come after it
  std::size_t add_node(const SizeDistribution& distribution);
  SizeDraw draw_node(std::size_t node, RandomStream& random);
};

// ---- Discrete draws shared by the synthetic generators ----

// Uniform on {0, ..., n-1}, n >= 1, exactly (Lemire's multiply-and-reject).
std::uint64_t uniform_below(RandomStream& random, std::uint64_t n);
// Uniform on {lo, ..., hi}, lo <= hi, exactly.
std::uint64_t uniform_between(RandomStream& random, std::uint64_t lo, std::uint64_t hi);

// Walker's alias method: index j with probability weights[j] / sum(weights) in O(1).
class AliasTable {
 public:
  AliasTable() = default;
  // weights: finite, >= 0, positive sum.
  explicit AliasTable(std::span<const double> weights);
  std::uint32_t draw(RandomStream& random) const;

 private:
  std::vector<double> keep_;          // probability of keeping column j
  std::vector<std::uint32_t> alias_;  // what column j hands over to otherwise
};

}  // namespace allocsim
