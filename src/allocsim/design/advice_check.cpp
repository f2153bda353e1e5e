#include "allocsim/design/advice_check.h"

#include <algorithm>
#include <cmath>

#include "allocsim/engine/experiment.h"
#include "allocsim/sampler/registry.h"

namespace allocsim {

MonteCarloCheck check_advice(const TraceSource& source, const AdvicePoint& point, const AccuracyTargets& targets,
                             const MonteCarloOptions& options) {
  JsonObject parameters(point.parameters, "$.advise." + point.scheme);
  std::shared_ptr<const Scheme> scheme = find_scheme(point.scheme)->create(parameters);
  parameters.finish();

  Scenario scenario;
  scenario.name = "advise";
  scenario.seed = options.seed;
  scenario.replications = options.replications;
  scenario.groups = {GroupKind::total, GroupKind::stack};
  scenario.windows = {Window::allocated};
  scenario.estimators = {"bytes"};
  SweepPoint sweep_point;
  sweep_point.trace_key = "trace";
  sweep_point.trace = source;
  sweep_point.schemes.push_back({point.scheme, point.scheme, scheme});
  scenario.points.push_back(std::move(sweep_point));
  const ScenarioResult result = run_scenario(scenario, {.threads = options.threads});

  MonteCarloCheck check;
  check.replications = options.replications;
  double total_truth = 0;
  for (const MetricRow& row : result.rows) {
    if (row.group_kind != GroupKind::total) continue;
    const Metrics& m = row.metrics;
    total_truth = m.truth;
    check.total_relative_rmse = m.rmse / m.truth;
    // RMSE^2 = var + bias^2; its standard error is dominated by the variance's.
    check.se_total_relative_rmse = m.rmse > 0 ? m.se_var / (2 * m.rmse) / m.truth : 0;
  }
  const double s = options.sigmas;
  check.meets = !targets.total_error ||
                targets.total_z() * (check.total_relative_rmse - s * check.se_total_relative_rmse) <=
                    *targets.total_error;
  for (const MetricRow& row : result.rows) {
    const Metrics& m = row.metrics;
    if (row.group_kind != GroupKind::stack || m.truth < targets.stack_share * total_truth) continue;
    ++check.target_stacks;
    if (m.mape >= check.worst_stack_mape) {
      check.worst_stack_mape = m.mape;
      check.se_worst_stack_mape = m.se_mape;
    }
    if (m.p_any_sample <= check.least_stack_seen) {
      check.least_stack_seen = m.p_any_sample;
      check.se_least_stack_seen = m.se_p_any_sample;
    }
    if (targets.stack_mape && m.mape - s * m.se_mape > *targets.stack_mape) check.meets = false;
    if (targets.stack_seen && m.p_any_sample + s * m.se_p_any_sample < *targets.stack_seen) check.meets = false;
  }
  return check;
}

}  // namespace allocsim
