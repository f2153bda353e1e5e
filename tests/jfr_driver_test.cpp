// The jfr conformance driver's reader (jfr_samples_csv) on an excerpt of real
// `jfr print --json --events jdk.ObjectAllocationSample` output
// (conformance/jfr/print-json-excerpt.json: the first startup and the first stacked
// event of one OpenJDK 17.0.15 run of conformance/jfr/Driver.java, stacks cut to
// their first three frames), and its registration.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "allocsim/conformance/driver_output.h"
#include "allocsim/conformance/system.h"
#include "allocsim/sampler/systems/jfr/jfr.h"
#include "allocsim/util/error.h"
#include "testing/build_paths.h"

namespace {

std::string excerpt() {
  std::ifstream in(allocsim::testing::source_dir() + "/conformance/jfr/print-json-excerpt.json");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(JfrDriver, ReadsSitesAndWeightsOfJfrPrintJson) {
  const std::string json = excerpt();
  ASSERT_FALSE(json.empty());
  const std::string csv = allocsim::jfr_samples_csv("meta,version,17.0.15+6-Debian-1deb12u1\n" + json);
  EXPECT_EQ(csv, "meta,version,17.0.15+6-Debian-1deb12u1\n"
                 "sample,startup,0,0,1\n"
                 "sample,stacked,0,0,1\n"
                 "estimate,stacked,1,262784\n"
                 "estimate,startup,1,16993192\n"
                 "meta,events,2\n"
                 "meta,events_outside_plan,0\n");
}

TEST(JfrDriver, EventsOutsideThePlanAreCountedNotSampled) {
  const std::string json =
      R"({"recording": {"events": [{"type": "jdk.ObjectAllocationSample", "values": {"weight": 4096,
          "stackTrace": {"truncated": false, "frames": [{"method": {"name": "siteLike",
          "type": {"name": "java/lang/Thread"}}}]}}},
        {"type": "jdk.ObjectAllocationSample", "values": {"weight": 8, "stackTrace": null}}]}})";
  EXPECT_EQ(allocsim::jfr_samples_csv(json), "meta,events,2\nmeta,events_outside_plan,2\n");
}

TEST(JfrDriver, RejectsOutputThatIsNotJfrJson) {
  EXPECT_THROW(allocsim::jfr_samples_csv("meta,version,17\nnot json"), allocsim::InputError);
  EXPECT_THROW(allocsim::jfr_samples_csv(R"({"recording": {}})"), allocsim::InputError);
  EXPECT_THROW(allocsim::jfr_samples_csv(R"({"recording": {"events": [{"type": "jdk.ObjectAllocationSample"}]}})"),
               allocsim::InputError);
}

TEST(JfrDriver, IsRegisteredWithTheThrottleAsItsRate) {
  const allocsim::ConformanceSystem* jfr = allocsim::find_conformance_system("jfr");
  ASSERT_NE(jfr, nullptr);
  EXPECT_EQ(jfr->scheme, "jfr");
  EXPECT_EQ(jfr->rate_parameter, "throttle");
  EXPECT_EQ(jfr->default_rate, 150u);
  EXPECT_FALSE(jfr->samples_have_sizes);
  EXPECT_TRUE(static_cast<bool>(jfr->translate_output));
}

}  // namespace
