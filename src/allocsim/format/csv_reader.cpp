#include "allocsim/format/csv_reader.h"

#include <charconv>
#include <cmath>

#include "allocsim/util/error.h"
#include "allocsim/util/file_text.h"

namespace allocsim {

std::optional<std::size_t> CsvTable::find(const std::string& column) const {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == column) return i;
  }
  return std::nullopt;
}

CsvTable parse_csv(const std::string& text, const std::string& where) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  std::size_t line = 1;
  std::size_t i = 0;
  const std::size_t n = text.size();
  auto end_record = [&] {
    record.push_back(std::move(field));
    field.clear();
    records.push_back(std::move(record));
    record.clear();
  };
  while (i < n) {
    if (text[i] == '"' && field.empty()) {
      // A quoted field: "" is a quote, anything else up to the closing quote is literal.
      const std::size_t opened_at = line;
      for (++i;; ++i) {
        if (i >= n) throw InputError(where + ": line " + std::to_string(opened_at) + ": unterminated quoted field");
        if (text[i] == '"') {
          if (i + 1 < n && text[i + 1] == '"') {
            field += '"';
            ++i;
            continue;
          }
          ++i;
          break;
        }
        if (text[i] == '\n') ++line;
        field += text[i];
      }
      if (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
        throw InputError(where + ": line " + std::to_string(line) + ": text after a closing quote");
      }
      continue;
    }
    const char c = text[i++];
    if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
    } else if (c == '\r' && i < n && text[i] == '\n') {
      continue;
    } else if (c == '\n') {
      end_record();
      ++line;
    } else {
      field += c;
    }
  }
  if (!field.empty() || !record.empty()) end_record();

  CsvTable table;
  if (records.empty()) throw InputError(where + ": empty CSV file (no header)");
  table.columns = std::move(records.front());
  for (std::size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != table.columns.size()) {
      throw InputError(where + ": record " + std::to_string(r + 1) + " has " + std::to_string(records[r].size()) +
                       " fields, the header " + std::to_string(table.columns.size()));
    }
    table.rows.push_back(std::move(records[r]));
  }
  return table;
}

CsvTable read_csv_file(const std::string& path) {
  return parse_csv(read_file_text(path, "file"), path);
}

std::optional<double> parse_cell_number(const std::string& cell) {
  if (cell.empty()) return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  if (ec != std::errc() || end != cell.data() + cell.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace allocsim
