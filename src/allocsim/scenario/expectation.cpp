#include "allocsim/scenario/expectation.h"

#include <algorithm>

#include "allocsim/stats/result_tables.h"
#include "allocsim/util/printable.h"

namespace allocsim {

const std::vector<std::string>& expectation_metrics() {
  static const std::vector<std::string> names = {"mean",     "bias",      "rel_bias",   "sd",           "var",
                                                 "rmse",     "mape",      "cmape",      "p_any_sample", "coverage",
                                                 "miss_low", "miss_high", "mean_width", "rel_width"};
  return names;
}

bool is_interval_metric(const std::string& metric) {
  return find_column(interval_table(), metric) != nullptr && find_column(metric_table(), metric) == nullptr;
}

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

Expectation parse_expectation(JsonObject& object, const std::vector<std::string>& columns) {
  Expectation e;
  e.path = object.path();
  if (auto v = object.maybe("name")) e.name = v->string();
  if (auto v = object.maybe("where")) {
    JsonObject where = v->object();
    for (const auto& [key, value] : v->raw().items()) {
      if (std::find(columns.begin(), columns.end(), key) == columns.end()) {
        where.fail(printable(key) + " is not a column to select on (known: " + joined(columns) + ")");
      }
      JsonValue selected = where.at(key);
      if (!selected.is_string() && !selected.is_number()) selected.fail("expected a string or a number");
      e.where.emplace_back(key, value);
    }
    where.finish();
  }
  JsonValue metric = object.at("metric");
  e.metric = metric.string();
  const auto& metrics = expectation_metrics();
  if (std::find(metrics.begin(), metrics.end(), e.metric) == metrics.end()) {
    metric.fail("unknown metric " + printable(e.metric) + " (known: " + joined(metrics) + ")");
  }
  if (auto v = object.maybe("equals")) {
    if (v->is_string()) {
      if (v->string() != "theory") v->fail("expected a number or \"theory\"");
      e.equals_theory = true;
    } else {
      e.equals = v->number();
    }
  }
  if (auto v = object.maybe("sigmas")) e.sigmas = v->positive_number();
  if (auto v = object.maybe("tolerance")) e.tolerance = v->non_negative_number();
  if (auto v = object.maybe("min")) e.min = v->number();
  if (auto v = object.maybe("max")) e.max = v->number();
  if (auto v = object.maybe("abs")) e.absolute = v->boolean();
  const bool has_equals = e.equals || e.equals_theory;
  if (!has_equals && !e.min && !e.max) object.fail("needs \"equals\" or \"min\"/\"max\"");
  if (has_equals && (e.min || e.max)) object.fail("use either \"equals\" or \"min\"/\"max\", not both");
  if (has_equals && e.sigmas == 0 && e.tolerance == 0) {
    object.fail("\"equals\" needs \"sigmas\" (standard errors) or \"tolerance\"");
  }
  if (!has_equals && (e.sigmas != 0 || e.tolerance != 0)) {
    object.fail("\"sigmas\" and \"tolerance\" apply to \"equals\" only");
  }
  if (e.min && e.max && *e.min > *e.max) object.fail("\"min\" is greater than \"max\"");
  if (e.sigmas != 0 && (e.metric == "rmse" || e.metric == "mean_width" || e.metric == "rel_width")) {
    object.fail(e.metric + " has no standard error here; use \"tolerance\" or \"min\"/\"max\"");
  }
  object.finish();
  return e;
}

}  // namespace allocsim
