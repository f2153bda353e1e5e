// `allocsim advise TRACE`: the largest sampling interval per scheme that meets
// the accuracy targets a user states, from closed forms, confirmed by Monte Carlo,
// with the accuracy-cost frontier and each scheme's distance from the optimal
// size-class design (design/advisor.h).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "allocsim/advice/advice_check.h"
#include "allocsim/advice/advisor.h"
#include "allocsim/advice/probability_curves.h"
#include "allocsim/format/csv.h"
#include "allocsim/format/csv_reader.h"
#include "allocsim/json/json_reader.h"
#include "allocsim/report/chart_data.h"
#include "allocsim/report/gnuplot_runner.h"
#include "allocsim/report/gnuplot_script.h"
#include "allocsim/scenario/replication_limits.h"
#include "allocsim/trace/trace_source.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/output_path.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/parallel.h"
#include "allocsim/util/staged_directory.h"
#include "commands.h"
#include "flag_checks.h"
#include "trace_argument.h"

namespace allocsim::cli {
namespace {

namespace fs = std::filesystem;

struct AdviseOptions {
  std::string trace;
  std::optional<double> total_error, stack_mape, stack_seen;
  double confidence = 0.95;
  double stack_share = 0.01;
  std::uint64_t replications = 1000;
  std::uint64_t seed = 1;
  std::string out;
  double curve_samples_per_mb = 100;
  bool json = false;
};

// The TRACE argument (trace_argument.h) as a trace source.
TraceSource read_source(const std::string& path) {
  const nlohmann::json json = trace_argument(path);
  JsonObject object(json, path + ": $");
  return parse_trace_source(object, "");
}

// The flags' values were checked as they were read (open_fraction).
AccuracyTargets targets_of(const AdviseOptions& o) {
  if (!o.total_error && !o.stack_mape && !o.stack_seen) {
    throw InputError("no target: give --total-error, --stack-mape or --stack-seen");
  }
  return {o.total_error, o.confidence, o.stack_share, o.stack_mape, o.stack_seen};
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
      std::snprintf(buffer, sizeof buffer, "%s seen with probability >= %.4g", t.stack_mape ? "," : "",
                    *t.stack_seen);
      text += buffer;
    }
  }
  return text;
}

struct Advice {
  AdvisedScheme scheme;
  std::optional<AdvicePoint> point;       // the closed forms' choice, lowered if Monte Carlo disagreed
  std::optional<ConfirmedAdvice> checked;  // absent without Monte Carlo
};

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
          {"versus_optimum", {{"allocated", gap(p.allocated_gap)}, {"live", gap(p.live_gap)}, {"stack", gap(p.stack_gap)}}}};
}

nlohmann::ordered_json advice_json(const std::string& trace, const AccuracyTargets& t, const std::vector<Advice>& advice,
                                   const std::vector<AdvicePoint>& frontier, const MonteCarloOptions& mc) {
  nlohmann::ordered_json out;
  out["trace"] = trace;
  out["targets"] = {{"total_error", t.total_error ? nlohmann::json(*t.total_error) : nlohmann::json()},
                    {"confidence", t.confidence},
                    {"stack_share", t.stack_share},
                    {"stack_mape", t.stack_mape ? nlohmann::json(*t.stack_mape) : nlohmann::json()},
                    {"stack_seen", t.stack_seen ? nlohmann::json(*t.stack_seen) : nlohmann::json()}};
  out["monte_carlo"] = {{"replications", mc.replications}, {"seed", mc.seed}, {"sigmas", mc.sigmas}};
  out["recommendations"] = nlohmann::ordered_json::array();
  for (const Advice& a : advice) {
    nlohmann::ordered_json entry = {{"scheme", a.scheme.name}, {"unit", a.scheme.unit}};
    if (!a.point) {
      entry["reachable"] = false;
    } else {
      entry["reachable"] = true;
      entry["closed_form"] = point_json(*a.point);
      if (a.checked) {
        const MonteCarloCheck& c = a.checked->check;
        entry["monte_carlo"] = {{"closed_form_interval", a.checked->closed_form_interval},
                                {"total_relative_rmse", c.total_relative_rmse},
                                {"se_total_relative_rmse", c.se_total_relative_rmse},
                                {"target_stacks", c.target_stacks},
                                {"worst_stack_mape", c.worst_stack_mape},
                                {"se_worst_stack_mape", c.se_worst_stack_mape},
                                {"least_stack_seen", c.least_stack_seen},
                                {"se_least_stack_seen", c.se_least_stack_seen},
                                {"confirmed", a.checked->confirmed}};
      }
    }
    out["recommendations"].push_back(std::move(entry));
  }
  out["frontier"] = nlohmann::ordered_json::array();
  for (const AdvicePoint& p : frontier) out["frontier"].push_back(point_json(p));
  return out;
}

void print_text(std::FILE* out, const std::string& trace, const Trace& t, const AccuracyTargets& targets,
                const std::vector<Advice>& advice, const std::vector<AdvicePoint>& frontier, const MonteCarloOptions& mc) {
  std::fprintf(out, "trace    %s: %zu allocations, %u stacks\n", trace.c_str(), t.size(), t.stack_count);
  std::fprintf(out, "targets  %s\n\n", describe(targets).c_str());
  std::fprintf(out, "largest interval meeting the targets (closed form, lowered by 10%% steps until Monte Carlo\n"
              "agrees within 3 standard errors; %llu replications, seed %llu)\n",
              static_cast<unsigned long long>(mc.replications), static_cast<unsigned long long>(mc.seed));
  std::fprintf(out, "%-19s %12s %10s %10s %9s %9s %9s %8s | %9s %9s %9s %s\n", "scheme", "interval", "samples", "samples/MB",
              "tot.rRMSE", "stk.MAPE", "stk.seen", "var/opt", "MC rRMSE", "MC MAPE", "MC seen", "confirmed");
  for (const Advice& a : advice) {
    if (!a.point) {
      std::fprintf(out, "%-19s  unreachable: even sampling every allocation misses a target\n", a.scheme.name.c_str());
      continue;
    }
    const AdvicePoint& p = *a.point;
    std::fprintf(out, "%-19s %12.0f %10.1f %10.2f %9.4f %9.4f %9.4f %8.3f", p.scheme.c_str(), p.interval, p.expected_samples,
                p.samples_per_mb, p.total_relative_rmse, p.worst_stack_mape, p.least_stack_seen, p.allocated_gap.ratio);
    if (a.checked) {
      const MonteCarloCheck& c = a.checked->check;
      std::fprintf(out, " | %9.4f %9.4f %9.4f %s", c.total_relative_rmse, c.worst_stack_mape, c.least_stack_seen,
                  a.checked->confirmed ? "yes" : "NO");
      if (a.checked->closed_form_interval != p.interval) {
        std::fprintf(out, " (closed form said %.0f)", a.checked->closed_form_interval);
      }
      std::fprintf(out, "\n");
    } else {
      std::fprintf(out, " |\n");
    }
  }
  std::fprintf(out, "\ninterval units: bytes (per-allocation: allocations); stk.*: over the %u stacks holding >= %.4g%% of bytes\n",
              advice.empty() || !advice.front().point ? 0u : advice.front().point->target_stacks, 100 * targets.stack_share);
  std::fprintf(out, "var/opt: variance of the total / the optimal size-class design's at the same expected samples\n\n");
  std::fprintf(out, "accuracy-cost frontier (closed form)\n");
  std::fprintf(out, "%-19s %12s %10s %10s %9s %9s %9s %8s %8s %8s %8s\n", "scheme", "interval", "samples", "samples/MB",
              "tot.rRMSE", "stk.MAPE", "stk.seen", "var/opt", "live/opt", "stk/opt", "misplcd");
  for (const AdvicePoint& p : frontier) {
    std::fprintf(out, "%-19s %12.0f %10.1f %10.2f %9.4f %9.4f %9.4f %8.3f %8.3f %8.3f %8.3f\n", p.scheme.c_str(), p.interval,
                p.expected_samples, p.samples_per_mb, p.total_relative_rmse, p.worst_stack_mape, p.least_stack_seen,
                p.allocated_gap.ratio, p.live_gap.ratio, p.stack_gap.ratio, p.allocated_gap.misplaced_samples);
  }
}

// print_text's report as a string: printed, and kept as advice.txt under --out.
std::string text_report(const std::string& trace, const Trace& t, const AccuracyTargets& targets,
                        const std::vector<Advice>& advice, const std::vector<AdvicePoint>& frontier,
                        const MonteCarloOptions& mc) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = ::open_memstream(&buffer, &size);
  if (out == nullptr) throw std::runtime_error("advise: cannot allocate the report");
  print_text(out, trace, t, targets, advice, frontier, mc);
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
    for (const double v : {p.interval, p.expected_samples, p.samples_per_mb, p.total_relative_rmse,
                           static_cast<double>(p.target_stacks), p.worst_stack_mape, p.least_stack_seen,
                           p.meets ? 1.0 : 0.0, p.allocated_gap.ratio, p.live_gap.ratio, p.stack_gap.ratio,
                           p.allocated_gap.misplaced_samples}) {
      csv += ',';
      csv += format_number(v);
    }
    csv += "\n";
  }
  return csv;
}

struct ChartColumns {
  std::string x, x_label;
  Unit x_unit = Unit::none;
  std::string y, y_label;
  bool log_y = true;
  std::string series;
};

// One chart of a CSV `file` in `dir`: y against x (log), a line per series value.
void render_chart_of(const CsvTable& table, const std::string& dir, const std::string& file, const std::string& name,
                     const std::string& title, const ChartColumns& columns) {
  ChartSpec spec;
  spec.path = "advise";
  spec.name = name;
  spec.title = title;
  spec.x.column = columns.x;
  spec.x.label = columns.x_label;
  spec.x.unit = columns.x_unit;
  spec.x.log = true;
  spec.y.column = columns.y;
  spec.y.label = columns.y_label;
  spec.y.log = columns.log_y;
  spec.series = {columns.series};
  spec.points_title = "closed form";
  spec.join_points = true;
  spec.legend = LegendPosition::outside;
  const fs::path charts = fs::path(dir) / "charts";
  create_output_directory(charts.string());
  const ChartData data = chart_data(spec, table, (fs::path(dir) / file).string());
  write_file_atomically((charts / (name + ".dat")).string(), gnuplot_data(data));
  write_file_atomically((charts / (name + ".gp")).string(), gnuplot_script(spec, data, name + ".dat", "../" + file));
  run_gnuplot(charts.string(), "png_file = '" + name + ".png'; svg_file = '" + name + ".svg'", name + ".gp");
}

// Sizes and probabilities of the curves; size 0 and probability 0 (never
// sampled) are left out of the log-log chart.
std::string curves_csv(const std::vector<ProbabilityCurve>& curves) {
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

// Every chart's title begins with `subject`, the trace's file name.
void write_outputs(const std::string& dir, const std::string& subject, const nlohmann::ordered_json& json,
                   const std::string& text,
                   const std::vector<AdvicePoint>& frontier, const std::vector<ProbabilityCurve>& curves,
                   double curve_samples) {
  const std::string csv = frontier_csv(frontier), curves_text = curves_csv(curves);
  write_file_atomically((fs::path(dir) / "frontier.csv").string(), csv);
  write_file_atomically((fs::path(dir) / "probability-curves.csv").string(), curves_text);
  write_file_atomically((fs::path(dir) / "advice.json").string(), json_text(json, 2) + "\n");
  write_file_atomically((fs::path(dir) / "advice.txt").string(), text);
  const CsvTable table = parse_csv(csv, dir + "/frontier.csv");
  const std::string per_mb = "expected samples per MB";
  render_chart_of(table, dir, "frontier.csv", "frontier", subject + ": accuracy-cost frontier, error of the total vs samples",
                  {"samples_per_mb", per_mb, Unit::none, "total_relative_rmse", "relative RMSE of the total", true, "scheme"});
  render_chart_of(table, dir, "frontier.csv", "versus-optimum",
                  subject + ": variance of the total / the optimal size-class design's",
                  {"samples_per_mb", per_mb, Unit::none, "variance_ratio_allocated",
                   "variance / optimum at the same expected samples", true, "scheme"});
  render_chart_of(table, dir, "frontier.csv", "misplaced-samples",
                  subject + ": share of samples spent off the optimal p_Z curve",
                  {"samples_per_mb", per_mb, Unit::none, "misplaced_samples_allocated",
                   "(1/2) sum a_Z |p_Z - p*_Z| / P", false, "scheme"});
  char title[120];
  std::snprintf(title, sizeof title, ": P(sampled) by size at %.0f expected samples, and the optimum's", curve_samples);
  render_chart_of(parse_csv(curves_text, dir + "/probability-curves.csv"), dir, "probability-curves.csv",
                  "probability-curves", subject + title,
                  {"size", "requested size", Unit::bytes, "probability", "P(sampled)", true, "curve"});
}

void run_advise(const AdviseOptions& o) {
  const AccuracyTargets targets = targets_of(o);
  if (o.replications == 1) {
    throw InputError("--replications: give 0 (no Monte Carlo) or at least 2: one replication has no standard error");
  }
  if (!o.out.empty()) check_results_directory(o.out, InputPaths{o.trace}, "--out");
  const TraceSource source = read_source(o.trace);
  const Trace trace = load_trace(source, o.seed);
  if (std::all_of(trace.requested.begin(), trace.requested.end(), [](std::uint64_t s) { return s == 0; })) {
    throw InputError(o.trace + ": no bytes allocated");
  }
  // Every core: the check's result does not depend on the thread count.
  const MonteCarloOptions mc{
      .replications = o.replications, .seed = o.seed, .sigmas = 3, .threads = default_thread_count()};
  Advisor advisor(trace, targets);
  std::vector<Advice> advice;
  for (const AdvisedScheme& scheme : advised_schemes()) {
    Advice a{scheme, advisor.recommend(scheme), std::nullopt};
    if (a.point && o.replications > 0) {
      a.checked = confirm_advice(advisor, scheme, *a.point, targets, mc);
      a.point = a.checked->point;
    }
    advice.push_back(std::move(a));
  }
  const std::vector<AdvicePoint> frontier = advisor.frontier();
  const nlohmann::ordered_json json = advice_json(o.trace, targets, advice, frontier, mc);
  const std::string text = text_report(o.trace, trace, targets, advice, frontier, mc);
  if (!o.out.empty()) {
    const double curve_samples = o.curve_samples_per_mb * advisor.trace_bytes() / 1e6;
    // Replaced whole, as a results directory: an error or an interrupt leaves the old one.
    StagedDirectory staged(o.out, InputPaths{o.trace}, "advise " + fs::path(o.trace).filename().string(), "--out");
    write_outputs(staged.path(), fs::path(o.trace).filename().string(), json, text, frontier,
                  probability_curves(advisor, curve_samples), curve_samples);
    staged.commit();
  }
  if (o.json) {
    std::cout << json_text(json, 2) << '\n';
  } else {
    std::fputs(text.c_str(), stdout);
  }
}

}  // namespace

void add_advise_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<AdviseOptions>();
  CLI::App* command = app.add_subcommand(
      "advise", "largest sampling interval per scheme that meets accuracy targets on a trace, and the frontier");
  command->add_option("TRACE", o->trace, "trace file (any format allocsim reads) or a JSON trace object")->required();
  command->add_option("--total-error", o->total_error, "target: total bytes within +-e (a fraction, e.g. 0.02)")
      ->check(open_fraction());
  command->add_option("--confidence", o->confidence, "confidence of the total target")
      ->capture_default_str()
      ->check(open_fraction());
  command->add_option("--stack-share", o->stack_share, "stack targets apply to stacks holding >= this fraction of bytes")
      ->capture_default_str()
      ->check(open_fraction());
  command->add_option("--stack-mape", o->stack_mape, "target: MAPE of each such stack <= m (a fraction)")
      ->check(open_fraction());
  command->add_option("--stack-seen", o->stack_seen, "target: each such stack seen with probability >= q")
      ->check(open_fraction());
  command->add_option("--replications", o->replications, "Monte Carlo replications to confirm each choice (0: none, else at least 2)")
      ->capture_default_str()
      ->check(whole_number(0, kMaxReplications));
  command->add_option("--seed", o->seed, "Monte Carlo seed (and a synthetic trace's, unless it fixes one)")
      ->capture_default_str()
      ->check(seed_number());
  command->add_option("--out", o->out,
                      "write advice.json, advice.txt, frontier.csv, probability-curves.csv and charts/ into this directory\n(replaced whole; allocsim replaces only a directory it wrote)");
  command->add_option("--curve-samples-per-mb", o->curve_samples_per_mb,
                      "--out: the expected samples (per MB of requests) the probability curves are drawn at")
      ->capture_default_str()
      ->check(positive_number());
  command->add_flag("--json", o->json, "print JSON");
  command->callback([o, &exit_code] {
    handle_interrupts();
    run_advise(*o);
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
