#include "allocsim/check/expectation_check.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <boost/math/distributions/binomial.hpp>

#include "allocsim/format/csv.h"
#include "allocsim/outputs/value_format.h"
#include "allocsim/scenario/result_files.h"
#include "allocsim/stats/result_tables.h"

namespace allocsim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A proportion's count of successes in R trials (p_any_sample: replications
// with a sample), for the exact binomial comparison.
struct Proportion {
  std::uint64_t successes = 0;
  std::uint64_t trials = 0;
};

struct MetricView {
  double value;
  double standard_error;         // NaN where none is known
  std::optional<double> theory;  // the theory_<metric> value
  std::optional<Proportion> proportion = std::nullopt;
};

// Standard error of the mean estimate. Where theory gives the variance, the larger
// of sqrt(theory_var / R) and the sample value is used: an error that occurs with
// probability 1e-7 is absent from a few thousand replications, and the sample
// variance would then claim the estimate is exact.
double bias_standard_error(const Metrics& m) {
  if (!m.theory.var || m.replications == 0) return m.se_bias;
  return std::max(m.se_bias, std::sqrt(*m.theory.var / static_cast<double>(m.replications)));
}

// The value of a number column of `row`, read by its name from the row's table.
template <class Row>
double column_value(ResultTable<Row> table, const Row& row, const std::string& name) {
  return std::get<double>(column_named(table, name).get(row));
}

MetricView interval_view(const IntervalRow& row, const std::string& metric) {
  const IntervalMetrics& m = row.metrics;
  const double value = column_value(interval_table(), row, metric);
  const double r = static_cast<double>(m.replications);
  const double tail = (1 - m.level) / 2;
  const double se_tail = r > 0 ? std::sqrt(tail * (1 - tail) / r) : kNaN;
  if (metric == "coverage") return {value, m.se_coverage, m.level};
  if (metric == "miss_low" || metric == "miss_high") return {value, se_tail, tail};
  return {value, kNaN, std::nullopt};  // mean_width, rel_width
}

MetricView view(const MetricRow& row, const std::string& metric) {
  const Metrics& m = row.metrics;
  const TheoryValues& t = m.theory;
  const double value = column_value(metric_table(), row, metric);
  const double se_bias = bias_standard_error(m);
  if (metric == "mean") return {value, se_bias, t.bias ? std::optional(m.truth + *t.bias) : std::nullopt};
  if (metric == "bias") return {value, se_bias, t.bias};
  if (metric == "rel_bias") return {value, se_bias / m.truth, t.bias ? std::optional(*t.bias / m.truth) : std::nullopt};
  if (metric == "var") return {value, m.se_var, t.var};
  // Delta method: se(sd) = se(var) / (2 sd).
  if (metric == "sd") {
    return {value, m.sd > 0 ? m.se_var / (2 * m.sd) : kNaN, t.var ? std::optional(std::sqrt(*t.var)) : std::nullopt};
  }
  if (metric == "rmse") return {value, kNaN, std::nullopt};
  if (metric == "mape") return {value, m.se_mape, t.mape};
  if (metric == "cmape") return {value, m.se_cmape, t.cmape};
  return {value, m.se_p_any_sample, t.p_any_sample,  // p_any_sample
          Proportion{m.replications_with_sample, m.replications}};
}

// The text of `row`'s key column `name`; empty where its table has none (the
// interval of a metric row).
template <class Row>
std::string key_text(ResultTable<Row> table, const Row& row, std::string_view name) {
  const ResultColumn<Row>* column = find_column(table, name);
  return column == nullptr ? std::string() : std::string(std::get<std::string_view>(column->get(row)));
}

template <class Row>
bool matches(const Scenario& scenario, ResultTable<Row> table, const Row& row, const Expectation& e) {
  static const std::vector<std::string> no_sweep;
  static const std::vector<std::string> keys = selectable_columns(no_sweep);
  for (const auto& [column, wanted] : e.where) {
    if (std::find(keys.begin(), keys.end(), column) != keys.end()) {
      if (wanted != key_text(table, row, column)) return false;
    } else {
      for (std::size_t v = 0; v < scenario.sweep.size(); ++v) {
        if (scenario.sweep[v].name == column && scenario.points[row.point].values[v] != wanted) return false;
      }
    }
  }
  return true;
}

// The sweep values, then the key columns: "rate=4096 poisson/bytes/wald/stack:main;f".
template <class Row>
std::string describe_row(const Scenario& scenario, ResultTable<Row> table, const Row& row) {
  std::string out;
  for (std::size_t v = 0; v < scenario.sweep.size(); ++v) {
    out += scenario.sweep[v].name + "=" + format_sweep_value(scenario.points[row.point].values[v]) + " ";
  }
  std::vector<std::string_view> keys;
  for (const ResultColumn<Row>& column : table) {
    if (column.key) keys.push_back(std::get<std::string_view>(column.get(row)));
  }
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (k > 0) out += k + 1 == keys.size() ? ":" : "/";  // the group after its kind
    out += keys[k];
  }
  return out;
}

std::string number(double x) { return format_printf(x, "%.6g"); }

// "equals p within k se" for a proportion, tested exactly: the count K of R
// trials passes when neither tail of Binomial(R, p) at K is below half the
// two-sided normal tail at k sigmas (5 sigmas: 5.7e-7), the false-alarm rate the
// normal bound claims. The normal bound itself fails far more often than that
// where R p (1 - p) is small: with p = 1 - 2e-6 and R = 16000 one replication
// without a sample (probability 3.2%) lies 5.6 standard errors away.
ExpectationOutcome evaluate_proportion(const Expectation& e, double p, const Proportion& count, double value) {
  ExpectationOutcome out;
  out.value = value;
  const double alpha = std::erfc(e.sigmas / std::sqrt(2.0));
  const auto k = static_cast<double>(count.successes);
  double lower = 1, upper = 1;  // P(K <= k), P(K >= k)
  if (p <= 0 || p >= 1) {
    lower = upper = (p <= 0 ? k == 0 : k == static_cast<double>(count.trials)) ? 1 : 0;
  } else {
    const boost::math::binomial_distribution<double> binomial(static_cast<double>(count.trials), p);
    lower = boost::math::cdf(binomial, k);
    upper = k > 0 ? boost::math::cdf(boost::math::complement(binomial, k - 1)) : 1;
  }
  const double tail = std::min(lower, upper);
  out.bound = "exact binomial: " + std::to_string(count.successes) + " of " + std::to_string(count.trials) +
              " at p = " + number(p) + ", smaller tail " + number(tail) + " >= " + number(alpha / 2) + " (" +
              number(e.sigmas) + " se two-sided)";
  out.passed = tail >= alpha / 2;
  return out;
}

ExpectationOutcome evaluate(const Expectation& e, const MetricView& v) {
  if (v.proportion && (e.equals || e.equals_theory) && e.sigmas > 0 && e.tolerance == 0 && !e.absolute) {
    const std::optional<double> p = e.equals_theory ? v.theory : e.equals;
    if (p && *p >= 0 && *p <= 1) return evaluate_proportion(e, *p, *v.proportion, v.value);
  }
  ExpectationOutcome out;
  const double x = e.absolute ? std::fabs(v.value) : v.value;
  const std::string shown = e.absolute ? "|" + e.metric + "|" : e.metric;
  out.value = x;
  if (e.equals || e.equals_theory) {
    if (e.equals_theory && !v.theory) {
      out.bound = "no theory_" + e.metric + " value for this row";
      return out;
    }
    const double target = e.equals_theory ? *v.theory : *e.equals;
    if (!std::isfinite(target)) {  // e.g. a theory past the range of a double: nothing to compare with
      out.bound = "theory_" + e.metric + " is " + number(target) + ", not a finite value";
      return out;
    }
    double allowed = e.tolerance;
    std::string how = e.tolerance > 0 ? number(e.tolerance) : "";
    if (e.sigmas > 0) {
      // An infinite standard error would allow any value: the check would pass vacuously.
      if (!std::isfinite(v.standard_error)) {
        out.bound = "no finite standard error for " + e.metric + " (se = " + number(v.standard_error) + ")";
        return out;
      }
      allowed += e.sigmas * v.standard_error;
      how = number(e.sigmas) + " se" + (e.tolerance > 0 ? " + " + how : "");
    }
    out.bound = "|" + shown + " - " + number(target) + "| <= " + how + " = " + number(allowed);
    out.passed = std::fabs(x - target) <= allowed;
  } else {
    out.bound = (e.min ? number(*e.min) + " <= " : "") + shown + (e.max ? " <= " + number(*e.max) : "");
    out.passed = !std::isnan(x) && (!e.min || x >= *e.min) && (!e.max || x <= *e.max);
  }
  return out;
}

}  // namespace

std::vector<ExpectationOutcome> check_expectations(const Scenario& scenario, const ScenarioResult& result) {
  std::vector<ExpectationOutcome> outcomes;
  for (std::size_t i = 0; i < scenario.expectations.size(); ++i) {
    const Expectation& e = scenario.expectations[i];
    const std::string name = e.name.empty() ? e.path : e.name;
    bool any = false;
    auto consider = [&](auto table, const auto& row, const MetricView& view) {
      if (!matches(scenario, table, row, e)) return;
      any = true;
      ExpectationOutcome outcome = evaluate(e, view);
      outcome.expectation = i;
      outcome.name = name;
      outcome.row = describe_row(scenario, table, row);
      outcomes.push_back(std::move(outcome));
    };
    if (is_interval_metric(e.metric)) {
      for (const IntervalRow& row : result.interval_rows) consider(interval_table(), row, interval_view(row, e.metric));
    } else {
      for (const MetricRow& row : result.rows) consider(metric_table(), row, view(row, e.metric));
    }
    if (!any) outcomes.push_back({i, name, "(no metric row matched \"where\")", kNaN, "", false});
  }
  return outcomes;
}

std::string format_outcomes(const std::vector<ExpectationOutcome>& outcomes) {
  std::string out;
  for (const auto& o : outcomes) {
    out += std::string(o.passed ? "PASS  " : "FAIL  ") + o.name + "  " + o.row + "  value=" + number(o.value) + "  " +
           o.bound + "\n";
  }
  return out;
}

}  // namespace allocsim
