// The replication API (engine/replications.h, engine/replication_rows.h): blocks
// cover exactly the replications asked for and are merged in replication order,
// so every caller's result is bit-identical for any thread count.
#include "allocsim/engine/replications.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "allocsim/advice/advice_check.h"
#include "allocsim/conformance/model_moments.h"
#include "allocsim/conformance/plan.h"
#include "allocsim/engine/replication_rows.h"
#include "allocsim/stats/moments.h"
#include "test_support.h"

namespace allocsim {
namespace {

// Records which keys its blocks were given, in merge order.
struct KeyList {
  std::vector<StreamKey> keys;
  std::vector<std::uint64_t> block_sizes;
  void merge(const KeyList& block) {
    keys.insert(keys.end(), block.keys.begin(), block.keys.end());
    block_sizes.insert(block_sizes.end(), block.block_sizes.begin(), block.block_sizes.end());
  }
};

struct KeyRecorder {
  KeyList run_block(const StreamKey& first, std::uint64_t count) {
    KeyList block;
    StreamKey key = first;
    for (std::uint64_t r = 0; r < count; ++r, ++key.replication) block.keys.push_back(key);
    block.block_sizes.push_back(count);
    return block;
  }
};

TEST(ReplicationApi, BlocksCoverTheRangeInOrderOnAnyThreadCount) {
  // [5, 105): 100 replications, so three full blocks of 32 and one of 4.
  const ReplicationRange range{{9, 77, 5}, 105};
  for (unsigned threads : {1u, 2u, 7u}) {
    const KeyList merged =
        run_replications<KeyList>(range, [] { return std::make_unique<KeyRecorder>(); }, {threads, {}, {}});
    ASSERT_EQ(merged.keys.size(), 100u) << threads;
    for (std::size_t i = 0; i < merged.keys.size(); ++i) {
      EXPECT_EQ(merged.keys[i].seed, 9u);
      EXPECT_EQ(merged.keys[i].stream, 77u);
      EXPECT_EQ(merged.keys[i].replication, 5 + i) << threads;
    }
    EXPECT_EQ(merged.block_sizes, (std::vector<std::uint64_t>{32, 32, 32, 4})) << threads;
  }
}

TEST(ReplicationApi, SeveralJobsEachGetTheirOwnStreamAndRange) {
  const std::vector<ReplicationRange> jobs{{{1, 10, 0}, 40}, {{1, 11, 3}, 3}, {{1, 12, 64}, 70}};
  const std::vector<KeyList> merged =
      run_replications<KeyList>(jobs, [](std::size_t) { return std::make_unique<KeyRecorder>(); }, {3, {}, {}});
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].keys.size(), 40u);
  EXPECT_TRUE(merged[1].keys.empty());  // an empty range runs nothing
  ASSERT_EQ(merged[2].keys.size(), 6u);
  EXPECT_EQ(merged[0].keys.back().stream, 10u);
  EXPECT_EQ(merged[2].keys.front().stream, 12u);
  EXPECT_EQ(merged[2].keys.front().replication, 64u);
  EXPECT_EQ(merged[2].keys.back().replication, 69u);
}

TEST(ReplicationApi, AnEvaluatorsExceptionReachesTheCaller) {
  struct Failing {
    KeyList run_block(const StreamKey&, std::uint64_t) { throw std::runtime_error("block failed"); }
  };
  EXPECT_THROW(run_replications<KeyList>(ReplicationRange{{1, 1, 0}, 100}, [] { return std::make_unique<Failing>(); },
                                         {2, {}, {}}),
               std::runtime_error);
}

// Folding rows block by block gives the bits of adding them one at a time.
TEST(ReplicationRows, ColumnsFoldRowsInReplicationOrder) {
  ReplicationRows first{2, {}}, second{2, {}};
  std::vector<Moments> sequential(2);
  double x = 0.1;
  for (ReplicationRows* block : {&first, &second}) {
    for (int r = 0; r < 5; ++r, x = x * 3.7 + 0.3) {
      const std::span<double> row = block->add_row();
      row[0] = x;
      row[1] = 1 / x;
      sequential[0].add(x);
      sequential[1].add(1 / x);
    }
  }
  ColumnAccumulators<Moments> folded;
  folded.merge(first);
  folded.merge(second);
  ASSERT_EQ(folded.columns.size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) {
    EXPECT_EQ(folded.columns[c].count(), 10u);
    EXPECT_EQ(folded.columns[c].mean(), sequential[c].mean());
    EXPECT_EQ(folded.columns[c].variance(), sequential[c].variance());
  }
}

// Writes each replication's index into a row of three.
struct IndexRows {
  ReplicationRows run_block(const StreamKey& first, std::uint64_t count) {
    ReplicationRows rows{3, {}};
    for (std::uint64_t r = 0; r < count; ++r) rows.add_row()[0] = static_cast<double>(first.replication + r);
    return rows;
  }
};

TEST(ReplicationRows, AccumulateColumnsSeesEveryReplicationOnce) {
  const std::vector<Moments> columns = accumulate_columns<Moments>(
      ReplicationRange{{1, 2, 10}, 110}, 3, [] { return std::make_unique<IndexRows>(); }, 3);
  ASSERT_EQ(columns.size(), 3u);
  EXPECT_EQ(columns[0].count(), 100u);
  EXPECT_TRUE(testing::matches_closed_form(columns[0].mean(), 59.5, 1e-12));  // the mean of 10..109
  EXPECT_EQ(columns[1].mean(), 0.0);                                          // rows start zeroed
}

TEST(ReplicationRows, AnEmptyRangeGivesEmptyColumns) {
  const std::vector<Moments> columns = accumulate_columns<Moments>(
      ReplicationRange{{1, 2, 0}, 0}, 3, [] { return std::make_unique<IndexRows>(); }, 2);
  ASSERT_EQ(columns.size(), 3u);
  for (const Moments& m : columns) EXPECT_EQ(m.count(), 0u);
}

// The Monte Carlo model moments (gperftools with its startup counter has no closed
// form), every site's moments and count distribution, are the same bits on one and
// three threads: the conformance command's model runs on the pool.
TEST(ReplicationApi, ModelMomentsIdenticalOnOneAndThreeThreads) {
  Plan plan;
  plan.rate = 4096;
  plan.sites = {{"first", 1, false, {100}}, {"rest", 300, false, {24, 1000, 5000}}, {"gone", 100, true, {2000}}};
  const Trace trace = plan_trace(plan);
  const auto scheme = testing::create_scheme("gperftools", {{"rate", 4096}, {"startup_counter", 1}});
  ModelRequest request;
  request.replications = 300;
  const ModelMoments one = model_moments(*scheme, trace, request);
  request.threads = 3;
  const ModelMoments three = model_moments(*scheme, trace, request);
  ASSERT_FALSE(one.closed_form_counts);
  ASSERT_EQ(one.sites.size(), three.sites.size());
  for (std::size_t s = 0; s < one.sites.size(); ++s) {
    EXPECT_EQ(one.sites[s].count_mean, three.sites[s].count_mean) << s;
    EXPECT_EQ(one.sites[s].count_var, three.sites[s].count_var) << s;
    EXPECT_EQ(one.sites[s].count_kappa4, three.sites[s].count_kappa4) << s;
    EXPECT_EQ(one.sites[s].estimate_mean, three.sites[s].estimate_mean) << s;
    EXPECT_EQ(one.sites[s].estimate_var, three.sites[s].estimate_var) << s;
    EXPECT_EQ(one.sites[s].count_distribution.first, three.sites[s].count_distribution.first) << s;
    EXPECT_EQ(one.sites[s].count_distribution.probability, three.sites[s].count_distribution.probability) << s;
  }
  EXPECT_GT(one.sites[1].count_var, 0);  // the comparison is of a random quantity
}

TEST(ReplicationApi, AdviceCheckIdenticalOnOneAndThreeThreads) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t i = 0; i < 2000; ++i) sizes.push_back(16 + (i * 7919) % 4000);
  Trace trace = testing::make_trace(sizes);
  for (std::size_t i = 0; i < trace.size(); ++i) trace.stack.mutable_data()[i] = static_cast<std::uint32_t>(i % 4);
  trace.stack_count = 4;
  AdvicePoint point;
  point.scheme = "poisson";
  point.interval = 8192;
  point.parameters = {{"rate", 8192}};
  AccuracyTargets targets;
  targets.total_error = 0.05;
  targets.stack_mape = 0.2;
  const MonteCarloCheck one = check_advice(trace, point, targets, {.replications = 200, .seed = 3, .threads = 1});
  const MonteCarloCheck three = check_advice(trace, point, targets, {.replications = 200, .seed = 3, .threads = 3});
  EXPECT_EQ(one.target_stacks, 4u);
  EXPECT_GT(one.total_relative_rmse, 0);
  EXPECT_EQ(one.total_relative_rmse, three.total_relative_rmse);
  EXPECT_EQ(one.se_total_relative_rmse, three.se_total_relative_rmse);
  EXPECT_EQ(one.worst_stack_mape, three.worst_stack_mape);
  EXPECT_EQ(one.se_worst_stack_mape, three.se_worst_stack_mape);
  EXPECT_EQ(one.least_stack_seen, three.least_stack_seen);
  EXPECT_EQ(one.meets, three.meets);
}

}  // namespace
}  // namespace allocsim
