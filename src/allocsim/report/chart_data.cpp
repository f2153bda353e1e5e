#include "allocsim/report/chart_data.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "allocsim/estimate/count_theory.h"
#include "allocsim/sampler/estimator_legends.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct RowRef {
  double x;
  std::size_t row;
};

std::size_t column_index(const CsvTable& table, const std::string& column, const std::string& where) {
  const auto index = table.find(column);
  if (!index) throw InputError(where + ": no column \"" + column + "\"");
  return *index;
}

// The series a row belongs to, as its series cells; series are kept in order of
// first appearance (the sweep's order).
class SeriesIndex {
 public:
  std::size_t of(const std::vector<std::string>& key) {
    const auto [it, added] = index_.emplace(key, keys_.size());
    if (added) keys_.push_back(key);
    return it->second;
  }
  const std::vector<std::vector<std::string>>& keys() const { return keys_; }

 private:
  std::map<std::vector<std::string>, std::size_t> index_;
  std::vector<std::vector<std::string>> keys_;
};

// Names the columns in which two rows differ, to explain a clash.
std::string differing_columns(const CsvTable& table, std::size_t a, std::size_t b) {
  std::string out;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (table.rows[a][c] != table.rows[b][c] && table.columns[c].rfind("theory_", 0) != 0 &&
        table.columns[c].rfind("se_", 0) != 0) {
      out += (out.empty() ? "" : ", ") + table.columns[c];
    }
    if (out.size() > 80) break;
  }
  return out;
}

}  // namespace

double displayed_y(const ChartSpec& spec, double value) { return spec.y.unit == Unit::percent ? 100 * value : value; }

bool selects_rows(const ChartSpec& spec, const CsvTable& table) {
  return std::any_of(table.rows.begin(), table.rows.end(),
                     [&](const auto& row) { return spec.where.matches(table, row); });
}

ChartData chart_data(const ChartSpec& spec, const CsvTable& table, const std::string& where) {
  const std::string context = where + ": chart \"" + spec.name + "\" (" + spec.path + ")";
  std::vector<std::size_t> series_columns;
  for (const auto& c : spec.series) series_columns.push_back(column_index(table, c, context));
  const std::size_t x_column = column_index(table, spec.x.column, context);
  const std::size_t y_column = column_index(table, spec.y.column, context);
  const auto optional_column = [&](const std::string& name) {
    return name.empty() ? std::optional<std::size_t>() : std::optional(column_index(table, name, context));
  };
  const auto error_column = optional_column(spec.error);
  const auto theory_column = optional_column(spec.theory);
  // theory_form: the closed form computed from each row's truth and rate.
  const bool poisson_form = spec.theory_form == "poisson_mape";
  const auto rate_column = poisson_form ? optional_column("rate") : std::nullopt;
  const auto divide_column = optional_column(spec.y_divide_by);
  const auto second_column = optional_column(spec.second_theory);
  const auto times_column = optional_column(spec.second_theory_times);

  auto number = [&](std::size_t row, std::size_t column, bool required) {
    const auto value = parse_cell_number(table.rows[row][column]);
    if (!value && required) {
      throw InputError(context + ": column \"" + table.columns[column] + "\" is not a number in row " +
                       std::to_string(row + 2) + ": \"" + table.rows[row][column] + "\"");
    }
    return value.value_or(kNaN);
  };
  // y-like values in plotting units: divided, scaled, percent.
  auto y_value = [&](std::size_t row, double value) {
    if (divide_column) value /= number(row, *divide_column, true);
    return displayed_y(spec, value * spec.y.scale);
  };

  SeriesIndex index;
  std::vector<std::vector<RowRef>> point_rows, theory_rows;
  auto add = [&](std::vector<std::vector<RowRef>>& rows, std::size_t r) {
    std::vector<std::string> key;
    for (std::size_t c : series_columns) key.push_back(table.rows[r][c]);
    const std::size_t s = index.of(key);
    if (rows.size() <= s) rows.resize(s + 1);
    rows[s].push_back({number(r, x_column, true) * spec.x.scale, r});
  };
  const RowFilter& theory_filter = spec.theory_where ? *spec.theory_where : spec.where;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    if (spec.where.matches(table, table.rows[r])) add(point_rows, r);
    if ((theory_column || poisson_form) && theory_filter.matches(table, table.rows[r])) add(theory_rows, r);
  }
  if (point_rows.empty()) throw InputError(context + ": \"where\" selects no rows");
  point_rows.resize(index.keys().size());
  theory_rows.resize(index.keys().size());

  ChartData data;
  for (std::size_t s = 0; s < index.keys().size(); ++s) {
    ChartSeries series;
    series.label = series_label(spec, index.keys()[s], estimator_legend);
    for (auto* rows : {&point_rows[s], &theory_rows[s]}) {
      std::stable_sort(rows->begin(), rows->end(), [](const RowRef& a, const RowRef& b) { return a.x < b.x; });
      // Unjoined points form a scatter, where several rows may share an x.
      const bool scatter = rows == &point_rows[s] && spec.join_points == false;
      // A closed form of x alone (e.g. a group's error from its true bytes) gives
      // groups of equal x the same value: one point of the line each.
      if (rows == &theory_rows[s]) {
        rows->erase(std::unique(rows->begin(), rows->end(),
                                [&](const RowRef& a, const RowRef& b) {
                                  const auto& ra = table.rows[a.row];
                                  const auto& rb = table.rows[b.row];
                                  // A form of the truth and the series' rate: equal x, equal value.
                                  if (!theory_column) return a.x == b.x;
                                  return a.x == b.x && ra[*theory_column] == rb[*theory_column] &&
                                         (!second_column || ra[*second_column] == rb[*second_column]);
                                }),
                    rows->end());
      }
      for (std::size_t i = 1; i < rows->size() && !scatter; ++i) {
        if ((*rows)[i].x == (*rows)[i - 1].x) {
          throw InputError(context + ": two rows of series \"" + series.label +
                           "\" at x = " + format_value((*rows)[i].x, Unit::none) + " (they differ in " +
                           differing_columns(table, (*rows)[i - 1].row, (*rows)[i].row) +
                           "); narrow \"where\" or add a \"series\" column");
        }
      }
    }
    for (std::size_t i = 0; i < point_rows[s].size(); i += spec.point_every) {
      const auto [x, r] = point_rows[s][i];
      const double y = number(r, y_column, false);
      const double error = error_column ? kErrorBarSigmas * number(r, *error_column, false) : kNaN;
      series.points.push_back({x, y_value(r, y), std::isnan(error) ? kNaN : std::fabs(y_value(r, error))});
    }
    for (const auto& [x, r] : theory_rows[s]) {
      double value = kNaN;
      if (theory_column) {
        value = number(r, *theory_column, false);
      } else {
        const double truth = number(r, x_column, false), rate = number(r, *rate_column, false);
        if (truth > 0 && rate > 0) value = poisson_scaled_count_theory(truth / rate, rate).mape.value_or(kNaN);
      }
      series.theory.push_back({x, y_value(r, value)});
    }
    for (const auto& [x, r] : second_column ? theory_rows[s] : std::vector<RowRef>{}) {
      const double times = times_column ? number(r, *times_column, false) : 1.0;
      series.second_theory.push_back({x, y_value(r, number(r, *second_column, false) * times)});
    }
    data.series.push_back(std::move(series));
  }
  return data;
}

}  // namespace allocsim
