#pragma once
// Writes a scenario's tables into tables/ of its results directory: NAME.csv (raw
// values, column names as in the results) and NAME.md (a Markdown table with the
// title, readable headers and formatted values).
#include <string>

#include "allocsim/format/csv_reader.h"
#include "allocsim/outputs/table_spec.h"

namespace allocsim {

struct TableText {
  std::string csv;
  std::string markdown;
};

// `results` is the spec's source file (unused for nb_quantiles tables).
TableText table_text(const TableSpec& spec, const CsvTable& results, const std::string& where);

// Writes into tables/ of `out_dir` (the results directory, or a staging directory
// whose files are moved into it later); returns the Markdown file's path.
std::string write_table(const TableSpec& spec, const CsvTable& results, const std::string& results_dir,
                        const std::string& out_dir);

}  // namespace allocsim
