// The declared result tables: names unique, text exactly in the key columns, the
// committed result files' headers, and the columns expectations select on.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <variant>

#include "allocsim/format/csv_reader.h"
#include "allocsim/scenario/result_files.h"
#include "allocsim/stats/result_tables.h"
#include "testing/build_paths.h"

namespace allocsim {
namespace {

template <class Row>
void expect_well_formed(ResultTable<Row> table, const Row& row) {
  std::set<std::string_view> names;
  for (const ResultColumn<Row>& column : table) {
    EXPECT_TRUE(names.insert(column.name).second) << column.name << " twice";
    EXPECT_EQ(std::holds_alternative<std::string_view>(column.get(row)), column.key) << column.name;
  }
}

TEST(ResultTables, NamesAreUniqueAndKeysAreText) {
  expect_well_formed(metric_table(), MetricRow{});
  expect_well_formed(interval_table(), IntervalRow{});
  expect_well_formed(profile_table(), ProfileRow{});
  expect_well_formed(estimate_table(), EstimateRow{});
}

TEST(ResultTables, CommittedResultsHaveTheDeclaredHeaders) {
  const std::string dir = allocsim::testing::source_dir() + "/results/quickstart/";
  const ResultColumns files = result_columns({"rate"});
  for (const ResultSource source : {ResultSource::metrics, ResultSource::intervals, ResultSource::profiles}) {
    EXPECT_EQ(read_csv_file(dir + file_name(source)).columns, files.at(source)) << file_name(source);
  }
}

TEST(ResultTables, ColumnsAnExpectationSelectsOn) {
  EXPECT_EQ(selectable_columns({"rate"}),
            (std::vector<std::string>{"scheme", "estimator", "group_kind", "group", "interval", "rate"}));
}

TEST(ResultTables, ColumnsReadTheirRow) {
  MetricRow row;
  row.group_kind = GroupKind::stack;
  row.metrics.replications_with_sample = 7;
  row.metrics.theory.var = 2.5;
  EXPECT_EQ(std::get<std::string_view>(column_named(metric_table(), "group_kind").get(row)), "stack");
  EXPECT_EQ(std::get<std::uint64_t>(column_named(metric_table(), "replications_with_sample").get(row)), 7u);
  EXPECT_EQ(std::get<std::optional<double>>(column_named(metric_table(), "theory_var").get(row)), 2.5);
  EXPECT_FALSE(std::get<std::optional<double>>(column_named(metric_table(), "theory_bias").get(row)));
  EXPECT_EQ(find_column(metric_table(), "coverage"), nullptr);
}

}  // namespace
}  // namespace allocsim
