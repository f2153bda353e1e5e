#include "allocsim/trace/size_bounds.h"

#include <algorithm>
#include <cmath>
#include <variant>
#include <vector>

namespace allocsim {

std::uint64_t smallest_size(const SizeDistribution& distribution) {
  struct Smallest {
    static std::uint64_t least(const std::vector<std::uint64_t>& sizes) {
      return *std::min_element(sizes.begin(), sizes.end());
    }
    std::uint64_t operator()(const ConstantSize& c) const { return c.size; }
    std::uint64_t operator()(const SequenceSizes& s) const { return least(s.sizes); }
    std::uint64_t operator()(const UniformSize& u) const { return u.min; }
    std::uint64_t operator()(const LogUniformSize& l) const { return l.min; }
    std::uint64_t operator()(const LognormalSize& l) const { return l.min; }
    // A draw x >= scale is rounded half up: never below scale rounded the same way.
    std::uint64_t operator()(const ParetoSize& p) const {
      return std::min(static_cast<std::uint64_t>(std::floor(p.scale + 0.5)), p.max);
    }
    // Entries of weight 0 count too: a bound that holds whatever the alias table draws.
    std::uint64_t operator()(const HistogramSizes& h) const { return least(h.sizes); }
    std::uint64_t operator()(const BucketSizes& b) const {
      std::uint64_t lo = b.ranges.front().lo;
      for (const SizeRange& range : b.ranges) lo = std::min(lo, range.lo);
      return lo;
    }
    std::uint64_t operator()(const MixtureSizes& m) const {
      std::uint64_t lo = smallest_size(m.components.front());
      for (const SizeDistribution& component : m.components) lo = std::min(lo, smallest_size(component));
      return lo;
    }
  };
  return std::visit(Smallest{}, distribution.family);
}

std::uint64_t largest_size(const SizeDistribution& distribution) {
  struct Largest {
    static std::uint64_t most(const std::vector<std::uint64_t>& sizes) {
      return *std::max_element(sizes.begin(), sizes.end());
    }
    std::uint64_t operator()(const ConstantSize& c) const { return c.size; }
    std::uint64_t operator()(const SequenceSizes& s) const { return most(s.sizes); }
    std::uint64_t operator()(const UniformSize& u) const { return u.max; }
    std::uint64_t operator()(const LogUniformSize& l) const { return l.max; }
    std::uint64_t operator()(const LognormalSize& l) const { return l.max; }
    std::uint64_t operator()(const ParetoSize& p) const { return p.max; }
    std::uint64_t operator()(const HistogramSizes& h) const { return most(h.sizes); }
    std::uint64_t operator()(const BucketSizes& b) const {
      std::uint64_t hi = 0;
      for (const SizeRange& range : b.ranges) hi = std::max(hi, range.hi);
      return hi;
    }
    std::uint64_t operator()(const MixtureSizes& m) const {
      std::uint64_t hi = 0;
      for (const SizeDistribution& component : m.components) hi = std::max(hi, largest_size(component));
      return hi;
    }
  };
  return std::visit(Largest{}, distribution.family);
}

}  // namespace allocsim
