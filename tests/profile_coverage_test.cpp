// Coverage of the entry intervals measured by the engine: the schemes' own sampler
// models replay a trace of known sites; each replication's samples per site become a
// profile entry (for Go through the pprof reader, as Go would have written it), and
// the fraction of replications whose interval holds the true objects is compared
// with the exact coverage under the entry model and with the nominal level.
//
// Bounds: R replications give a coverage estimate with standard error
// sqrt(c (1 - c) / R); each check allows 5 of them (two-sided false alarm 6e-7 per
// check, about 1e-5 over the checks of this file).
#include <gtest/gtest.h>

#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "allocsim/profile/entry_interval.h"
#include "allocsim/profile/gzip.h"
#include "allocsim/profile/profile.pb.h"
#include "allocsim/profile/read_profile.h"
#include "test_support.h"

namespace allocsim::profile {
namespace {

struct Site {
  std::uint64_t size;
  std::uint64_t count;
};

// Sizes that are size classes of Go, jemalloc and gperftools alike, so requested and
// allocated bytes agree; from a site nearly always missed to one with many samples.
const std::vector<Site> kSites = {{1024, 5}, {64, 2000}, {4096, 200}, {32768, 60}};
constexpr double kRate = 65536;
constexpr int kReplications = 2000;
constexpr double kLevel = 0.9;

Trace sites_trace(const std::vector<Site>& sites) {
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint32_t> stacks;
  for (std::uint32_t s = 0; s < sites.size(); ++s) {
    for (std::uint64_t j = 0; j < sites[s].count; ++j) {
      sizes.push_back(sites[s].size);
      stacks.push_back(s);
    }
  }
  Trace trace = testing::make_trace(sizes);
  trace.stack = stacks;
  trace.stack_count = static_cast<std::uint32_t>(sites.size());
  return trace;
}

// Samples per site in each replication of `scheme` over the trace: sampled
// allocations, or sample points for the byte-rate model.
std::vector<std::vector<double>> replay_samples(const std::string& scheme, const SamplingModel& entry_model,
                                                const Trace& trace, std::size_t sites) {
  nlohmann::json params = {{"rate", static_cast<std::int64_t>(kRate)}};
  // gperftools samples nothing in the main thread's first 16 MiB by default.
  if (scheme == "gperftools") params["startup_counter"] = 0;
  const auto model = testing::create_scheme(scheme, params);
  const auto run = model->start(trace);
  std::vector<std::vector<double>> samples(kReplications, std::vector<double>(sites, 0.0));
  std::vector<Observation> observations;
  for (int r = 0; r < kReplications; ++r) {
    observations.clear();
    run->replay({2026, 18, static_cast<std::uint64_t>(r)}, observations);
    for (const Observation& o : observations) {
      samples[r][trace.stack[o.event]] += entry_model.kind == ModelKind::poisson_bytes ? o.samples : 1;
    }
  }
  return samples;
}

// Exact coverage of the interval at n objects of `size` under the binomial model.
double exact_coverage(const SamplingModel& model, double n, double size) {
  const boost::math::binomial_distribution<> samples(n, sample_probability(model, size));
  double covered = 0;
  for (double k = 0; k <= n; ++k) {
    const EntryInterval ci = entry_interval(model, k, size, kLevel, false);
    if (ci.objects_lower <= n && n <= ci.objects_upper) covered += boost::math::pdf(samples, k);
  }
  return covered;
}

// The samples as Go 1.19 would write them (inuse_objects, inuse_space scaled by
// scaleHeapSample, a "bytes" label), read back through the pprof reader.
std::vector<double> through_go_pprof(const std::vector<double>& samples) {
  pprof::Profile message;
  for (const char* text : {"", "inuse_objects", "count", "inuse_space", "bytes", "space"}) {
    message.add_string_table(text);
  }
  for (const int type : {1, 3}) {
    auto* value_type = message.add_sample_type();
    value_type->set_type(type);
    value_type->set_unit(type + 1);
  }
  message.set_period(static_cast<std::int64_t>(kRate));
  std::vector<std::size_t> present;
  for (std::size_t s = 0; s < samples.size(); ++s) {
    if (samples[s] == 0) continue;
    const double size = static_cast<double>(kSites[s].size);
    const double scale = 1 / (1 - std::exp(-size / kRate));
    auto* sample = message.add_sample();
    sample->add_value(static_cast<std::int64_t>(samples[s] * scale));
    sample->add_value(static_cast<std::int64_t>(samples[s] * size * scale));
    auto* label = sample->add_label();
    label->set_key(4);
    label->set_num(static_cast<std::int64_t>(size));
    present.push_back(s);
  }
  std::vector<double> read(samples.size(), 0.0);
  if (present.empty()) return read;
  const HeapProfile profile = parse_profile(gzip(message.SerializeAsString()), "go", {});
  for (std::size_t i = 0; i < present.size(); ++i) read[present[i]] = profile.entries[i].samples;
  return read;
}

void expect_coverage(const std::string& scheme, bool through_reader) {
  const Trace trace = sites_trace(kSites);
  const SamplingModel model = model_for_scheme(scheme, kRate, "test");
  const auto samples = replay_samples(scheme, model, trace, kSites.size());
  for (std::size_t s = 0; s < kSites.size(); ++s) {
    const double n = static_cast<double>(kSites[s].count);
    const double size = static_cast<double>(kSites[s].size);
    int covered = 0;
    for (const auto& replication : samples) {
      const double k = through_reader ? through_go_pprof(replication)[s] : replication[s];
      const EntryInterval ci = entry_interval(model, k, size, kLevel, false);
      covered += ci.objects_lower <= n && n <= ci.objects_upper;
    }
    const double measured = static_cast<double>(covered) / kReplications;
    const double exact = model.kind == ModelKind::poisson_bytes ? kLevel : exact_coverage(model, n, size);
    const double se = std::sqrt(std::max(exact * (1 - exact), 1.0 / kReplications) / kReplications);
    // Printed for docs/profiles.md, which quotes these numbers.
    std::printf("coverage %s: %llu x %llu bytes: measured %.4f, exact under the model %.4f, SE %.4f\n", scheme.c_str(),
                static_cast<unsigned long long>(kSites[s].count), static_cast<unsigned long long>(kSites[s].size),
                measured, exact, se);
    SCOPED_TRACE(scheme + " site " + std::to_string(s) + ": measured " + std::to_string(measured) + ", exact " +
                 std::to_string(exact));
    EXPECT_GE(measured, kLevel - testing::kSigmas * se);
    if (model.kind != ModelKind::poisson_bytes) {
      EXPECT_TRUE(testing::within_sigmas(measured, exact, se));
    }
  }
}

// A record that mixes sizes (jemalloc keeps one record per stack): 2000 objects of
// 256 and 2000 of 8192 bytes, alternating, read as k samples of their average size.
// The approximation's exact coverage under the model sums over the independent
// Binomial(2000, p(256)) and Binomial(2000, p(8192)) sample counts; the engine's
// measurement must agree with it within 5 SE. Both are printed; neither is held to
// the nominal level, since the approximation does not promise it.
double mixed_exact_coverage(const SamplingModel& model, double truth) {
  const boost::math::binomial_distribution<> small(2000, sample_probability(model, 256));
  const boost::math::binomial_distribution<> large(2000, sample_probability(model, 8192));
  double covered = 0;
  for (double a = 0; a <= 2000; ++a) {
    const double pa = boost::math::pdf(small, a);
    if (pa < 1e-13) continue;
    for (double b = 0; b <= 2000; ++b) {
      const double pb = boost::math::pdf(large, b);
      if (pb < 1e-13 || a + b == 0) continue;
      const EntryInterval ci = entry_interval(model, a + b, (256 * a + 8192 * b) / (a + b), kLevel, true);
      if (ci.bytes_lower <= truth && truth <= ci.bytes_upper) covered += pa * pb;
    }
  }
  return covered;
}

TEST(ProfileCoverage, JemallocMixedSizesAtTheirAverage) {
  std::vector<std::uint64_t> sizes;
  for (int j = 0; j < 4000; ++j) sizes.push_back(j % 2 == 0 ? 256 : 8192);
  const Trace trace = testing::make_trace(sizes);
  const double truth = 2000.0 * 256 + 2000.0 * 8192;
  const SamplingModel model = model_for_scheme("jemalloc", kRate, "test");
  const auto scheme = testing::create_scheme("jemalloc", {{"rate", static_cast<std::int64_t>(kRate)}});
  const auto run = scheme->start(trace);
  std::vector<Observation> observations;
  int covered = 0;
  for (int r = 0; r < kReplications; ++r) {
    observations.clear();
    run->replay({2026, 19, static_cast<std::uint64_t>(r)}, observations);
    double bytes = 0;
    for (const Observation& o : observations) bytes += static_cast<double>(sizes[o.event]);
    const double k = static_cast<double>(observations.size());
    const EntryInterval ci = entry_interval(model, k, k > 0 ? bytes / k : 1.0, kLevel, true);
    covered += ci.bytes_lower <= truth && truth <= ci.bytes_upper;
  }
  const double measured = static_cast<double>(covered) / kReplications;
  const double exact = mixed_exact_coverage(model, truth);
  const double se = std::sqrt(exact * (1 - exact) / kReplications);
  std::printf("coverage jemalloc mixed 2000 x 256 + 2000 x 8192 at the average size: measured %.4f, "
              "exact under the model %.4f, SE %.4f\n",
              measured, exact, se);
  EXPECT_TRUE(testing::within_sigmas(measured, exact, se));
}

TEST(ProfileCoverage, GoThroughItsPprofReader) { expect_coverage("go", true); }
TEST(ProfileCoverage, Jemalloc) { expect_coverage("jemalloc", false); }
TEST(ProfileCoverage, Gperftools) { expect_coverage("gperftools", false); }
TEST(ProfileCoverage, Tcmalloc) { expect_coverage("tcmalloc", false); }
TEST(ProfileCoverage, Heapprofd) { expect_coverage("heapprofd", false); }

}  // namespace
}  // namespace allocsim::profile
