// Reading back the CSV allocsim writes: quoting round-trips, malformed files are
// rejected with the file named, and a real metrics.csv reads with the header the
// chart specs validate against.
#include <gtest/gtest.h>

#include "allocsim/format/csv.h"
#include "allocsim/format/csv_reader.h"
#include "allocsim/report/results_writer.h"
#include "allocsim/scenario/result_files.h"
#include "allocsim/util/error.h"
#include "test_support.h"

namespace allocsim {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_csv(text, "f.csv");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(CsvReader, QuotedFieldsRoundTrip) {
  const std::vector<std::string> fields = {"plain", "a,b", "say \"hi\"", "two\nlines", "", "\"", "x\r\ny"};
  std::string header, row;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) {  // appended piece by piece: GCC 12's -Wrestrict misfires on "," + string
      header += ',';
      row += ',';
    }
    header += 'c';
    header += std::to_string(i);
    row += csv_field(fields[i]);
  }
  const CsvTable table = parse_csv(header + "\n" + row + "\n", "t.csv");
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_EQ(table.rows[0], fields);
  EXPECT_EQ(table.find("c3"), 3u);
  EXPECT_FALSE(table.find("missing"));
}

TEST(CsvReader, LastLineWithoutNewlineAndCrLf) {
  const CsvTable table = parse_csv("a,b\r\n1,2\r\n3,", "t.csv");
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0], (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(table.rows[1], (std::vector<std::string>{"3", ""}));
  EXPECT_TRUE(parse_csv("a,b\n", "t.csv").rows.empty());
}

TEST(CsvReader, MalformedFilesNameTheFile) {
  EXPECT_EQ(error_of(""), "f.csv: empty CSV file (no header)");
  EXPECT_EQ(error_of("a,b\n1,2,3\n"), "f.csv: record 2 has 3 fields, the header 2");
  EXPECT_EQ(error_of("a\n\"open\n"), "f.csv: line 2: unterminated quoted field");
  EXPECT_EQ(error_of("a\n\"x\"y\n"), "f.csv: line 2: text after a closing quote");
}

TEST(CsvReader, NumericCells) {
  EXPECT_EQ(parse_cell_number("1e3"), 1000.0);
  EXPECT_EQ(parse_cell_number("-0.25"), -0.25);
  EXPECT_FALSE(parse_cell_number(""));
  EXPECT_FALSE(parse_cell_number("poisson"));
  EXPECT_FALSE(parse_cell_number("12abc"));
  EXPECT_FALSE(parse_cell_number("nan"));
}

TEST(CsvReader, MetricsCsvReadsBackExactly) {
  const Scenario scenario = parse_scenario(R"({"name": "rt", "replications": 50,
    "trace": {"allocations": 20, "sizes": {"distribution": "constant", "size": 3000}},
    "schemes": [{"scheme": "poisson", "rate": "$rate", "label": "a, \"quoted\" label"}],
    "sweep": {"rate": [1024, 4096]}})",
                                           "rt.json");
  RunOptions options;
  const ScenarioResult result = run_scenario(scenario, options);
  const CsvTable table = parse_csv(metrics_csv(scenario, result), "metrics.csv");
  EXPECT_EQ(table.columns, result_columns({"rate"}).at(ResultSource::metrics));
  ASSERT_EQ(table.rows.size(), result.rows.size());
  const auto scheme = *table.find("scheme");
  const auto mean = *table.find("mean");
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    EXPECT_EQ(table.rows[r][scheme], "a, \"quoted\" label");
    EXPECT_EQ(*parse_cell_number(table.rows[r][mean]), result.rows[r].metrics.mean);
  }
}

}  // namespace
}  // namespace allocsim
