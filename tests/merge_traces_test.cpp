// `merge` binds the traces the shards ran on: parts of shards run on other bytes
// of a trace file, or a trace file changed since the shards ran, are refused with
// one line naming the part and the trace, and nothing is written.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "allocsim/trace/format/native_trace.h"
#include "test_support.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

using testing::run_cli;

class MergeTraces : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::write_bytes(scratch_.file("s.json"), R"({"name": "bound", "seed": 5, "replications": 16,
      "trace": {"kind": "file", "path": "t.ast"},
      "schemes": [{"scheme": "poisson", "rate": "$rate"}], "sweep": {"rate": [64, 256]}})");
  }
  // The scenario's trace file, with one size that differs between versions.
  void write_trace(std::uint64_t last_size) const {
    testing::write_bytes(trace(), encode_native_trace(testing::make_trace({100, 2000, 30, last_size})));
  }
  std::string trace() const { return scratch_.file("t.ast"); }
  std::string part(int k) const { return scratch_.file("part" + std::to_string(k) + ".bin"); }
  void run_shard(int k) const {
    const auto result = run_cli(
        "run --quiet --shard " + std::to_string(k) + "/2 --out " + part(k) + " " + scratch_.file("s.json"), true);
    ASSERT_EQ(result.exit_code, 0) << result.output;
  }
  testing::CliResult merge() const {
    return run_cli("merge --quiet --out " + scratch_.file("out") + " " + part(0) + " " + part(1), true);
  }

  testing::ScratchDirectory scratch_;
};

TEST_F(MergeTraces, PartsRunOnOtherTracesAreRefused) {
  write_trace(400);
  run_shard(0);
  write_trace(401);
  run_shard(1);
  const auto result = merge();
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_EQ(result.output.rfind("allocsim: error: " + part(1) + ": ran on other bytes of trace \"" + trace() + "\"", 0),
            0u)
      << result.output;
  EXPECT_EQ(result.output.find('\n'), result.output.size() - 1) << result.output;
  EXPECT_FALSE(std::filesystem::exists(scratch_.file("out")));
}

TEST_F(MergeTraces, ATraceChangedSinceTheShardsRanIsRefused) {
  write_trace(400);
  run_shard(0);
  run_shard(1);
  write_trace(401);
  const auto changed = merge();
  EXPECT_EQ(changed.exit_code, 2) << changed.output;
  EXPECT_EQ(changed.output.rfind(
                "allocsim: error: " + part(0) + ": trace \"" + trace() + "\" changed since the shards ran", 0),
            0u)
      << changed.output;
  EXPECT_EQ(changed.output.find('\n'), changed.output.size() - 1) << changed.output;
  EXPECT_FALSE(std::filesystem::exists(scratch_.file("out")));

  // The same bytes as when the shards ran: merged.
  write_trace(400);
  const auto merged = merge();
  EXPECT_EQ(merged.exit_code, 0) << merged.output;
  EXPECT_TRUE(std::filesystem::exists(scratch_.file("out/bound/metrics.csv")));
}

}  // namespace
}  // namespace allocsim
