#include "allocsim/report/table_writer.h"

#include <filesystem>
#include <limits>

#include "allocsim/estimate/quantile_table.h"
#include "allocsim/format/csv.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

// A table as headers and cells, both as CSV (raw) and as Markdown (formatted).
struct Grid {
  std::vector<std::string> names;   // CSV header
  std::vector<std::string> labels;  // Markdown header
  std::vector<std::vector<std::string>> raw;
  std::vector<std::vector<std::string>> shown;
};

std::string markdown_cell(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

TableText render(const std::string& title, const std::string& note, const Grid& grid) {
  TableText text;
  auto add_record = [&](const std::vector<std::string>& fields) {
    for (std::size_t c = 0; c < fields.size(); ++c) {
      if (c > 0) text.csv += ',';
      text.csv += csv_field(fields[c]);
    }
    text.csv += '\n';
  };
  add_record(grid.names);
  for (const auto& row : grid.raw) add_record(row);
  text.markdown = "**" + markdown_cell(title) + "**\n\n";
  if (!note.empty()) text.markdown += markdown_cell(note) + "\n\n";
  std::string rule;
  for (const auto& label : grid.labels) {
    text.markdown += "| " + markdown_cell(label) + " ";
    rule += "|---";
  }
  text.markdown += "|\n" + rule + "|\n";
  for (const auto& row : grid.shown) {
    for (const auto& cell : row) text.markdown += "| " + markdown_cell(cell) + " ";
    text.markdown += "|\n";
  }
  return text;
}

Grid results_grid(const TableSpec& spec, const CsvTable& results, const std::string& where) {
  Grid grid;
  std::vector<std::size_t> indices;
  for (const TableColumn& c : spec.columns) {
    const auto index = results.find(c.column);
    if (!index) throw InputError(where + ": table \"" + spec.name + "\": no column \"" + c.column + "\"");
    indices.push_back(*index);
    grid.names.push_back(c.column);
    grid.labels.push_back(c.label);
  }
  for (const auto& row : results.rows) {
    if (!spec.where.matches(results, row)) continue;
    std::vector<std::string> raw, shown;
    for (std::size_t c = 0; c < indices.size(); ++c) {
      const std::string& cell = row[indices[c]];
      raw.push_back(cell);
      const auto number = parse_cell_number(cell);
      shown.push_back(number ? format_value(*number, spec.columns[c].unit) : cell);
    }
    grid.raw.push_back(std::move(raw));
    grid.shown.push_back(std::move(shown));
  }
  if (grid.raw.empty())
    throw InputError(where + ": table \"" + spec.name + "\" (" + spec.path + "): \"where\" selects no rows");
  return grid;
}

// The .NET document's table: failures at the two tail quantiles, exact and
// Camp-Paulson (rounded down, as the document does), how far each bound lies from
// the expected failures s q / p, and the document's numbers with their difference.
Grid quantile_grid(const TableSpec& spec) {
  Grid grid;
  grid.names = {"samples",           "exact_lower",        "exact_upper",        "lower_vs_expected",
                "upper_vs_expected", "camp_paulson_lower", "camp_paulson_upper", "camp_paulson_max_cdf_error"};
  const std::string low = format_value((1 - spec.level) / 2, Unit::none);
  const std::string high = format_value((1 + spec.level) / 2, Unit::none);
  grid.labels = {"samples s",      "exact, CDF = " + low,  "exact, CDF = " + high,  "lower vs s q/p",
                 "upper vs s q/p", "Camp-Paulson, " + low, "Camp-Paulson, " + high, "Camp-Paulson max |ΔCDF|"};
  if (!spec.document.empty()) {
    for (const char* n :
         {"document_lower", "document_upper", "document_minus_exact_lower", "document_minus_exact_upper"}) {
      grid.names.push_back(n);
    }
    for (const char* n : {"document, ", "document, ", "document − exact (lower)", "document − exact (upper)"}) {
      grid.labels.push_back(n);
    }
    grid.labels[8] += low;
    grid.labels[9] += high;
  }
  const auto rows = interval::quantile_table(spec.p, spec.level, interval::QuantileRounding::down);
  for (const auto& row : rows) {
    const double expected = static_cast<double>(row.samples) * (1 - spec.p) / spec.p;
    std::vector<double> values = {static_cast<double>(row.samples),
                                  row.exact.lower,
                                  row.exact.upper,
                                  row.exact.lower / expected - 1,
                                  row.exact.upper / expected - 1,
                                  row.camp_paulson.lower,
                                  row.camp_paulson.upper,
                                  row.camp_paulson_cdf_error.max_abs_error};
    std::vector<Unit> units = {Unit::none,    Unit::none, Unit::none, Unit::percent,
                               Unit::percent, Unit::none, Unit::none, Unit::none};
    if (!spec.document.empty()) {
      const DocumentQuantiles* document = nullptr;
      for (const auto& d : spec.document) {
        if (d.samples == row.samples) document = &d;
      }
      const double nan = std::numeric_limits<double>::quiet_NaN();
      values.push_back(document ? document->lower : nan);
      values.push_back(document ? document->upper : nan);
      values.push_back(document ? document->lower - row.exact.lower : nan);
      values.push_back(document ? document->upper - row.exact.upper : nan);
      units.insert(units.end(), 4, Unit::none);
    }
    std::vector<std::string> raw, shown;
    for (std::size_t c = 0; c < values.size(); ++c) {
      raw.push_back(format_number(values[c]));
      shown.push_back(format_value(values[c], units[c], 3));
    }
    grid.raw.push_back(std::move(raw));
    grid.shown.push_back(std::move(shown));
  }
  return grid;
}

}  // namespace

TableText table_text(const TableSpec& spec, const CsvTable& results, const std::string& where) {
  if (spec.kind == TableKind::results) return render(spec.title, "", results_grid(spec, results, where));
  const std::string note =
      "Negative binomial failures before the s-th success, p = " + format_value(spec.p, Unit::none, 7) +
      ", quantiles rounded down as in the document.";
  return render(spec.title, note, quantile_grid(spec));
}

std::string write_table(const TableSpec& spec, const CsvTable& results, const std::string& results_dir,
                        const std::string& out_dir) {
  const std::filesystem::path dir = std::filesystem::path(out_dir) / "tables";
  const std::string where = (std::filesystem::path(results_dir) / file_name(spec.source)).string();
  const TableText text = table_text(spec, results, where);
  const std::string markdown = (dir / (spec.name + ".md")).string();
  create_output_directory(dir.string());
  write_file_atomically((dir / (spec.name + ".csv")).string(), text.csv);
  write_file_atomically(markdown, text.markdown);
  return markdown;
}

}  // namespace allocsim
