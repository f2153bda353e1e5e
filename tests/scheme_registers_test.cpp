// The register layout the engine allocates (RegisterLayout over a scheme's
// estimators) and the registers each scheme's weigh writes (RegisterRows) agree for
// every registered scheme and its variants of other widths, and a disagreement is
// an internal error, not a silent overrun.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/registry.h"
#include "test_support.h"
#include "testing/sampling_parameters.h"

namespace allocsim {
namespace {

// Replays replication 0 of `scheme` on `trace` and weighs its observations into
// the layout's width (which must work) and one register wider (which must throw).
void expect_weigh_checks_width(const Scheme& scheme, const Trace& trace, const std::string& name) {
  std::vector<Observation> observations;
  scheme.start(trace)->replay(StreamKey{}, observations);
  ASSERT_FALSE(observations.empty()) << name;
  const RegisterLayout layout(scheme.estimators());
  std::size_t sum = 0;
  for (std::size_t e = 0; e < scheme.estimators().size(); ++e) {
    EXPECT_EQ(layout.first(e), sum) << name;
    EXPECT_EQ(layout.count(e), scheme.estimators()[e].registers) << name;
    sum += layout.count(e);
  }
  EXPECT_EQ(layout.width(), sum) << name;
  std::vector<double> contributions(observations.size() * layout.width());
  EXPECT_NO_THROW(scheme.weigh(trace, observations, contributions)) << name;
  // A size parked for weigh (parked_sizes.h) that the weigh loop failed to overwrite
  // would be left as a subnormal (these sizes are below 2^52, parked bit for bit). No
  // register is legitimately one here: the smallest inclusion term, e^(-s/T) with
  // s <= 300 and T >= 1, is above 1e-131.
  for (std::size_t i = 0; i < contributions.size(); ++i) {
    EXPECT_NE(std::fpclassify(contributions[i]), FP_SUBNORMAL) << name << ", register " << i % layout.width();
  }
  std::vector<double> wider(observations.size() * (layout.width() + 1));
  EXPECT_THROW(scheme.weigh(trace, observations, wider), std::logic_error) << name;
}

TEST(SchemeRegisters, EveryRegisteredSchemeWritesItsLayout) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t i = 0; i < 400; ++i) sizes.push_back(1 + (i * 37) % 300);
  const Trace trace = testing::make_trace(sizes);
  int checked = 0;
  for (const SchemeDescriptor& descriptor : scheme_registry()) {
    expect_weigh_checks_width(*testing::create_scheme(descriptor.name, testing::sample_often_parameters(descriptor)),
                              trace, descriptor.name);
    ++checked;
  }
  EXPECT_GE(checked, 18);
}

// Schemes whose width depends on their parameters: a second layer adds
// bytes_one_layer, Go's continuous-profiling periods add two registers per span.
TEST(SchemeRegisters, ParameterDependentWidthsAreChecked) {
  const Trace trace = testing::make_trace(std::vector<std::uint64_t>(400, 100));
  expect_weigh_checks_width(*testing::create_scheme("chromium", {{"rate", 256}, {"keep", 0.5}}), trace,
                            "chromium keep");
  expect_weigh_checks_width(*testing::create_scheme("dotnet-tick", {{"stride", 256}, {"keep", 0.5}}), trace,
                            "dotnet-tick keep");
  expect_weigh_checks_width(*testing::create_scheme("go", {{"rate", 256}, {"periods", 3}}), trace, "go periods");
}

// Sizes above 2^53 are not doubles; parked bit for bit they come back exact.
TEST(SchemeRegisters, ParkedSizesComeBackEveryBit) {
  const std::vector<std::uint64_t> sizes = {0, 1, 55, (std::uint64_t{1} << 53) + 1, (std::uint64_t{1} << 61) + 3};
  const Trace trace = testing::make_trace(sizes);
  std::vector<Observation> observations;
  for (std::uint64_t i = 0; i < sizes.size(); ++i) observations.push_back({sizes.size() - 1 - i, 1, 0, 0.0});
  std::vector<double> registers(2 * sizes.size(), -1.0);
  const RegisterRows<2> rows(registers, sizes.size());
  park_requested_sizes(trace, std::span<const Observation>(observations), rows, 1);
  for (std::size_t o = 0; o < observations.size(); ++o) {
    EXPECT_EQ(parked_size(rows[o], 1), sizes[observations[o].event]);
    EXPECT_EQ(rows[o][0], -1.0);  // the other registers untouched
  }
}

TEST(SchemeRegisters, RowsRejectALayoutOfAnotherWidth) {
  std::vector<double> six(6);
  EXPECT_NO_THROW((RegisterRows<3>(six, 2)));
  EXPECT_THROW((RegisterRows<3>(six, 3)), std::logic_error);
  EXPECT_THROW((RegisterRows<4>(six, 2)), std::logic_error);
  EXPECT_NO_THROW((RegisterRows<>(six, 3, 2)));
  EXPECT_THROW((RegisterRows<>(six, 2, 2)), std::logic_error);
  const RegisterRows<3> rows(six, 2);
  rows[1][2] = 5.0;
  EXPECT_EQ(six[5], 5.0);
}

}  // namespace
}  // namespace allocsim
