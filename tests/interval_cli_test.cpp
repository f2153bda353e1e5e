// `allocsim interval`, run as a process (apps/allocsim/command_interval.cpp).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.h"

namespace {

using allocsim::testing::CliResult;

CliResult run_cli(const std::string& arguments, bool with_stderr = false) {
  return allocsim::testing::run_cli("interval " + arguments, with_stderr);
}

nlohmann::json run_json(const std::string& arguments) {
  const CliResult result = run_cli(arguments + " --json");
  EXPECT_EQ(result.exit_code, 0) << arguments;
  return nlohmann::json::parse(result.output);
}

TEST(IntervalCliTest, OneMethodPrintsAnObjectWithTheInterval) {
  const auto interval = run_json("--samples 8 --tail-bytes 10908 --p 9.765625e-06");
  for (const char* key : {"lower", "upper", "estimate", "method", "level", "samples", "tail_bytes", "p",
                          "boundary_correction", "rounding"}) {
    EXPECT_TRUE(interval.contains(key)) << key;
  }
  EXPECT_EQ(interval["method"], "exact");
  EXPECT_EQ(interval["level"].get<double>(), 0.95);
  EXPECT_EQ(interval["rounding"], "up");
  EXPECT_EQ(interval["lower"].get<double>(), 353667.0 + 10908.0);
  EXPECT_EQ(interval["upper"].get<double>(), 1476871.0 + 10908.0);
  EXPECT_NEAR(interval["estimate"].get<double>(), 8.0 * 102399.0 + 10908.0, 1e-6);
}

TEST(IntervalCliTest, DocumentRoundingAndBothMethods) {
  const auto intervals =
      run_json("--samples 8 --tail-bytes 10908 --p 9.765625e-06 --method both --rounding down --level 0.95");
  ASSERT_TRUE(intervals.is_array());
  ASSERT_EQ(intervals.size(), 2u);
  EXPECT_EQ(intervals[0]["method"], "exact");
  EXPECT_EQ(intervals[1]["method"], "camp-paulson");
  EXPECT_EQ(intervals[0]["lower"].get<double>(), 353666.0 + 10908.0);  // the document's example
  EXPECT_EQ(intervals[0]["upper"].get<double>(), 1476870.0 + 10908.0);
  EXPECT_NEAR(intervals[1]["lower"].get<double>(), 353666.0 + 10908.0, 2000.0);
}

TEST(IntervalCliTest, BoundaryCorrectionWidensTheInterval) {
  const auto plain = run_json("--samples 3 --tail-bytes 300 --p 0.0001");
  const auto corrected = run_json("--samples 3 --tail-bytes 300 --p 0.0001 --boundary-correction");
  EXPECT_EQ(corrected["boundary_correction"], true);
  EXPECT_LT(corrected["lower"].get<double>(), plain["lower"].get<double>());
  EXPECT_GT(corrected["upper"].get<double>(), plain["upper"].get<double>());
}

TEST(IntervalCliTest, TableJsonHasEveryDocumentRow) {
  const auto table = run_json("--table --rounding down");
  EXPECT_EQ(table["level"].get<double>(), 0.95);
  EXPECT_EQ(table["p"].get<double>(), 1.0 / 102400.0);
  const auto& rows = table["rows"];
  ASSERT_EQ(rows.size(), 25u);
  for (const auto& row : rows) {
    for (const char* key :
         {"samples", "exact", "camp_paulson", "camp_paulson_max_cdf_error", "camp_paulson_max_cdf_error_at_failures"}) {
      EXPECT_TRUE(row.contains(key)) << key;
    }
  }
  EXPECT_EQ(rows[7]["samples"], 8);
  EXPECT_EQ(rows[7]["exact"]["lower"].get<double>(), 353666.0);  // document table, s = 8
  EXPECT_EQ(rows[7]["exact"]["upper"].get<double>(), 1476870.0);
  EXPECT_EQ(rows[24]["exact"]["upper"].get<double>(), 1044156743.0);  // s = 10000
  EXPECT_NEAR(rows[0]["camp_paulson_max_cdf_error"].get<double>(), 0.0122, 0.0001);
}

// At p = 1e-14 the search for Camp-Paulson's largest CDF error never returned. The
// error depends on s only as p -> 0 (intervals.md §1.3), so each row must match the
// document's p row to 1e-3 relative.
TEST(IntervalCliTest, TableAtATinyPReturns) {
  const auto tiny = run_json("--table --p 1e-14");
  const auto document = run_json("--table");
  ASSERT_EQ(tiny["rows"].size(), document["rows"].size());
  for (std::size_t i = 0; i < tiny["rows"].size(); ++i) {
    const double expected = document["rows"][i]["camp_paulson_max_cdf_error"].get<double>();
    EXPECT_NEAR(tiny["rows"][i]["camp_paulson_max_cdf_error"].get<double>(), expected, 1e-3 * expected) << i;
  }
}

TEST(IntervalCliTest, HumanReadableOutput) {
  const CliResult interval = run_cli("--samples 8 --tail-bytes 10908 --p 9.765625e-06 --method both");
  EXPECT_EQ(interval.exit_code, 0);
  EXPECT_NE(interval.output.find("exact"), std::string::npos);
  EXPECT_NE(interval.output.find("camp-paulson"), std::string::npos);
  EXPECT_NE(interval.output.find("364575"), std::string::npos);
  const CliResult table = run_cli("--table --rounding down");
  EXPECT_EQ(table.exit_code, 0);
  EXPECT_NE(table.output.find("1004017229"), std::string::npos);
}

TEST(IntervalCliTest, ImpossibleInputExitsTwoWithAnError) {
  for (const char* arguments : {
           "--samples 10 --tail-bytes 9 --p 0.001",  // u < s
           "--samples 10 --tail-bytes 90 --p 0",     // p outside (0, 1)
           "--samples 10 --tail-bytes 90 --p 1.5",
           "--samples 10 --tail-bytes 90 --p 0.001 --level 1",  // level outside (0, 1)
           "--samples 10 --tail-bytes 90 --p 0.001 --level 0",
           "--samples 10 --tail-bytes 90",          // missing --p
           "--tail-bytes 90 --p 0.001",             // missing --samples
           "--samples 10 --p 0.001",                // missing --tail-bytes
           "--samples 0 --tail-bytes 0 --p 0.001",  // 0 samples, no correction
           "--samples 10 --tail-bytes 90 --p 0.001 --method bogus",
           "--samples 10 --tail-bytes 90 --p 0.001 --rounding sideways",
           "--samples 3 --tail-bytes 5 --p 1e-320 --method both",  // bytes overflow a double
           "--table --samples 10",
           "--table --level 1.5",
           "--table --p 0",
       }) {
    const CliResult result = run_cli(arguments, true);
    EXPECT_EQ(result.exit_code, 2) << arguments;
    EXPECT_NE(result.output.find("allocsim: error: "), std::string::npos) << arguments << "\n" << result.output;
  }
}

}  // namespace
