// The periodic-pattern failure of fixed-stride sampling (.NET's
// RandomizedAllocationSampling.md on AllocationTick; Memray's docs/sampling.rst: "if
// the code loops forever creating one 20 byte object then one 80 byte object,
// sampling every 100 bytes would always see the same one"), against the randomized
// schemes, which stay unbiased per size whatever the pattern.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "scheme_theory_checks.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::expect_rows_match_theory;
using testing::find_row;
using testing::run_scenario_text;

std::string pattern_scenario(const std::vector<std::uint64_t>& sizes, std::uint64_t allocations,
                             const std::string& schemes, int replications) {
  std::string list;
  for (auto s : sizes) {
    if (!list.empty()) list += ", ";
    list += std::to_string(s);
  }
  return R"({"name": "t", "seed": 1001, "replications": )" + std::to_string(replications) +
         R"(, "trace": {"allocations": )" + std::to_string(allocations) +
         R"(, "sizes": {"distribution": "sequence", "sizes": [)" + list +
         R"(]}, "stacks": {"rule": "by_size"}}, "schemes": )" + schemes +
         R"(, "groups": ["total", "stack"], "windows": ["allocated"]})";
}

// Fixed stride S over a pattern of period P bytes: the boundary bytes k S fall, within
// the period, on the positions congruent to k S mod P, i.e. on the multiples of
// g = gcd(S, P), each equally often over whole cycles of lcm(S, P) bytes. An
// allocation at positions (a, b] of the period (1-based) therefore fires
// (floor(b/g) - floor(a/g)) / (P/g) of the events, each worth S, so its estimate over
// whole cycles is that share of all bytes, against a truth of (b - a) / P of them.
std::vector<double> stride_shares(const std::vector<std::uint64_t>& sizes, std::uint64_t stride) {
  const std::uint64_t period = std::accumulate(sizes.begin(), sizes.end(), std::uint64_t{0});
  const std::uint64_t g = std::gcd(stride, period);
  std::vector<double> shares;
  std::uint64_t a = 0;
  for (auto s : sizes) {
    shares.push_back(double(((a + s) / g) - (a / g)) / double(period / g));
    a += s;
  }
  return shares;
}

struct PatternCase {
  std::vector<std::uint64_t> sizes;
  std::uint64_t stride;
  std::uint64_t allocations;   // whole cycles of lcm(stride, period) bytes
  std::vector<double> shares;  // derived by hand, checked against stride_shares
};

TEST(PeriodicPattern, AllocationTickMisattributesByTheDerivedShares) {
  const std::vector<PatternCase> cases = {
      // The Memray document's 20/80 loop, period 100 | 102400: byte k*102400 is always
      // the last byte of a pair, in the 80-byte object. 10 strides = 10240 pairs.
      {{20, 80}, 102400, 20480, {0.0, 1.0}},
      // The document's "sampling every 100 bytes": the same.
      {{20, 80}, 100, 20480, {0.0, 1.0}},
      // Period 128 | 102400: every event on the 64-byte object. 5 strides = 4000 cycles.
      {{24, 40, 64}, 102400, 12000, {0.0, 0.0, 1.0}},
      // gcd(150, 100) = 50: positions 50 and 100, both inside the 80 (21..100).
      {{20, 80}, 150, 20400, {0.0, 1.0}},
      // gcd(130, 100) = 10: positions 10, 20, ..., 100; two of ten in the 20: exact.
      {{20, 80}, 130, 20800, {0.2, 0.8}},
  };
  for (const PatternCase& c : cases) {
    const std::uint64_t period = std::accumulate(c.sizes.begin(), c.sizes.end(), std::uint64_t{0});
    ASSERT_EQ(stride_shares(c.sizes, c.stride), c.shares);
    ASSERT_EQ(c.allocations % c.sizes.size(), 0u);
    const double total = double(c.allocations / c.sizes.size() * period);
    ASSERT_EQ(std::fmod(total, double(std::lcm(c.stride, period))), 0.0);

    const auto result = run_scenario_text(pattern_scenario(
        c.sizes, c.allocations, R"([{"scheme": "dotnet-tick", "stride": )" + std::to_string(c.stride) + "}]", 4));
    EXPECT_EQ(find_row(result, "dotnet-tick", "bytes").bias, 0.0);  // whole strides: total exact
    for (std::size_t j = 0; j < c.sizes.size(); ++j) {
      const std::string group = "size=" + std::to_string(c.sizes[j]);
      const Metrics& m = find_row(result, "dotnet-tick", "bytes", GroupKind::stack, group);
      const double truth = total * double(c.sizes[j]) / double(period);
      EXPECT_EQ(m.truth, truth) << group;
      EXPECT_EQ(m.mean, c.shares[j] * total) << group << " stride " << c.stride;
      EXPECT_EQ(m.sd, 0.0);
    }
  }
}

// The GC code's reset rule on the 20/80 loop, stride 102400, from running amount 0 at
// the start of a pair: after 1024 pairs the amount is 102400 (not > 102400), the next
// 20 fires (102420) and resets; from the following 80 it takes 80 + 1023 pairs + 20 =
// 102400, and the next 80 fires (102480) and resets at the start of a pair. A cycle
// of 2049 pairs: one event on a 20 worth 102420 (truth 2049 * 20 = 40980) and one on
// an 80 worth 102480 (truth 163920). Five cycles:
TEST(PeriodicPattern, ResetRuleAlternatesBetweenTheSizes) {
  const auto result =
      run_scenario_text(pattern_scenario({20, 80}, 5 * 2 * 2049, R"([{"scheme": "dotnet-tick", "mode": "reset"}])", 4));
  const Metrics& small = find_row(result, "dotnet-tick", "bytes", GroupKind::stack, "size=20");
  const Metrics& large = find_row(result, "dotnet-tick", "bytes", GroupKind::stack, "size=80");
  EXPECT_EQ(small.truth, 5 * 40980.0);
  EXPECT_EQ(small.mean, 5 * 102420.0);  // +150%
  EXPECT_EQ(large.truth, 5 * 163920.0);
  EXPECT_EQ(large.mean, 5 * 102480.0);  // -37.5%
  EXPECT_EQ(find_row(result, "dotnet-tick", "bytes").bias, 0.0);
}

// The randomized schemes on the same loop: every size's estimate matches its
// theory (unbiased, or heapprofd's and memray's derived -1/(2T) per byte) within
// 5 standard errors, for each stride-aligned pattern.
TEST(PeriodicPattern, RandomizedSchemesStayUnbiasedPerSize) {
  const std::string schemes = R"([{"scheme": "heapprofd", "rate": 1024},
      {"scheme": "memray", "rate": 1024}, {"scheme": "per-allocation", "rate": 50},
      {"scheme": "poisson", "rate": 1024}])";
  for (const auto& sizes : std::vector<std::vector<std::uint64_t>>{{20, 80}, {24, 40, 64}}) {
    const auto result = run_scenario_text(pattern_scenario(sizes, 12000, schemes, 2000), 2);
    for (const char* scheme : {"heapprofd", "memray", "per-allocation", "poisson"}) {
      EXPECT_GE(expect_rows_match_theory(result, scheme), 1 + int(sizes.size())) << scheme;
    }
  }
}

}  // namespace
}  // namespace allocsim
