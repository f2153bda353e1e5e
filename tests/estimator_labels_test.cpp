// Chart legends name estimators in words (outputs/estimator_labels.h): every
// estimator of every registered scheme has a label, in every window.
#include <gtest/gtest.h>

#include "allocsim/outputs/chart_spec.h"
#include "allocsim/outputs/estimator_labels.h"
#include "allocsim/sampler/registry.h"

namespace allocsim {
namespace {

TEST(EstimatorLabels, EveryRegisteredEstimatorHasOne) {
  for (const SchemeDescriptor& d : scheme_registry()) {
    // A required parameter (ocaml's sampling_rate, a probability) is given 0.5.
    nlohmann::json params = nlohmann::json::object();
    for (const auto& p : d.parameters) {
      if (p.default_value.is_null()) params[p.name] = 0.5;
    }
    const auto scheme = create_scheme(d.name, params, d.name);
    for (const EstimatorSpec& e : scheme->estimators()) {
      EXPECT_TRUE(estimator_label(e.name).has_value()) << d.name << ": " << e.name;
    }
  }
}

TEST(EstimatorLabels, WindowPrefixesAreSaidInWords) {
  EXPECT_EQ(estimator_label("bytes_nb"), "bytes, estimate 2 (s·q/p + u)");
  EXPECT_EQ(estimator_label("peak_bytes_nb"), "bytes, estimate 2 (s·q/p + u) (live at the peak)");
  EXPECT_EQ(estimator_label("live_count"), "count, per-sample weights summed (live at the end)");
  EXPECT_EQ(estimator_label("live_at_900_bytes"), "bytes, per-sample weights summed (live at t = 900)");
  EXPECT_FALSE(estimator_label("no_such_estimator").has_value());
  EXPECT_EQ(estimator_label_or_name("no_such_estimator"), "no_such_estimator");
}

TEST(EstimatorLabels, SeriesLabelsUseThem) {
  ChartSpec spec;
  spec.series = {"scheme", "estimator"};
  EXPECT_EQ(series_label(spec, {"dotnet", "bytes_nb"}), "dotnet, bytes, estimate 2 (s·q/p + u)");
  spec.series_title = "{scheme}: {estimator}";
  EXPECT_EQ(series_label(spec, {"jemalloc", "bytes_sum_then_unbias"}),
            "jemalloc: bytes, summed then unbiased by the mean sample size");
}

}  // namespace
}  // namespace allocsim
