// Scheme::allocation_theories (the whole trace at once) gives allocation_theory's
// values for every allocation, in the default loop and in the overrides that fetch
// per-trace data once (optimal-size-class's design, Go's tiny-allocator sizes).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "allocsim/sampler/registry.h"
#include "test_support.h"

namespace allocsim {
namespace {

void expect_batch_equals_single(const Scheme& scheme, const Trace& trace, const std::string& name) {
  std::vector<AllocationTheory> batch(trace.size());
  int compared = 0;
  for (std::size_t e = 0; e < scheme.estimators().size(); ++e) {
    if (!scheme.has_allocation_theory(e)) continue;
    scheme.allocation_theories(e, trace, batch);
    for (std::size_t i = 0; i < trace.size(); ++i) {
      const AllocationTheory one = scheme.allocation_theory(e, trace, i);
      EXPECT_EQ(batch[i].bias, one.bias) << name << " estimator " << e << " allocation " << i;
      EXPECT_EQ(batch[i].variance, one.variance) << name << " estimator " << e << " allocation " << i;
      EXPECT_EQ(batch[i].log_p_none, one.log_p_none) << name << " estimator " << e << " allocation " << i;
      ++compared;
    }
  }
  EXPECT_GT(compared, 0) << name;
}

// Sizes from 0 to beyond the intervals, tiny ones that share Go's 16-byte blocks.
TEST(AllocationTheories, BatchEqualsOneAtATime) {
  const Trace trace = testing::make_trace({0, 1, 3, 8, 12, 15, 16, 24, 100, 1000, 5000, 70000, 1 << 20, 7, 9});
  const std::vector<std::pair<std::string, nlohmann::json>> schemes = {
      {"go", {{"rate", 4096}, {"tiny", true}}},
      {"go", {{"rate", 4096}}},
      {"optimal-size-class", {{"samples", 5}}},
      {"optimal-size-class", {{"samples", 5}, {"classes", "jemalloc"}}},
      {"jvm", {{"interval", 0}}},
      {"poisson", nlohmann::json::object()},
      {"jemalloc", nlohmann::json::object()},
  };
  for (const auto& [name, params] : schemes) {
    expect_batch_equals_single(*testing::create_scheme(name, params), trace, name + " " + params.dump());
  }
}

}  // namespace
}  // namespace allocsim
