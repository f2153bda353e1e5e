// Every registered scheme against its own descriptor (sampler/scheme_descriptor.h),
// the one place a scheme is declared: its parameters and defaults are the ones its
// create() reads, its declared skip-ahead replay exists and gives the streaming
// replay's observations, its sampling family and rate are what the layers above
// read, and every estimator whose closed form claims no bias is unbiased.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "allocsim/conformance/system.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/thread_index.h"
#include "test_support.h"
#include "testing/sampling_parameters.h"

namespace allocsim {
namespace {

std::vector<std::string> registered_names() {
  std::vector<std::string> names;
  for (const SchemeDescriptor& d : scheme_registry()) names.push_back(d.name);
  return names;
}

// A trace of 600 allocations of 1 B .. 4 KiB over three threads.
const Trace& three_thread_trace() {
  static const Trace trace = [] {
    std::vector<std::uint64_t> sizes;
    std::vector<std::uint32_t> threads;
    for (std::uint64_t i = 0; i < 600; ++i) {
      sizes.push_back(1 + (i * 2654435761u) % 4096);
      threads.push_back(static_cast<std::uint32_t>(i % 3));
    }
    return testing::make_trace(sizes, threads);
  }();
  return trace;
}

class EveryScheme : public ::testing::TestWithParam<std::string> {
 protected:
  const SchemeDescriptor& descriptor() const { return *find_scheme(GetParam()); }
};

// Each declared parameter is read (a key create() did not read is refused), and
// the scheme made from {} replays and weighs exactly as the one made with every
// default written out: the defaults used are the catalogue's.
TEST_P(EveryScheme, DeclaredDefaultsAreTheDefaultsUsed) {
  const SchemeDescriptor& d = descriptor();
  nlohmann::json defaults = testing::sample_often_parameters(d), written = testing::sample_often_parameters(d);
  for (const ParameterInfo& p : d.parameters) {
    if (p.default_value.is_null() || written.contains(p.name)) continue;
    written[p.name] = p.default_value;
    nlohmann::json one = testing::sample_often_parameters(d);
    one[p.name] = p.default_value;
    EXPECT_NO_THROW(create_scheme(d.name, one, "$")) << p.name << " is declared but not read";
  }
  const auto a = create_scheme(d.name, defaults, "$"), b = create_scheme(d.name, written, "$");
  const Trace& trace = three_thread_trace();
  std::vector<Observation> from_a, from_b;
  a->start(trace)->replay({7, 1, 0}, from_a);
  b->start(trace)->replay({7, 1, 0}, from_b);
  ASSERT_EQ(from_a.size(), from_b.size());
  ASSERT_FALSE(from_a.empty()) << "the parameters of sample_often_parameters() sample nothing";
  const std::size_t width = RegisterLayout(a->estimators()).width();
  std::vector<double> weights_a(from_a.size() * width), weights_b(from_b.size() * width);
  a->weigh(trace, from_a, weights_a);
  b->weigh(trace, from_b, weights_b);
  EXPECT_EQ(weights_a, weights_b);
}

// `skip_ahead` is what the shard cost reads: it must match start_skip_ahead with the
// defaults on a one-thread trace (the JVM's shared generator has none over several
// threads), and wherever a skip-ahead replay is offered it must give the streaming
// replay's observations, thread by thread instead of in trace order.
void expect_skip_ahead_matches_streaming(const Scheme& scheme, const Trace& trace) {
  const ThreadIndex index(trace);
  auto skipping = scheme.start_skip_ahead(trace, index);
  if (!skipping) return;
  testing::expect_same_observations(*scheme.start(trace), *skipping, 4);
}

TEST_P(EveryScheme, DeclaredSkipAheadExistsAndMatchesStreaming) {
  const SchemeDescriptor& d = descriptor();
  std::vector<std::uint64_t> sizes(three_thread_trace().requested.begin(), three_thread_trace().requested.end());
  const Trace one_thread = testing::make_trace(sizes);
  const auto scheme = create_scheme(d.name, testing::sample_often_parameters(d), "$");
  EXPECT_EQ(scheme->start_skip_ahead(one_thread, ThreadIndex(one_thread)) != nullptr, d.skip_ahead);
  expect_skip_ahead_matches_streaming(*scheme, one_thread);
  expect_skip_ahead_matches_streaming(*scheme, three_thread_trace());
}

// The rate the layers above set names a declared parameter (or none), and only a
// scheme with a rate or its own advice rule is advised.
TEST_P(EveryScheme, RateAndAdviceNameDeclaredParameters) {
  const SchemeDescriptor& d = descriptor();
  if (d.rate) {
    const ParameterInfo* declared = d.rate_parameter();
    ASSERT_NE(declared, nullptr) << d.rate->parameter;
    EXPECT_TRUE(declared->default_value.is_number()) << "a rate has a numeric default";
  }
  if (d.advice) {
    EXPECT_TRUE(d.rate || d.advice->parameters) << "advise cannot set this scheme";
  }
  if (d.family != SamplingFamily::none) {
    EXPECT_TRUE(d.rate) << "an entry model needs the rate T";
  }
  for (const std::string& format : d.profile_formats) {
    EXPECT_NE(d.family, SamplingFamily::none) << format << " profiles need an entry model";
  }
}

// Every estimator's bias on a trace of mixed sizes over three threads is the one its
// closed form states (zero where it claims none): the Monte Carlo bias of 4000
// replications within 5 standard errors of the theory's variance (false alarm 5.7e-7
// per estimator). The closed forms are those of a sampler whose sample points are
// rare next to allocations, so the rate is 16 KiB, about 33 mean allocations (T = 256
// breaks tcmalloc's count, whose first byte after each redraw is sampled twice as
// often: +4.4% measured, tcmalloc.h). A scheme without closed forms is skipped, saying so.
TEST_P(EveryScheme, EstimatorBiasIsItsClosedForms) {
  const SchemeDescriptor& d = descriptor();
  nlohmann::json entry = testing::sample_often_parameters(d);
  const auto scheme = create_scheme(d.name, entry, "$");
  bool has_theory = false;
  for (std::size_t e = 0; e < scheme->estimators().size(); ++e) {
    const EstimatorTheory theory = scheme->theory(e);
    has_theory = has_theory || theory.per_allocation() || static_cast<bool>(theory.group);
  }
  if (!has_theory) GTEST_SKIP() << d.name << " has no closed form to check a bias against";
  if (d.rate && d.rate->unit == RateUnit::bytes) entry[d.rate->parameter] = 16384;
  if (d.name == "optimal-size-class") entry["samples"] = 60;  // as many as 16 KiB takes
  entry["scheme"] = d.name;
  const nlohmann::json scenario = {{"name", "unbiased"},
                                   {"seed", 17},
                                   {"replications", 4000},
                                   {"trace",
                                    {{"allocations", 2000},
                                     {"threads", 3},
                                     {"sizes", {{"distribution", "log_uniform"}, {"min", 1}, {"max", 4096}}}}},
                                   {"schemes", {entry}}};
  const ScenarioResult result = testing::run_scenario_text(scenario.dump(), 2);
  int checked = 0;
  for (const auto& row : result.rows) {
    const Metrics& m = row.metrics;
    if (row.group_kind != GroupKind::total || !m.theory.bias || !m.theory.var || !(*m.theory.var > 0)) continue;
    const double se = testing::mean_standard_error(*m.theory.var, static_cast<double>(m.replications));
    EXPECT_TRUE(testing::within_sigmas(m.bias, *m.theory.bias, se)) << d.name << " " << row.estimator;
    ++checked;
  }
  // Closed forms without the whole trace's bias and variance: nothing was checked.
  if (checked == 0) GTEST_SKIP() << d.name << ": no closed form gives the whole trace's bias and variance";
  RecordProperty("estimators_checked", checked);
}

// The real systems a scheme declares for `conformance` give their model parameters
// the scheme reads (the rate under one of its rate parameter's names, or the
// parameter the driver names) and name an
// estimator it has; their names are unique across the registry.
TEST_P(EveryScheme, ConformanceDriversDescribeItsModel) {
  const SchemeDescriptor& d = descriptor();
  for (const ConformanceSystem& declared : d.conformance) {
    const ConformanceSystem* system = find_conformance_system(declared.name);
    ASSERT_NE(system, nullptr) << declared.name;
    EXPECT_EQ(system->scheme, d.name);
    // A scheme without a rate (jfr: a throttle in events a second) needs its driver to
    // name the parameter the conformance rate sets.
    ASSERT_TRUE(d.rate || !declared.rate_parameter.empty())
        << "a driver's rate needs the scheme's rate parameter or one it names";
    nlohmann::json parameters = system->scheme_parameters;
    parameters[system->rate_parameter] = system->default_rate;
    const auto scheme = create_scheme(d.name, parameters, "$");  // an unread key throws
    const auto& estimators = scheme->estimators();
    EXPECT_TRUE(std::any_of(estimators.begin(), estimators.end(),
                            [&](const EstimatorSpec& e) { return e.name == system->estimator; }))
        << system->name << ": " << system->estimator;
  }
}

TEST(DeclaredConformanceSystems, NamesAreUniqueAndEachBelongsToARegisteredScheme) {
  std::set<std::string> names;
  for (const ConformanceSystem& system : conformance_systems()) {
    EXPECT_TRUE(names.insert(system.name).second) << system.name;
    EXPECT_NE(find_scheme(system.scheme), nullptr) << system.name;
  }
  EXPECT_GE(names.size(), 5u);  // jemalloc, gperftools, go, jvm, jvm-serial
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryScheme, ::testing::ValuesIn(registered_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace allocsim
