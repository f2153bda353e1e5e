#pragma once
// Each result table declared once: its columns in file order, each a name and the
// way to read its value from a row. The result files' headers and lines
// (report/results_writer.h), the columns a chart, a table or an expectation may
// name (scenario/result_files.h) and the checks that read a column by name
// (check/, report/verdict.h) are all taken from these lists. Every file starts
// with the scenario's sweep variables, which are not the row's own columns.
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "allocsim/stats/result_rows.h"

namespace allocsim {

// A value in a table: text, a count, a number, or a number that may be absent.
using Cell = std::variant<std::string_view, std::uint64_t, double, std::optional<double>>;

template <class Row>
struct ResultColumn {
  std::string_view name;
  Cell (*get)(const Row& row);
  bool key = false;  // a text column that says which row this is (an expectation selects on it)
};

template <class Row>
using ResultTable = std::span<const ResultColumn<Row>>;

ResultTable<MetricRow> metric_table();
ResultTable<IntervalRow> interval_table();
ResultTable<ProfileRow> profile_table();
ResultTable<EstimateRow> estimate_table();

// The column called `name`, or nullptr.
template <class Row>
const ResultColumn<Row>* find_column(ResultTable<Row> table, std::string_view name) {
  for (const ResultColumn<Row>& column : table) {
    if (column.name == name) return &column;
  }
  return nullptr;
}

// The column called `name`, which the caller knows the table has.
template <class Row>
const ResultColumn<Row>& column_named(ResultTable<Row> table, std::string_view name) {
  const ResultColumn<Row>* column = find_column(table, name);
  if (column == nullptr) throw std::logic_error("no result column " + std::string(name));
  return *column;
}

// A file's column names: the sweep variables, then the table's columns.
template <class Row>
std::vector<std::string> file_columns(const std::vector<std::string>& sweep_names, ResultTable<Row> table) {
  std::vector<std::string> names = sweep_names;
  for (const ResultColumn<Row>& column : table) names.emplace_back(column.name);
  return names;
}

}  // namespace allocsim
