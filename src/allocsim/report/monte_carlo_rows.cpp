#include "allocsim/report/monte_carlo_rows.h"

#include <cmath>
#include <limits>
#include <string_view>
#include <variant>

#include "allocsim/stats/result_tables.h"

namespace allocsim {
namespace {

struct Words {
  std::string_view column;
  std::string_view label;
  Unit unit;
};

// How the report names a quantity and its unit; a column not here keeps its name
// and is shown as a plain number.
constexpr Words kWords[] = {
    {"mean", "mean estimate", Unit::bytes},
    {"bias", "bias (mean estimate − truth)", Unit::bytes},
    {"rel_bias", "relative bias (bias / truth)", Unit::percent},
    {"mape", "typical error (mean |estimate − truth| / truth)", Unit::percent},
    {"cmape", "typical error of the profiles that sampled it", Unit::percent},
    {"p_any_sample", "P(seen at all): profiles with ≥ 1 sample", Unit::percent},
    {"var", "variance of the estimate (B²)", Unit::none},
    {"coverage", "coverage of the interval", Unit::percent},
    {"mean_distance", "profile distance from the truth (total variation)", Unit::percent},
};

Words words(std::string_view column) {
  for (const Words& w : kWords) {
    if (w.column == column) return w;
  }
  return {column, column, Unit::none};
}

double cell_value(const Cell& cell) {
  if (const auto* count = std::get_if<std::uint64_t>(&cell)) return static_cast<double>(*count);
  if (const auto* value = std::get_if<double>(&cell)) return *value;
  if (const auto* maybe = std::get_if<std::optional<double>>(&cell)) {
    return maybe->value_or(std::numeric_limits<double>::quiet_NaN());
  }
  return std::numeric_limits<double>::quiet_NaN();
}

// The standard error column of `name`: se_X for X, se_Y for mean_Y.
template <class Row>
const ResultColumn<Row>* se_column(ResultTable<Row> table, std::string_view name) {
  std::string_view stem = name;
  if (stem.starts_with("mean_")) stem.remove_prefix(5);
  return find_column(table, "se_" + std::string(stem));
}

// Each non-key column of `row` with a standard error column beside it.
template <class Row>
void add_paired(ResultTable<Row> table, const Row& row, std::vector<MonteCarloEstimate>& out) {
  for (const ResultColumn<Row>& column : table) {
    if (column.key || column.name.starts_with("se_")) continue;
    const ResultColumn<Row>* se = se_column(table, column.name);
    if (se == nullptr) continue;
    const Words w = words(column.name);
    out.push_back(
        {std::string(column.name), std::string(w.label), w.unit, cell_value(column.get(row)), cell_value(se->get(row))});
  }
}

// A metric column read through its table, by name.
double metric(const MetricRow& row, std::string_view name) {
  return cell_value(column_named(metric_table(), name).get(row));
}

}  // namespace

std::vector<MonteCarloEstimate> monte_carlo_estimates(const SchemeVerdict& entry) {
  std::vector<MonteCarloEstimate> out;
  const MetricRow& total = *entry.total.row;
  // The mean and the relative bias have no standard error column: the mean's is the
  // bias's (mean = truth + bias, the truth exact), the relative bias's that over the truth.
  const double truth = metric(total, "truth");
  const double se_bias = metric(total, "se_bias");
  for (const std::string_view name : {"mean", "rel_bias"}) {
    const Words w = words(name);
    out.push_back({std::string(name), std::string(w.label), w.unit, metric(total, name),
                   name == "mean" ? se_bias : se_bias / truth});
  }
  add_paired(metric_table(), total, out);
  if (entry.total.interval != nullptr) {
    const std::size_t first = out.size();
    add_paired(interval_table(), *entry.total.interval, out);
    for (std::size_t i = first; i < out.size(); ++i) {
      out[i].label += " (" + entry.total.interval->interval + ", nominal " +
                      format_value(entry.total.interval->metrics.level, Unit::percent) + ")";
    }
  }
  if (entry.profile != nullptr) add_paired(profile_table(), *entry.profile, out);
  return out;
}

}  // namespace allocsim
