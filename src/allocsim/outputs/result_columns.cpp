#include "allocsim/outputs/result_columns.h"

#include "allocsim/format/csv.h"

namespace allocsim {
namespace {

// The fixed columns of each result file, after the sweep variables.
std::vector<std::string> fixed_columns(ResultSource source) {
  switch (source) {
    case ResultSource::metrics:
      return {"scheme", "estimator", "group_kind", "group", "replications", "truth", "mean", "bias",
              "rel_bias", "sd", "se_bias", "rmse", "mape", "cmape", "p_any_sample", "var", "se_var",
              "se_mape", "se_cmape", "se_p_any_sample", "replications_with_sample", "theory_bias",
              "theory_var", "theory_mape", "theory_cmape", "theory_p_any_sample"};
    case ResultSource::intervals:
      return {"scheme", "estimator", "interval", "level", "group_kind", "group", "replications", "truth",
              "coverage", "se_coverage", "miss_low", "miss_high", "mean_width", "rel_width"};
    case ResultSource::profiles:
      return {"scheme", "estimator", "group_kind", "groups", "replications", "mean_distance", "se_distance",
              "mean_groups_seen"};
  }
  return {};
}

}  // namespace

const char* file_name(ResultSource source) {
  switch (source) {
    case ResultSource::metrics: return "metrics.csv";
    case ResultSource::intervals: return "intervals.csv";
    case ResultSource::profiles: return "profiles.csv";
  }
  return "";
}

std::optional<ResultSource> parse_result_source(std::string_view name) {
  if (name == "metrics") return ResultSource::metrics;
  if (name == "intervals") return ResultSource::intervals;
  if (name == "profiles") return ResultSource::profiles;
  return std::nullopt;
}

std::vector<std::string> result_columns(ResultSource source, const std::vector<std::string>& sweep_names) {
  std::vector<std::string> columns = sweep_names;
  for (std::string& column : fixed_columns(source)) columns.push_back(std::move(column));
  return columns;
}

std::string result_header(ResultSource source, const std::vector<std::string>& sweep_names) {
  std::string header;
  for (const std::string& column : result_columns(source, sweep_names)) {
    if (!header.empty()) header += ',';
    header += csv_field(column);
  }
  return header + "\n";
}

}  // namespace allocsim
