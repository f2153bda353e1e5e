// Chart legends name estimators in words (sampler/estimator_legends.h, said with
// their window by outputs/estimator_labels.h): every estimator of every registered
// scheme has words, and each name is worded once.
#include <gtest/gtest.h>

#include <map>

#include "allocsim/outputs/chart_spec.h"
#include "allocsim/outputs/estimator_labels.h"
#include "allocsim/sampler/estimator_legends.h"
#include "allocsim/sampler/registry.h"

namespace allocsim {
namespace {

// Scheme `d` with its defaults; a required parameter (ocaml's sampling_rate, a
// probability) is given 0.5.
std::unique_ptr<Scheme> default_scheme(const SchemeDescriptor& d) {
  nlohmann::json params = nlohmann::json::object();
  for (const auto& p : d.parameters) {
    if (p.default_value.is_null()) params[p.name] = 0.5;
  }
  return create_scheme(d.name, params, d.name);
}

TEST(EstimatorLegends, EveryRegisteredEstimatorHasWords) {
  for (const SchemeDescriptor& d : scheme_registry()) {
    const auto scheme = default_scheme(d);
    for (const EstimatorSpec& e : scheme->estimators()) {
      EXPECT_TRUE(estimator_legend(e.name).has_value()) << d.name << ": " << e.name;
    }
  }
}

TEST(EstimatorLegends, EachNameIsWordedOnce) {
  std::map<std::string, std::string> worded_by;
  for (const auto& [name, words] : shared_estimator_legends()) {
    EXPECT_TRUE(worded_by.emplace(name, "estimator_legends.cpp").second) << name;
  }
  for (const SchemeDescriptor& d : scheme_registry()) {
    for (const EstimatorLegend& legend : d.estimator_legends) {
      const auto [at, first] = worded_by.emplace(legend.estimator, d.name);
      EXPECT_TRUE(first) << legend.estimator << " is worded by " << d.name << " and by " << at->second;
    }
  }
}

TEST(EstimatorLegends, WindowPrefixesAreSaidInWords) {
  EXPECT_EQ(estimator_label("bytes_nb", estimator_legend), "bytes, estimate 2 (s·q/p + u)");
  EXPECT_EQ(estimator_label("peak_bytes_nb", estimator_legend), "bytes, estimate 2 (s·q/p + u) (live at the peak)");
  EXPECT_EQ(estimator_label("live_count", estimator_legend), "count, per-sample weights summed (live at the end)");
  EXPECT_EQ(estimator_label("live_at_900_bytes", estimator_legend),
            "bytes, per-sample weights summed (live at t = 900)");
  EXPECT_FALSE(estimator_label("no_such_estimator", estimator_legend).has_value());
  EXPECT_EQ(estimator_label_or_name("no_such_estimator", estimator_legend), "no_such_estimator");
}

TEST(EstimatorLegends, SeriesLabelsUseThem) {
  ChartSpec spec;
  spec.series = {"scheme", "estimator"};
  EXPECT_EQ(series_label(spec, {"dotnet", "bytes_nb"}, estimator_legend), "dotnet, bytes, estimate 2 (s·q/p + u)");
  spec.series_title = "{scheme}: {estimator}";
  EXPECT_EQ(series_label(spec, {"jemalloc", "bytes_sum_then_unbias"}, estimator_legend),
            "jemalloc: bytes, summed then unbiased by the mean sample size");
}

}  // namespace
}  // namespace allocsim
