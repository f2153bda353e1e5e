// Whether an estimator is unbiased, read from its scheme's closed form
// (advice/estimator_bias.h), and `allocsim schemes NAME` saying it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "allocsim/advice/estimator_bias.h"
#include "allocsim/sampler/registry.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::run_cli;

EstimatorBias bias_of(const std::string& scheme, const nlohmann::json& params, const std::string& estimator) {
  const auto s = create_scheme(scheme, params, scheme);
  for (std::size_t e = 0; e < s->estimators().size(); ++e) {
    if (s->estimators()[e].name == estimator) return estimator_bias(*s, e);
  }
  ADD_FAILURE() << scheme << " has no estimator " << estimator;
  return {};
}

TEST(EstimatorBias, PoissonIsUnbiasedAtEverySize) {
  // Per-byte Poisson sampling: T·N with E[N] = S/T, and 1/P(sampled) per sample.
  for (const char* estimator : {"bytes", "count"}) {
    const EstimatorBias b = bias_of("poisson", {{"rate", 4096}}, estimator);
    EXPECT_EQ(b.kind, EstimatorBias::Kind::unbiased) << estimator << ": " << b.condition;
    EXPECT_NE(b.condition.find("1 B to 96 MiB"), std::string::npos) << b.condition;
  }
}

TEST(EstimatorBias, MemrayRawCountMissesSmallAllocations) {
  // Memray records allocations of S >= T whole and samples smaller ones with
  // P = 1 - e^(-S/T); one raw count per sample then has relative bias -e^(-S/T)
  // for S < T and none from T up: at S = T - 1 = 4095 B, -e^(-4095/4096) = -36.80%.
  const EstimatorBias b = bias_of("memray", {{"rate", 4096}}, "count_raw");
  EXPECT_EQ(b.kind, EstimatorBias::Kind::biased);
  EXPECT_NE(b.condition.find("for sizes 1 B to 3.999 KiB"), std::string::npos) << b.condition;
  EXPECT_NE(b.condition.find("unbiased outside them"), std::string::npos) << b.condition;
  EXPECT_NE(b.condition.find("to -36.8% (3.999 KiB)"), std::string::npos) << b.condition;
  // The Horvitz-Thompson count divides by that P: unbiased.
  EXPECT_EQ(bias_of("memray", {{"rate", 4096}}, "count").kind, EstimatorBias::Kind::unbiased);
}

TEST(EstimatorBias, NoClosedFormIsSaid) {
  const EstimatorBias b = bias_of("jemalloc", nlohmann::json::object(), "bytes_sum_then_unbias");
  EXPECT_EQ(b.kind, EstimatorBias::Kind::unknown);
  EXPECT_EQ(to_json(b)["bias"], "unknown");
}

TEST(EstimatorBias, SchemesCommandPrintsItFromTheTheory) {
  const auto text = run_cli("schemes memray");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("unbiased: unbiased at every allocation size"), std::string::npos) << text.output;
  const auto json = run_cli("schemes memray --json");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const auto estimators = nlohmann::json::parse(json.output)["estimators"];
  ASSERT_EQ(estimators.size(), 3u);
  // bytes = T·samples with samples counted per byte at p = 1 - e^(-1/T): relative
  // bias T(1 - e^(-1/T)) - 1 = -1/(2T) + O(1/T^2) = -0.0122% below T.
  EXPECT_EQ(estimators[0]["name"], "bytes");
  EXPECT_EQ(estimators[0]["bias"], "biased");
  EXPECT_NE(estimators[0]["condition"].get<std::string>().find("-0.0122%"), std::string::npos) << estimators[0];
  EXPECT_EQ(estimators[1]["bias"], "unbiased") << estimators[1];
  EXPECT_EQ(estimators[2]["bias"], "biased") << estimators[2];
  // A scheme with a required parameter says so instead of failing.
  const auto ocaml = run_cli("schemes ocaml");
  EXPECT_EQ(ocaml.exit_code, 0) << ocaml.output;
  EXPECT_NE(ocaml.output.find("shown only at given values of the required sampling_rate"), std::string::npos);
  EXPECT_NE(ocaml.output.find("--scheme ocaml:sampling_rate=VALUE"), std::string::npos);
}

}  // namespace
}  // namespace allocsim
