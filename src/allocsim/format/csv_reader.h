#pragma once
// Reads back the CSV files allocsim writes (metrics.csv, intervals.csv): RFC 4180
// quoting as csv.h writes it, a header row naming the columns, every row as wide as
// the header.
#include <optional>
#include <string>
#include <vector>

namespace allocsim {

struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;

  // Index of a column, or nullopt.
  std::optional<std::size_t> find(const std::string& column) const;
};

// `where` names the text in errors ("results/x/metrics.csv: line 3: ...").
CsvTable parse_csv(const std::string& text, const std::string& where);
CsvTable read_csv_file(const std::string& path);

// A numeric cell; nullopt when empty or not a finite number.
std::optional<double> parse_cell_number(const std::string& cell);

}  // namespace allocsim
