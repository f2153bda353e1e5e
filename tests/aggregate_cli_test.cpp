// `allocsim aggregate` end to end: N copies of one profile pool to N times its
// estimates with an interval narrower by about sqrt(N) in relative width, and profiles
// of two systems (or at two rates) are refused with one line, exit 2 and nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.h"
#include "testing/build_paths.h"
#include "testing/scratch_directory.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

const std::string kProfiles = allocsim::testing::source_dir() + "/traces/profiles/";

// Every entry of `aggregate --json ARGS`, by stack and object size.
std::map<std::pair<std::string, double>, nlohmann::json> entries_of(const std::string& arguments) {
  const auto r = run_cli("aggregate --json " + arguments);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::map<std::pair<std::string, double>, nlohmann::json> entries;
  const nlohmann::json report = nlohmann::json::parse(r.output);
  for (const auto& e : report.at("entries")) {
    entries[{e.at("stack").get<std::string>(), e.at("object_size").get<double>()}] = e;
  }
  return entries;
}

double relative_width(const nlohmann::json& e) {
  return (e.at("bytes_upper").get<double>() - e.at("bytes_lower").get<double>()) / e.at("bytes").get<double>();
}

class AggregateCli : public ::testing::TestWithParam<const char*> {};

TEST_P(AggregateCli, NCopiesSumToNTimesTheEstimatesWithAnIntervalNarrowerBySqrtN) {
  constexpr int kCopies = 4;
  const std::string one = kProfiles + GetParam();
  std::string copies;
  for (int i = 0; i < kCopies; ++i) copies += " " + one;
  const auto single = entries_of(one);
  const auto pooled = entries_of(copies);
  ASSERT_EQ(pooled.size(), single.size());
  std::size_t compared = 0;
  for (const auto& [key, s] : single) {
    const nlohmann::json& p = pooled.at(key);
    const double k = s.at("samples").get<double>();
    EXPECT_EQ(p.at("samples").get<double>(), kCopies * k) << key.first;
    EXPECT_NEAR(p.at("bytes").get<double>(), kCopies * s.at("bytes").get<double>(),
                1e-12 * kCopies * s.at("bytes").get<double>())
        << key.first;
    if (k < 10 || s.at("bytes_upper") == s.at("bytes_lower")) continue;  // a point: nothing to narrow
    // Garwood's limits for k samples are k - z sqrt(k) + (z^2 - 1)/3 and
    // k + z sqrt(k) + (z^2 + 2)/3 up to O(1/sqrt(k)) (Molenaar's expansion), so the
    // relative width is (2 z sqrt(k) + 1)/k and, pooling N copies to N k samples,
    //   sqrt(N) w(N k) / w(k) = (2 z sqrt(k) + 1/sqrt(N)) / (2 z sqrt(k) + 1),
    // within 1/(2 z sqrt(k)) of 1; the Clopper-Pearson interval in n has the same
    // leading terms times sqrt(1 - p) (which cancels in the ratio) and rounds each bound
    // up to a whole object. The bound below doubles that term for the remainders;
    // the interval is deterministic, so there is no false-alarm rate.
    const double z = 1.959963984540054;
    const double ratio = std::sqrt(double{kCopies}) * relative_width(p) / relative_width(s);
    const double slack = 1.0 / (z * std::sqrt(k));
    EXPECT_GT(ratio, 1.0 - slack) << key.first << " with " << k << " samples";
    EXPECT_LT(ratio, 1.0 + slack) << key.first << " with " << k << " samples";
    ++compared;
  }
  EXPECT_GT(compared, 0u);
}

INSTANTIATE_TEST_SUITE_P(RealProfiles, AggregateCli,
                         ::testing::Values("go-heap.pb.gz", "gperftools.heap", "jemalloc-unbiased.heap"));

TEST(AggregateCliRefusal, ProfilesOfTwoSystemsAreRefusedInOneLineWithNothingWritten) {
  testing::ScratchDirectory scratch;
  const auto r = run_cli("aggregate " + kProfiles + "go-heap.pb.gz " + kProfiles + "gperftools.heap", true,
                         scratch.path().string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("gperftools.heap\": written by gperftools"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  EXPECT_TRUE(fs::is_empty(scratch.path()));
}

TEST(AggregateCliRefusal, ProfilesAtTwoRatesAreRefusedInOneLine) {
  // Two jemalloc heap_v2 dumps of one record, at lg_prof_sample 16 and 17: their
  // counts are Binomial at two p(s), which do not pool into one.
  testing::ScratchDirectory scratch;
  const std::string record = "@ 0x1\n  t*: 4: 256 [0: 0]\n\nMAPPED_LIBRARIES:\n";
  const fs::path at64 = scratch.path() / "64k.heap";
  const fs::path at128 = scratch.path() / "128k.heap";
  std::ofstream(at64) << "heap_v2/65536\n  t*: 4: 256 [0: 0]\n" << record;
  std::ofstream(at128) << "heap_v2/131072\n  t*: 4: 256 [0: 0]\n" << record;
  const auto r = run_cli("aggregate " + at64.string() + " " + at128.string(), true);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("128k.heap\": sampled at 128 KiB but"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the rates differ"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

}  // namespace
}  // namespace allocsim
