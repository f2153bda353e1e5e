#pragma once
// A table described in a scenario's "tables" array, written as CSV and Markdown
// under tables/ (table_writer.h). Either selected columns of result rows:
//
//   {"name": "split-allocation", "title": "...", "source": "metrics",
//    "where": {"estimator": "bytes"},
//    "columns": ["scheme", {"column": "truth", "label": "bytes", "unit": "bytes"},
//                {"column": "p_any_sample", "label": "P(≥ 1 sample)", "unit": "percent"}]}
//
// or the .NET document's negative binomial quantile table, computed exactly and by
// Camp-Paulson, beside the document's own numbers when given:
//
//   {"name": "quantiles", "title": "...", "source": "nb_quantiles", "p": 9.765625e-06,
//    "level": 0.95, "document": [[1, 2591, 377738], [2, 24800, 570531]]}
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/json/json_reader.h"
#include "allocsim/outputs/result_columns.h"
#include "allocsim/outputs/row_filter.h"
#include "allocsim/outputs/value_format.h"

namespace allocsim {

struct TableColumn {
  std::string column;
  std::string label;  // header; default: the column name
  Unit unit = Unit::none;
};

// One row of a document's quantile table: failures at the two tails.
struct DocumentQuantiles {
  std::int64_t samples = 0;
  double lower = 0;
  double upper = 0;
};

enum class TableKind { results, nb_quantiles };

struct TableSpec {
  std::string path;
  std::string name;
  std::string title;
  TableKind kind = TableKind::results;
  // kind results:
  ResultSource source = ResultSource::metrics;
  RowFilter where;
  std::vector<TableColumn> columns;
  // kind nb_quantiles:
  double p = 1.0 / 102400;
  double level = 0.95;
  std::vector<DocumentQuantiles> document;
};

// Reads a scenario's "tables" array; `files` holds the columns of each result file.
std::vector<TableSpec> parse_tables(const JsonValue& tables, const ResultColumns& files);

}  // namespace allocsim
