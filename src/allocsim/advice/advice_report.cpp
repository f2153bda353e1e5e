#include "allocsim/advice/advice_report.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>

#include "allocsim/format/csv.h"
#include "allocsim/util/byte_units.h"
#include "allocsim/util/parallel.h"

namespace allocsim {

namespace {

// The rate parameter's catalogue default: the interval the real system ships with.
std::optional<double> shipped_interval(const AdvisedScheme& scheme) {
  const SchemeDescriptor& descriptor = *scheme.descriptor;
  if (!descriptor.rate) return std::nullopt;
  const ParameterInfo* rate = find_parameter(descriptor.parameters, descriptor.rate->parameter);
  if (rate == nullptr || !rate->default_value.is_number()) return std::nullopt;
  return rate->default_value.get<double>();
}

}  // namespace

// The closed forms of different schemes run on different threads (Advisor allows
// it); each scheme's Monte Carlo check runs alone, on every thread. Every result
// lands in its scheme's place, so the advice does not depend on the thread count.
std::vector<SchemeAdvice> advise_schemes(Advisor& advisor, const AccuracyTargets& targets,
                                         const MonteCarloOptions& mc) {
  std::vector<SchemeAdvice> advice;
  for (const AdvisedScheme& scheme : advised_schemes()) {
    advice.push_back({scheme, std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  }
  const auto each_scheme = [&](const std::function<void(SchemeAdvice&)>& work) {
    parallel_for(advice.size(), mc.threads,
                 [&](std::size_t item, unsigned /*worker*/) { work(advice[advised_schemes_costliest_first()[item]]); },
                 {});
  };
  each_scheme([&](SchemeAdvice& a) {
    a.point = advisor.recommend(a.scheme);
    if (const auto shipped = shipped_interval(a.scheme)) a.shipped = advisor.evaluate(a.scheme, *shipped);
  });
  if (mc.replications > 0) {
    for (SchemeAdvice& a : advice) {
      if (!a.point) continue;
      a.checked = confirm_advice(advisor, a.scheme, *a.point, targets, mc);
      a.point = a.checked->point;
    }
  }
  each_scheme([&](SchemeAdvice& a) {
    if (a.point && a.point->meets) a.cliff = advisor.cliff_above(a.scheme, *a.point);
  });
  return advice;
}

namespace {

// An interval as it is set: bytes with a unit ("16 KiB", "14227 B"), or allocations.
std::string interval_text(const std::string& unit, double interval) {
  if (unit == "bytes") return bytes_exact(interval);
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", interval);
  return text;
}

std::string describe(const AccuracyTargets& t) {
  std::string text;
  char buffer[200];
  if (t.total_error) {
    std::snprintf(buffer, sizeof buffer, "total within +-%.4g%% at %.4g%% confidence", 100 * *t.total_error,
                  100 * t.confidence);
    text += buffer;
  }
  if (t.has_stack_targets()) {
    std::snprintf(buffer, sizeof buffer, "%sstacks holding >= %.4g%% of bytes:", text.empty() ? "" : "; ",
                  100 * t.stack_share);
    text += buffer;
    if (t.stack_mape) {
      std::snprintf(buffer, sizeof buffer, " MAPE <= %.4g%%", 100 * *t.stack_mape);
      text += buffer;
    }
    if (t.stack_seen) {
      std::snprintf(buffer, sizeof buffer, "%s seen with probability >= %.4g", t.stack_mape ? "," : "", *t.stack_seen);
      text += buffer;
    }
  }
  return text;
}

nlohmann::ordered_json point_json(const AdvicePoint& p) {
  auto gap = [](const OptimumGap& g) {
    return nlohmann::ordered_json{{"variance_ratio", g.ratio}, {"misplaced_samples", g.misplaced_samples}};
  };
  return {{"scheme", p.scheme},
          {"interval", p.interval},
          {"parameters", p.parameters},
          {"expected_samples", p.expected_samples},
          {"samples_per_mb", p.samples_per_mb},
          {"total_relative_rmse", p.total_relative_rmse},
          {"target_stacks", p.target_stacks},
          {"worst_stack_mape", p.worst_stack_mape},
          {"least_stack_seen", p.least_stack_seen},
          {"meets_targets", p.meets},
          {"versus_optimum",
           {{"allocated", gap(p.allocated_gap)}, {"live", gap(p.live_gap)}, {"stack", gap(p.stack_gap)}}}};
}

// The trace, the targets and how the choices were checked.
void print_header(std::FILE* out, const AdviceReport& report) {
  std::fprintf(out, "trace    %s: %zu allocations, %u stacks\n", report.trace.c_str(), report.allocations,
               report.stacks);
  std::fprintf(out, "targets  %s%s\n\n", describe(report.targets).c_str(),
               report.default_targets ? " (the defaults: set --total-error, --stack-mape, --stack-seen)" : "");
  std::fprintf(out,
               "largest interval meeting the targets (closed form, lowered by 10%% steps until Monte Carlo\n"
               "agrees within 3 standard errors; %llu replications, seed %llu)\n",
               static_cast<unsigned long long>(report.mc.replications),
               static_cast<unsigned long long>(report.mc.seed));
}

// One line per advised scheme: its closed-form choice, and the Monte Carlo check of it.
void print_advice_table(std::FILE* out, const std::vector<SchemeAdvice>& advice) {
  std::fprintf(out, "%-19s %12s %10s %10s %9s %9s %9s %8s | %9s %9s %9s %s\n", "scheme", "interval", "samples",
               "samples/MB", "tot.rRMSE", "stk.MAPE", "stk.seen", "var/opt", "MC rRMSE", "MC MAPE", "MC seen",
               "confirmed");
  for (const SchemeAdvice& a : advice) {
    if (!a.point) {
      std::fprintf(out, "%-19s  unreachable: even sampling every allocation misses a target\n", a.scheme.name.c_str());
      continue;
    }
    const AdvicePoint& p = *a.point;
    std::fprintf(out, "%-19s %12s %10.1f %10.2f %9.4f %9.4f %9.4f %8.3f", p.scheme.c_str(),
                 interval_text(a.scheme.unit, p.interval).c_str(), p.expected_samples, p.samples_per_mb,
                 p.total_relative_rmse, p.worst_stack_mape, p.least_stack_seen, p.allocated_gap.ratio);
    if (a.checked) {
      const MonteCarloCheck& c = a.checked->check;
      std::fprintf(out, " | %9.4f %9.4f %9.4f %s", c.total_relative_rmse, c.worst_stack_mape, c.least_stack_seen,
                   a.checked->confirmed ? "yes" : "NO");
      if (a.checked->closed_form_interval != p.interval) {
        std::fprintf(out, " (closed form said %s)",
                     interval_text(a.scheme.unit, a.checked->closed_form_interval).c_str());
      }
      std::fprintf(out, "\n");
    } else {
      std::fprintf(out, " |\n");
    }
  }
}

// What each choice means for the system that will run it: an interval it cannot
// be set to, a cliff just above the choice, and where its shipped default stands.
void print_settings(std::FILE* out, const std::vector<SchemeAdvice>& advice) {
  std::fprintf(out, "\n");
  for (const SchemeAdvice& a : advice) {
    const AdviceRule& rule = *a.scheme.descriptor->advice;
    const std::string& name = a.scheme.name;
    if (rule.fixed_interval && a.point) {
      std::fprintf(out, "%s: fixed at %s in the real system (it cannot be set): %s the targets there\n", name.c_str(),
                   interval_text(a.scheme.unit, *rule.fixed_interval).c_str(),
                   a.point->meets && (!a.checked || a.checked->confirmed) ? "meets" : "MISSES");
      continue;
    }
    if (rule.settable_at_most && a.point) {
      std::fprintf(out, "%s: rounded down to an interval the real system accepts (%s)\n", name.c_str(),
                   interval_text(a.scheme.unit, a.point->interval).c_str());
    }
    if (a.cliff) {
      std::fprintf(out,
                   "%s: a cliff just above: at %s the total error is %.3g%%, the worst stack's %.3g%% (here %.3g%% "
                   "and %.3g%%):\n  a size crosses a threshold that moves with the interval; a smaller one leaves a "
                   "margin\n",
                   name.c_str(), interval_text(a.scheme.unit, a.cliff->interval).c_str(),
                   100 * a.cliff->total_relative_rmse, 100 * a.cliff->worst_stack_mape,
                   100 * a.point->total_relative_rmse, 100 * a.point->worst_stack_mape);
    }
  }
  std::fprintf(out, "\nshipped defaults (closed form)\n%-19s %12s %10s %9s %9s %9s %s\n", "scheme", "interval",
               "samples", "tot.rRMSE", "stk.MAPE", "stk.seen", "targets");
  for (const SchemeAdvice& a : advice) {
    if (!a.shipped) continue;
    const AdvicePoint& p = *a.shipped;
    std::fprintf(out, "%-19s %12s %10.1f %9.4f %9.4f %9.4f %s\n", p.scheme.c_str(),
                 interval_text(a.scheme.unit, p.interval).c_str(), p.expected_samples, p.total_relative_rmse,
                 p.worst_stack_mape, p.least_stack_seen, p.meets ? "met" : "missed");
  }
}

// What the columns mean.
void print_legend(std::FILE* out, const AdviceReport& report) {
  const std::vector<SchemeAdvice>& advice = report.advice;
  std::fprintf(
      out,
      "\ninterval units: bytes (per-allocation: allocations); stk.*: over the %u stacks holding >= %.4g%% of bytes\n",
      advice.empty() || !advice.front().point ? 0u : advice.front().point->target_stacks,
      100 * report.targets.stack_share);
  std::fprintf(out,
               "var/opt: variance of the total / the optimal size-class design's at the same expected samples\n\n");
}

void print_frontier_table(std::FILE* out, const std::vector<AdvicePoint>& frontier) {
  std::fprintf(out, "accuracy-cost frontier (closed form)\n");
  std::fprintf(out, "%-19s %12s %10s %10s %9s %9s %9s %8s %8s %8s %8s\n", "scheme", "interval", "samples", "samples/MB",
               "tot.rRMSE", "stk.MAPE", "stk.seen", "var/opt", "live/opt", "stk/opt", "misplcd");
  for (const AdvicePoint& p : frontier) {
    std::fprintf(out, "%-19s %12.0f %10.1f %10.2f %9.4f %9.4f %9.4f %8.3f %8.3f %8.3f %8.3f\n", p.scheme.c_str(),
                 p.interval, p.expected_samples, p.samples_per_mb, p.total_relative_rmse, p.worst_stack_mape,
                 p.least_stack_seen, p.allocated_gap.ratio, p.live_gap.ratio, p.stack_gap.ratio,
                 p.allocated_gap.misplaced_samples);
  }
}

void print_text(std::FILE* out, const AdviceReport& report) {
  print_header(out, report);
  print_advice_table(out, report.advice);
  print_settings(out, report.advice);
  print_legend(out, report);
  print_frontier_table(out, report.frontier);
}

nlohmann::ordered_json targets_json(const AccuracyTargets& t) {
  return {{"total_error", t.total_error ? nlohmann::json(*t.total_error) : nlohmann::json()},
          {"confidence", t.confidence},
          {"stack_share", t.stack_share},
          {"stack_mape", t.stack_mape ? nlohmann::json(*t.stack_mape) : nlohmann::json()},
          {"stack_seen", t.stack_seen ? nlohmann::json(*t.stack_seen) : nlohmann::json()}};
}

nlohmann::ordered_json check_json(const ConfirmedAdvice& checked) {
  const MonteCarloCheck& c = checked.check;
  return {{"closed_form_interval", checked.closed_form_interval},
          {"total_relative_rmse", c.total_relative_rmse},
          {"se_total_relative_rmse", c.se_total_relative_rmse},
          {"target_stacks", c.target_stacks},
          {"worst_stack_mape", c.worst_stack_mape},
          {"se_worst_stack_mape", c.se_worst_stack_mape},
          {"least_stack_seen", c.least_stack_seen},
          {"se_least_stack_seen", c.se_least_stack_seen},
          {"confirmed", checked.confirmed}};
}

nlohmann::ordered_json recommendation_json(const SchemeAdvice& a) {
  nlohmann::ordered_json entry = {{"scheme", a.scheme.name}, {"unit", a.scheme.unit}};
  if (!a.point) {
    entry["reachable"] = false;
    return entry;
  }
  entry["reachable"] = true;
  entry["closed_form"] = point_json(*a.point);
  if (a.checked) entry["monte_carlo"] = check_json(*a.checked);
  if (a.cliff) entry["cliff_above"] = point_json(*a.cliff);
  if (a.shipped) entry["shipped_default"] = point_json(*a.shipped);
  return entry;
}

}  // namespace

nlohmann::ordered_json advice_json(const AdviceReport& report) {
  const MonteCarloOptions& mc = report.mc;
  nlohmann::ordered_json out;
  out["trace"] = report.trace;
  out["targets"] = targets_json(report.targets);
  out["default_targets"] = report.default_targets;
  out["monte_carlo"] = {{"replications", mc.replications}, {"seed", mc.seed}, {"sigmas", mc.sigmas}};
  out["recommendations"] = nlohmann::ordered_json::array();
  for (const SchemeAdvice& a : report.advice) out["recommendations"].push_back(recommendation_json(a));
  out["frontier"] = nlohmann::ordered_json::array();
  for (const AdvicePoint& p : report.frontier) out["frontier"].push_back(point_json(p));
  return out;
}

std::string advice_text(const AdviceReport& report) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = ::open_memstream(&buffer, &size);
  if (out == nullptr) throw std::runtime_error("advise: cannot allocate the report");
  print_text(out, report);
  std::fclose(out);
  std::string text(buffer, size);
  std::free(buffer);
  return text;
}

std::string frontier_csv(const std::vector<AdvicePoint>& frontier) {
  std::string csv =
      "scheme,interval,expected_samples,samples_per_mb,total_relative_rmse,target_stacks,worst_stack_mape,"
      "least_stack_seen,meets_targets,variance_ratio_allocated,variance_ratio_live,variance_ratio_stack,"
      "misplaced_samples_allocated\n";
  for (const AdvicePoint& p : frontier) {
    csv += csv_field(p.scheme);
    for (const double v :
         {p.interval, p.expected_samples, p.samples_per_mb, p.total_relative_rmse, static_cast<double>(p.target_stacks),
          p.worst_stack_mape, p.least_stack_seen, p.meets ? 1.0 : 0.0, p.allocated_gap.ratio, p.live_gap.ratio,
          p.stack_gap.ratio, p.allocated_gap.misplaced_samples}) {
      csv += ',';
      csv += format_number(v);
    }
    csv += "\n";
  }
  return csv;
}

std::string probability_curves_csv(const std::vector<ProbabilityCurve>& curves) {
  std::string csv = "curve,interval,size,probability\n";
  for (const ProbabilityCurve& c : curves) {
    for (std::size_t k = 0; k < c.sizes.size(); ++k) {
      if (c.sizes[k] == 0 || c.probability[k] <= 0) continue;
      csv += csv_field(c.label) + "," + format_number(c.interval) + "," +
             format_number(static_cast<double>(c.sizes[k])) + "," + format_number(c.probability[k]) + "\n";
    }
  }
  return csv;
}

}  // namespace allocsim
