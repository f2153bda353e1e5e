// The wall clock of the time-driven samplers (sampler/families/wall_clock.h): the
// rate clock against t_i = floor(R_i 1e9 / rate) worked by hand, the trace clock
// against time * tick_ns, and the parameters' errors.
#include "allocsim/sampler/families/wall_clock.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "allocsim/json/json_reader.h"
#include "allocsim/util/error.h"
#include "testing/traces.h"

namespace allocsim {
namespace {

WallClockSettings settings_from(const nlohmann::json& given) {
  static const std::vector<ParameterInfo> declared = wall_clock_parameters(1024);
  JsonObject object(given, "scheme.parameters");
  SchemeParameters params(object, declared);
  return read_wall_clock(params);
}

TEST(WallClock, RateClockStartsEachAllocationWhenTheBytesBeforeItAreAllocated) {
  const Trace trace = testing::make_trace({100, 3, 1000, 7});
  // 3 bytes a second: t_i = floor(R_i * 1e9 / 3) with R = 0, 100, 103, 1103.
  WallClock clock(settings_from({{"alloc_rate", 3}}), trace);
  EXPECT_EQ(clock.at(0), 0u);
  EXPECT_EQ(clock.at(1), 33'333'333'333u);
  EXPECT_EQ(clock.at(2), 34'333'333'333u);
  EXPECT_EQ(clock.at(3), 367'666'666'666u);
}

TEST(WallClock, RateClockIsExactWhereTheProductPassesSixtyFourBits) {
  // R = 2^61 bytes at 2^30 bytes a second: 2^31 s = 2^31 * 1e9 ns, past 2^64 / 1e9 bytes.
  const Trace trace = testing::make_trace({std::uint64_t{1} << 61, 1});
  WallClock clock(settings_from({{"alloc_rate", "1GiB"}}), trace);
  EXPECT_EQ(clock.at(0), 0u);
  EXPECT_EQ(clock.at(1), (std::uint64_t{1} << 31) * kNanosecondsPerSecond);
}

TEST(WallClock, TraceClockScalesTheTracesTicks) {
  Trace trace = testing::make_trace({1, 1, 1});
  trace.time.mutable_data()[1] = 5;
  trace.time.mutable_data()[2] = 7;
  WallClock clock(settings_from({{"clock", "trace"}, {"tick_ns", 1e6}}), trace);
  EXPECT_EQ(clock.at(0), 0u);
  EXPECT_EQ(clock.at(1), 5'000'000u);
  EXPECT_EQ(clock.at(2), 7'000'000u);
}

TEST(WallClock, DefaultsAreTheRateClockAtTheDeclaredRate) {
  const WallClockSettings settings = settings_from(nlohmann::json::object());
  EXPECT_EQ(settings.source, WallClockSettings::Source::rate);
  EXPECT_EQ(settings.bytes_per_second, 1024u);
}

TEST(WallClock, BadParametersNameThemselves) {
  EXPECT_THROW(
      {
        try {
          settings_from({{"clock", "cpu"}});
        } catch (const InputError& e) {
          EXPECT_NE(std::string(e.what()).find("scheme.parameters.clock"), std::string::npos) << e.what();
          throw;
        }
      },
      InputError);
  EXPECT_THROW(settings_from({{"alloc_rate", 0}}), InputError);
  EXPECT_THROW(settings_from({{"tick_ns", -1}}), InputError);
}

}  // namespace
}  // namespace allocsim
