// The columns of metrics.csv, intervals.csv, profiles.csv and estimates.csv.
#include "allocsim/stats/result_tables.h"

namespace allocsim {
namespace {

Cell cell(const std::string& text) { return std::string_view(text); }
Cell cell(std::string_view text) { return text; }
Cell cell(GroupKind kind) { return std::string_view(to_string(kind)); }
Cell cell(std::uint64_t count) { return count; }
Cell cell(std::uint32_t count) { return std::uint64_t{count}; }
Cell cell(double number) { return number; }
Cell cell(const std::optional<double>& number) { return number; }

// Getters by member: of the row, of its metrics, of its metrics' closed forms.
template <auto Member, class Row>
Cell field(const Row& row) {
  return cell(row.*Member);
}
template <auto Member, class Row>
Cell metric(const Row& row) {
  return cell(row.metrics.*Member);
}
template <auto Member>
Cell theory(const MetricRow& row) {
  return cell(row.metrics.theory.*Member);
}

constexpr bool kKey = true;

const ResultColumn<MetricRow> kMetricColumns[] = {
    {"scheme", field<&MetricRow::scheme>, kKey},
    {"estimator", field<&MetricRow::estimator>, kKey},
    {"group_kind", field<&MetricRow::group_kind>, kKey},
    {"group", field<&MetricRow::group>, kKey},
    {"replications", metric<&Metrics::replications>},
    {"truth", metric<&Metrics::truth>},
    {"mean", metric<&Metrics::mean>},
    {"bias", metric<&Metrics::bias>},
    {"rel_bias", metric<&Metrics::rel_bias>},
    {"sd", metric<&Metrics::sd>},
    {"se_bias", metric<&Metrics::se_bias>},
    {"rmse", metric<&Metrics::rmse>},
    {"mape", metric<&Metrics::mape>},
    {"cmape", metric<&Metrics::cmape>},
    {"p_any_sample", metric<&Metrics::p_any_sample>},
    {"var", metric<&Metrics::var>},
    {"se_var", metric<&Metrics::se_var>},
    {"se_mape", metric<&Metrics::se_mape>},
    {"se_cmape", metric<&Metrics::se_cmape>},
    {"se_p_any_sample", metric<&Metrics::se_p_any_sample>},
    {"replications_with_sample", metric<&Metrics::replications_with_sample>},
    {"theory_bias", theory<&TheoryValues::bias>},
    {"theory_var", theory<&TheoryValues::var>},
    {"theory_mape", theory<&TheoryValues::mape>},
    {"theory_cmape", theory<&TheoryValues::cmape>},
    {"theory_p_any_sample", theory<&TheoryValues::p_any_sample>},
};

const ResultColumn<IntervalRow> kIntervalColumns[] = {
    {"scheme", field<&IntervalRow::scheme>, kKey},
    {"estimator", field<&IntervalRow::estimator>, kKey},
    {"interval", field<&IntervalRow::interval>, kKey},
    {"level", metric<&IntervalMetrics::level>},
    {"group_kind", field<&IntervalRow::group_kind>, kKey},
    {"group", field<&IntervalRow::group>, kKey},
    {"replications", metric<&IntervalMetrics::replications>},
    {"truth", metric<&IntervalMetrics::truth>},
    {"coverage", metric<&IntervalMetrics::coverage>},
    {"se_coverage", metric<&IntervalMetrics::se_coverage>},
    {"miss_low", metric<&IntervalMetrics::miss_low>},
    {"miss_high", metric<&IntervalMetrics::miss_high>},
    {"mean_width", metric<&IntervalMetrics::mean_width>},
    {"rel_width", metric<&IntervalMetrics::rel_width>},
};

const ResultColumn<ProfileRow> kProfileColumns[] = {
    {"scheme", field<&ProfileRow::scheme>, kKey},         {"estimator", field<&ProfileRow::estimator>, kKey},
    {"group_kind", field<&ProfileRow::group_kind>, kKey}, {"groups", field<&ProfileRow::groups>},
    {"replications", field<&ProfileRow::replications>},   {"mean_distance", field<&ProfileRow::mean_distance>},
    {"se_distance", field<&ProfileRow::se_distance>},     {"mean_groups_seen", field<&ProfileRow::mean_groups_seen>},
};

const ResultColumn<EstimateRow> kEstimateColumns[] = {
    {"scheme", field<&EstimateRow::scheme>, kKey},     {"estimator", field<&EstimateRow::estimator>, kKey},
    {"replication", field<&EstimateRow::replication>}, {"truth", field<&EstimateRow::truth>},
    {"estimate", field<&EstimateRow::estimate>},
};

}  // namespace

ResultTable<MetricRow> metric_table() { return kMetricColumns; }
ResultTable<IntervalRow> interval_table() { return kIntervalColumns; }
ResultTable<ProfileRow> profile_table() { return kProfileColumns; }
ResultTable<EstimateRow> estimate_table() { return kEstimateColumns; }

}  // namespace allocsim
