// The profile-level metric: total variation distance between the estimated and the
// true distribution of a quantity over groups.
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace allocsim {
namespace {

const ProfileRow& find_profile(const ScenarioResult& result, const std::string& estimator) {
  for (const auto& row : result.profile_rows) {
    if (row.estimator == estimator && row.group_kind == GroupKind::stack) return row;
  }
  throw std::logic_error("no profile row");
}

std::string scenario(const std::string& rate) {
  return R"({"name": "t", "seed": 2, "replications": 400,
    "trace": {"allocations": 30, "sizes": {"distribution": "sequence", "sizes": [20, 80, 300]},
              "stacks": {"rule": "component"}},
    "schemes": [{"scheme": "per-byte", "rate": )" +
         rate + R"(}], "groups": ["total", "stack"]})";
}

TEST(ProfileMetrics, ExactSamplingGivesDistanceZero) {
  // T = 1: every byte is sampled, every estimate is exact.
  const auto result = testing::run_scenario_text(scenario("1"));
  const ProfileRow& row = find_profile(result, "bytes");
  EXPECT_EQ(row.groups, 3u);
  EXPECT_EQ(row.replications, 400u);
  EXPECT_NEAR(row.mean_distance, 0.0, 1e-12);
  EXPECT_EQ(row.mean_groups_seen, 3.0);
}

TEST(ProfileMetrics, EmptyProfileHasDistanceOne) {
  // 4000 bytes at T = 1e15: P(any sample) ~ 4e-12 per replication.
  const auto result = testing::run_scenario_text(scenario("1e15"));
  const ProfileRow& row = find_profile(result, "bytes");
  EXPECT_EQ(row.mean_distance, 1.0);
  EXPECT_EQ(row.mean_groups_seen, 0.0);
}

// With one sample per replication (T large but the trace sampled), the profile puts
// all mass on one group: distance = 1 - share of that group. At T = 4000 the
// expected distance lies strictly between 0 and 1; it must shrink as T falls.
TEST(ProfileMetrics, DistanceShrinksWithMoreSamples) {
  const double coarse = find_profile(testing::run_scenario_text(scenario("400")), "bytes").mean_distance;
  const double fine = find_profile(testing::run_scenario_text(scenario("20")), "bytes").mean_distance;
  EXPECT_GT(coarse, fine);
  EXPECT_GT(fine, 0.0);
  EXPECT_LT(coarse, 1.0);
}

}  // namespace
}  // namespace allocsim
