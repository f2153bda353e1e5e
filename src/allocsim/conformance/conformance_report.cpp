#include "allocsim/conformance/conformance_report.h"

#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "allocsim/format/csv.h"
#include "allocsim/report/gnuplot_chart.h"
#include "allocsim/trace/format/csv_trace.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/staged_directory.h"

namespace fs = std::filesystem;

namespace allocsim {
namespace {

// `text` as a gzip stream (the trace readers detect and inflate it).
std::string gzip(const std::string& text) {
  z_stream z{};
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("zlib: deflateInit2 failed");
  }
  std::string out(deflateBound(&z, text.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&z, Z_FINISH);
  deflateEnd(&z);
  if (status != Z_STREAM_END) throw std::runtime_error("zlib: deflate failed");
  out.resize(z.total_out);
  return out;
}

std::string optional_number(const std::optional<double>& value) { return value ? format_number(*value) : ""; }

std::string join(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + fields[i];
  return line + "\n";
}

const std::vector<std::string> kSiteColumns = {"system",
                                               "site",
                                               "allocations",
                                               "model_count",
                                               "observed_count",
                                               "se_observed_count",
                                               "z_count",
                                               "model_count_var",
                                               "observed_count_var",
                                               "z_count_var",
                                               "model_p",
                                               "observed_p",
                                               "count_p",
                                               "truth",
                                               "model_estimate",
                                               "model_estimate_sd",
                                               "observed_estimate",
                                               "se_observed_estimate",
                                               "z_estimate",
                                               "observed_bias",
                                               "count_ratio",
                                               "se_count_ratio",
                                               "theory_ratio"};

std::vector<std::string> site_fields(const ConformanceResult& result, const SiteRow& row) {
  const bool ratio = row.model_count > 0;
  std::optional<double> bias;
  if (row.observed_estimate && row.truth > 0) bias = *row.observed_estimate / row.truth - 1;
  return {result.system->name,
          csv_field(row.site),
          format_number(row.allocations),
          format_number(row.model_count),
          format_number(row.observed_count),
          format_number(row.se_observed_count),
          format_number(row.z_count),
          format_number(row.model_count_var),
          format_number(row.observed_count_var),
          optional_number(row.z_count_var),
          format_number(row.model_p),
          format_number(row.observed_p),
          format_number(row.count_p),
          format_number(row.truth),
          format_number(row.model_estimate),
          format_number(row.model_estimate_sd),
          optional_number(row.observed_estimate),
          optional_number(row.se_observed_estimate),
          optional_number(row.z_estimate),
          optional_number(bias),
          ratio ? format_number(row.observed_count / row.model_count) : "",
          ratio ? format_number(row.se_observed_count / row.model_count) : "",
          "1"};
}

void write_chart(const ConformanceResult& result, const std::string& out_dir) {
  CsvTable table;
  table.columns = kSiteColumns;
  for (const SiteRow& row : result.comparison.rows) {
    if (row.model_count <= 0 || row.observed_count <= 0) continue;
    table.rows.push_back(site_fields(result, row));
  }
  ChartSpec spec;
  spec.path = "conformance " + result.system->name;
  spec.name = "count-ratio";
  spec.title = result.system->name + ": sampled allocations per site, real / model (" +
               std::to_string(result.counts.size()) + " runs)";
  spec.x = {"model_count", "model mean of sampled allocations per run", Unit::none, true, 1, {}, {}};
  spec.y = {"count_ratio", "real mean / model mean (log scale)", Unit::none, true, 1, {}, {}};
  spec.error = "se_count_ratio";
  spec.theory = "theory_ratio";
  spec.points_title = "real " + result.system->name;
  spec.theory_title = "model (" + result.system->scheme + ")";
  spec.join_points = false;
  for (const TestResult& t : result.comparison.tests) {  // name the sites whose mean count failed
    if (!t.failed || t.name.rfind("count", 0) != 0 || t.name == "count_var") continue;
    for (const SiteRow& row : result.comparison.rows) {
      if (row.site != t.site || row.model_count <= 0 || row.observed_count <= 0) continue;
      spec.references.push_back({row.model_count, row.observed_count / row.model_count, row.site, std::nullopt});
    }
  }
  render_chart(spec, table, out_dir, "sites.csv", out_dir);
}

// A table cell: `value` in `format`, or "-" where the value does not exist (a site
// with no samples has no estimate; a count with no variance has no z_var).
std::string cell_or_dash(const char* format, const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return "-";
  char cell[64];
  std::snprintf(cell, sizeof cell, format, *value);
  return cell;
}

}  // namespace

void write_conformance_results(const ConformanceResult& result, const ConformanceOptions& options,
                               const std::string& results_dir, bool chart) {
  // Replaced whole, as a scenario's results directory (util/staged_directory.h).
  StagedDirectory staged(results_dir, {}, "conformance " + result.system->name, "--out");
  const std::string& out_dir = staged.path();
  std::string sites = join(kSiteColumns);
  for (const SiteRow& row : result.comparison.rows) sites += join(site_fields(result, row));

  std::string tests = "test,site,statistic,p_value,threshold,failed\n";
  for (const TestResult& t : result.comparison.tests) {
    tests += join({t.name, csv_field(t.site), format_number(t.statistic), format_number(t.p_value),
                   format_number(result.comparison.threshold), t.failed ? "1" : "0"});
  }

  std::string runs = "run,site,sampled,estimate\n";
  for (std::size_t r = 0; r < result.counts.size(); ++r) {
    for (std::size_t s = 0; s < result.plan.sites.size(); ++s) {
      runs += join({std::to_string(r), result.plan.sites[s].name, format_number(result.counts[r][s]),
                    r < result.estimates.size() ? format_number(result.estimates[r][s]) : ""});
    }
  }

  nlohmann::json summary = {
      {"system", result.system->name},
      {"summary", result.system->summary},
      {"version", result.version},
      {"rate", result.plan.rate},
      {"runs", result.counts.size()},
      {"plan_scale", options.plan_scale},
      {"model",
       {{"scheme", result.system->scheme},
        {"parameters", result.scheme_parameters},
        {"estimator", result.system->estimator},
        {"closed_form_counts", result.model.closed_form_counts},
        {"closed_form_estimates", result.model.closed_form_estimates},
        {"monte_carlo_replications", result.model.replications},
        {"seed", options.seed}}},
      {"alpha", result.comparison.alpha},
      {"bonferroni_threshold", result.comparison.threshold},
      {"tests", result.comparison.tests.size()},
      {"failed_tests", std::count_if(result.comparison.tests.begin(), result.comparison.tests.end(),
                                     [](const TestResult& t) { return t.failed; })},
      {"distinct_runs", result.distinct_runs},
      {"repeated_runs_expected", result.system->repeated_runs_expected},
      {"sizes_checked", result.sizes_checked},
      {"size_mismatches", result.size_mismatches},
      {"sample_sizes_checked", result.sample_sizes_checked},
      {"sample_size_mismatches", result.sample_size_mismatches},
      {"unexplained_samples", result.unexplained},
      {"passed", result.passed},
  };
  write_file_atomically((fs::path(out_dir) / "sites.csv").string(), sites);
  write_file_atomically((fs::path(out_dir) / "tests.csv").string(), tests);
  write_file_atomically((fs::path(out_dir) / "runs.csv").string(), runs);
  write_file_atomically((fs::path(out_dir) / "plan.txt").string(), encode_plan(result.plan));
  write_file_atomically((fs::path(out_dir) / "trace.csv.gz").string(), gzip(encode_csv_trace(result.trace)));
  if (chart) write_chart(result, out_dir);
  write_file_atomically((fs::path(out_dir) / "summary.json").string(), json_text(summary, 2) + "\n");
  staged.commit();
}

std::string verdict_table(const ConformanceResult& result) {
  const Comparison& c = result.comparison;
  char line[512];
  std::string out = result.system->name + " " + result.version + ", rate " + std::to_string(result.plan.rate) + ", " +
                    std::to_string(result.counts.size()) + " runs; model " + result.system->scheme + " (" +
                    (result.model.closed_form_counts ? "closed form" : "Monte Carlo") + ")\n";
  std::snprintf(line, sizeof line, "%-8s %8s %10s %10s %7s %8s %8s %8s %8s\n", "site", "allocs", "model", "real", "z",
                "z_var", "p_alloc", "est_bias", "z_est");
  out += line;
  for (const SiteRow& row : c.rows) {
    std::optional<double> bias;
    if (row.observed_estimate && row.truth > 0) bias = 100 * (*row.observed_estimate / row.truth - 1);
    std::snprintf(line, sizeof line, "%-8s %8.0f %10.3f %10.3f %7.2f %8s %8.5f %8s %8s\n", row.site.c_str(),
                  row.allocations, row.model_count, row.observed_count, row.z_count,
                  cell_or_dash("%.2f", row.z_count_var).c_str(), row.observed_p, cell_or_dash("%+.1f%%", bias).c_str(),
                  cell_or_dash("%.2f", row.z_estimate).c_str());
    out += line;
  }
  std::size_t failed = 0;
  for (const TestResult& t : c.tests) failed += t.failed;
  std::snprintf(line, sizeof line,
                "%zu tests at family-wise false-alarm rate %g (each p < %.2g fails): %zu failed; "
                "%llu of %zu runs distinct; allocator sizes different from the model's: %llu of %llu "
                "planned, %llu of %llu sampled\n",
                c.tests.size(), c.alpha, c.threshold, failed, static_cast<unsigned long long>(result.distinct_runs),
                result.counts.size(), static_cast<unsigned long long>(result.size_mismatches),
                static_cast<unsigned long long>(result.sizes_checked),
                static_cast<unsigned long long>(result.sample_size_mismatches),
                static_cast<unsigned long long>(result.sample_sizes_checked));
  out += line;
  if (result.distinct_runs < result.counts.size() && !result.system->repeated_runs_expected.empty()) {
    out += "  repeated runs are expected: " + result.system->repeated_runs_expected + "\n";
  }
  for (const TestResult& t : c.tests) {
    if (!t.failed) continue;
    std::snprintf(line, sizeof line, "  FAILED %s %s: statistic %.3g, p = %.3g\n", t.name.c_str(), t.site.c_str(),
                  t.statistic, t.p_value);
    out += line;
  }
  for (const std::string& u : result.unexplained) out += "  unexplained sample: " + u + "\n";
  out += result.passed ? "PASS\n" : "FAIL\n";
  return out;
}

}  // namespace allocsim
