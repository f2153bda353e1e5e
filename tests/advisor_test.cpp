// The sampling-rate advisor (design/advisor.h): the interval it recommends meets
// its target in an independent Monte Carlo run, and an interval 1.5 times larger
// does not; and the `allocsim advise` command.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "allocsim/advice/advice_check.h"
#include "allocsim/advice/advisor.h"
#include "allocsim/sampler/systems/heapprofd/heapprofd.h"
#include "allocsim/trace/trace_source.h"
#include "test_support.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

using testing::recorded_trace;
using testing::run_cli;

// 20 000 lognormal requests (median 256 B, sigma 1, at most 64 KiB; about 8.6 MB)
// over 8 Zipf-weighted stacks.
Trace mixed_trace() {
  const nlohmann::json json = nlohmann::json::parse(R"({"allocations": 20000, "seed": 5,
      "sizes": {"distribution": "lognormal", "median": 256, "sigma": 1.0, "max": 65536},
      "stacks": {"rule": "random", "count": 8, "zipf": 1.0}})");
  JsonObject object(json, "$.trace");
  return load_trace(parse_trace_source(object, "."), 1);
}

const AdvisedScheme& scheme_named(const std::string& name) {
  for (const auto& s : advised_schemes()) {
    if (s.name == name) return s;
  }
  throw std::logic_error("no advised scheme " + name);
}

// Monte Carlo with 2000 replications and a seed the advisor never used; a target
// counts as met within 5 standard errors (advice_check.h).
MonteCarloCheck independent_check(const Trace& trace, const AdvicePoint& point, const AccuracyTargets& t) {
  return check_advice(trace, point, t, {.replications = 2000, .seed = 424242, .sigmas = 5});
}

// Total within +-5% at 95%: z RMSE / truth <= 0.05. heapprofd's variance is about
// T S, so RMSE grows like sqrt(T): at 1.5 T* the closed form is ~sqrt(1.5) = 1.22
// times the target (asserted >= 1.15 below). The relative standard error of a
// measured RMSE from 2000 normal replications is ~1/sqrt(2 * 2000) = 1.6%, so 5 se
// is ~8%: T* passes (on target), 1.5 T* fails (>= 15% over).
TEST(Advisor, TotalTargetMetAtTheAdvisedIntervalAndMissedAtOneAndAHalfTimesIt) {
  const Trace trace = mixed_trace();
  AccuracyTargets targets;
  targets.total_error = 0.05;
  Advisor advisor(trace, targets);
  const auto advised = advisor.recommend(scheme_named("heapprofd"));
  ASSERT_TRUE(advised.has_value());
  EXPECT_TRUE(advised->meets);
  EXPECT_LE(targets.total_z() * advised->total_relative_rmse, 0.05);
  EXPECT_GT(advised->interval, 1000);  // a real choice, not "sample everything"
  const AdvicePoint larger = advisor.evaluate(scheme_named("heapprofd"), std::floor(1.5 * advised->interval));
  EXPECT_FALSE(larger.meets);
  EXPECT_GE(targets.total_z() * larger.total_relative_rmse, 1.15 * 0.05);

  EXPECT_TRUE(independent_check(trace, *advised, targets).meets);
  const MonteCarloCheck missed = independent_check(trace, larger, targets);
  EXPECT_FALSE(missed.meets) << "measured relative RMSE " << missed.total_relative_rmse;
}

// Every stack holding >= 1% of the bytes seen with probability >= 0.99. Under
// tcmalloc ln P(stack unseen) = -(B + n)/T exactly, so at 1.5 T* it is
// 0.01^(1/1.5) = 4.6% unseen (P(seen) 0.954). With 2000 replications the binomial
// se is 0.0022 at 0.99 and 0.0047 at 0.954: 0.954 + 5 se = 0.977 < 0.99 fails,
// while at T* 0.99 passes.
TEST(Advisor, StackSeenTargetMetAtTheAdvisedIntervalAndMissedAtOneAndAHalfTimesIt) {
  const Trace trace = mixed_trace();
  AccuracyTargets targets;
  targets.stack_seen = 0.99;
  Advisor advisor(trace, targets);
  const auto advised = advisor.recommend(scheme_named("tcmalloc"));
  ASSERT_TRUE(advised.has_value());
  EXPECT_GE(advised->least_stack_seen, 0.99);
  EXPECT_EQ(advised->target_stacks, 8u);
  const AdvicePoint larger = advisor.evaluate(scheme_named("tcmalloc"), std::floor(1.5 * advised->interval));
  EXPECT_NEAR(larger.least_stack_seen, 1 - std::pow(0.01, 1 / 1.5), 0.002);

  EXPECT_TRUE(independent_check(trace, *advised, targets).meets);
  const MonteCarloCheck missed = independent_check(trace, larger, targets);
  EXPECT_FALSE(missed.meets) << "measured least P(seen) " << missed.least_stack_seen;
}

// At the same expected samples no size-dependent scheme beats the optimum for the
// total (ratio >= 1), and the optimum itself sits at ratio 1. The one exception
// allowed: .NET's code draws bytes with miss probability e^(-1/T) while its weights
// divide by 1 - (1 - 1/T)^s (dotnet.h), so its weights are a little above 1/pi: a
// slightly biased estimate whose variance is (pi / pi_assumed)^2 ~ 1 - 1/T times that
// of the unbiased weights. That can dip below the optimum only where dotnet's p curve
// is otherwise on it (large T on this trace: 1/T < 1e-5 there).
TEST(Advisor, NoSchemeBeatsTheOptimalDesign) {
  const Trace trace = mixed_trace();
  AccuracyTargets targets;
  targets.total_error = 0.05;
  Advisor advisor(trace, targets);
  for (const AdvicePoint& p : advisor.frontier(2)) {
    EXPECT_GE(p.allocated_gap.ratio, p.scheme == "dotnet" ? 1 - 1e-5 : 1 - 1e-9) << p.scheme << " at " << p.interval;
    if (p.scheme == "optimal-size-class") {
      EXPECT_NEAR(p.allocated_gap.ratio, 1, 1e-9);
    }
  }
}

// Sizes 100 and 300 under per-allocation sampling at N = 2: p = (1/2, 1/2), one
// expected sample, variance (N - 1)(100^2 + 300^2) = 100 000. The optimum at one
// sample has p = (1/4, 3/4) and variance 100^2 * 3 + 300^2 / 3 = 60 000: ratio 5/3,
// misplaced (|1/2 - 1/4| + |1/2 - 3/4|) / 2 = 1/4 of the budget.
TEST(Advisor, GapToTheOptimumByHand) {
  const Trace trace = testing::make_trace({100, 300});
  const auto scheme = testing::create_scheme("per-allocation", {{"rate", 2}});
  const SchemeAccuracy accuracy = scheme_accuracy(*scheme, trace);
  EXPECT_DOUBLE_EQ(accuracy.expected_samples, 1.0);
  const OptimumGap gap = OptimumReference(trace, accuracy.measured, DesignObjective::allocated).gap(accuracy);
  EXPECT_DOUBLE_EQ(gap.scheme_variance, 100000.0);
  EXPECT_DOUBLE_EQ(gap.optimal_variance, 60000.0);
  EXPECT_DOUBLE_EQ(gap.ratio, 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(gap.misplaced_samples, 0.25);
}

// Each scheme's closed-form interval I meets the target, z RMSE / truth <= 0.1 with
// z = 1.96 (95%), and is the largest that does: recommend() bisects until the failing
// end is within max(1, 0.001 I) of I, and at a 10% target (intervals of kilobytes,
// where the RMSE grows steadily with the interval) the closed form at
// I + max(1, 0.002 I) misses too.
TEST(AdviseCli, RecommendsAnIntervalPerSchemeAsJson) {
  const auto r = run_cli("advise " + recorded_trace("bc.zst") + " --total-error 0.1 --replications 200 --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto json = nlohmann::json::parse(r.output);
  ASSERT_EQ(json["recommendations"].size(), advised_schemes().size());
  const nlohmann::json spec = {{"kind", "file"}, {"path", recorded_trace("bc.zst")}};
  JsonObject object(spec, "$.trace");
  const Trace trace = load_trace(parse_trace_source(object, "."), 1);
  AccuracyTargets targets;
  targets.total_error = 0.1;
  Advisor advisor(trace, targets);
  for (const auto& entry : json["recommendations"]) {
    const std::string name = entry["scheme"].get<std::string>();
    ASSERT_TRUE(entry["reachable"].get<bool>()) << name;
    const AdviceRule& rule = *scheme_named(name).descriptor->advice;
    if (rule.fixed_interval) {  // .NET: the runtime's interval, whether it meets or not
      EXPECT_EQ(entry["closed_form"]["interval"].get<double>(), *rule.fixed_interval) << name;
      continue;
    }
    EXPECT_TRUE(entry["closed_form"]["meets_targets"].get<bool>()) << name;
    if (rule.settable_at_most) {  // jemalloc: the largest power of two that meets the target
      const double interval = entry["closed_form"]["interval"].get<double>();
      EXPECT_EQ(interval, std::exp2(std::round(std::log2(interval)))) << name;
      EXPECT_GT(targets.total_z() * advisor.evaluate(scheme_named(name), 2 * interval, false).total_relative_rmse, 0.1)
          << name;
      continue;
    }
    EXPECT_LE(targets.total_z() * entry["closed_form"]["total_relative_rmse"].get<double>(), 0.1) << name;
    const double interval = entry["monte_carlo"]["closed_form_interval"].get<double>();
    const AdvicePoint at = advisor.evaluate(scheme_named(name), interval, false);
    EXPECT_LE(targets.total_z() * at.total_relative_rmse, 0.1) << name << " at " << interval;
    const double above = interval + std::max(1.0, std::ceil(0.002 * interval));
    const AdvicePoint missed = advisor.evaluate(scheme_named(name), above, false);
    EXPECT_GT(targets.total_z() * missed.total_relative_rmse, 0.1) << name << " at " << above;
    EXPECT_TRUE(entry["monte_carlo"]["confirmed"].get<bool>()) << name;
  }
  EXPECT_GT(json["frontier"].size(), 20u);
}

// A target met only near the smallest intervals: the search asks each scheme only for
// intervals it accepts, never one it refuses (.NET's least is 2, q = 1 - 1/T > 0).
TEST(Advisor, SearchesOnlyIntervalsEachSchemeAccepts) {
  const Trace trace = mixed_trace();
  AccuracyTargets targets;
  targets.stack_seen = 0.999999;  // met only by sampling (nearly) every allocation
  Advisor advisor(trace, targets);
  for (const auto& s : advised_schemes()) {
    EXPECT_NO_THROW(advisor.evaluate(s, s.least_interval, false)) << s.name;
    EXPECT_NO_THROW(advisor.interval_for_samples(s, 1e12)) << s.name;
  }
  // .NET's interval is fixed: the point there, which does not meet this target.
  const std::optional<AdvicePoint> dotnet = advisor.recommend(scheme_named("dotnet"));
  ASSERT_TRUE(dotnet.has_value());
  EXPECT_FALSE(dotnet->meets);
  EXPECT_GE(dotnet->interval, 2);
  EXPECT_GE(advisor.interval_for_samples(scheme_named("dotnet"), 1e12), 2);
}

// No target given: docs/advice.md's (total +-2%, stacks >= 1% of the bytes within 10%
// MAPE and seen with probability 0.99), said to be the defaults; --threads accepted.
TEST(AdviseCli, TargetsDefaultWhenNoneIsGiven) {
  const auto none = run_cli("advise " + recorded_trace("bc.zst") + " --replications 0 --threads 1", true);
  EXPECT_EQ(none.exit_code, 0) << none.output;
  EXPECT_NE(none.output.find("targets  total within +-2% at 95% confidence; stacks holding >= 1% of bytes: MAPE <= "
                             "10%, seen with probability >= 0.99 (the defaults"),
            std::string::npos)
      << none.output;
  const auto json =
      nlohmann::json::parse(run_cli("advise " + recorded_trace("bc.zst") + " --replications 0 --json").output);
  EXPECT_TRUE(json["default_targets"].get<bool>());
  EXPECT_EQ(json["targets"]["total_error"].get<double>(), 0.02);
}

// The Monte Carlo check's replications run on the pool (counter-based streams, merged
// in order): the whole report is byte-identical on one and on two threads.
// The closed forms of the schemes run on several threads, each scheme's check on
// all of them; the printed advice and every file of --out are the same bytes.
TEST(AdviseCli, OutputDoesNotDependOnTheThreadCount) {
  const testing::ScratchDirectory dir;
  const std::string common = "advise " + recorded_trace("bc.zst") + " --total-error 0.1 --replications 40 --json";
  const auto one = run_cli(common + " --threads 1 --out " + dir.file("one"));
  const auto three = run_cli(common + " --threads 3 --out " + dir.file("three"));
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_EQ(one.output, three.output);
  for (const char* name : {"advice.json", "advice.txt", "frontier.csv", "probability-curves.csv"}) {
    const std::string written = testing::read_bytes(dir.file("one") + "/" + name);
    EXPECT_FALSE(written.empty()) << name;
    EXPECT_EQ(written, testing::read_bytes(dir.file("three") + "/" + name)) << name;
  }
}

// What each real system accepts: jemalloc's interval is 2^lg_prof_sample (a power of
// two, printed with its unit), .NET's is fixed at 102400 B, and every scheme's shipped
// default is evaluated (heapprofd's 4096 B).
TEST(AdviseCli, AdviceIsWhatEachSystemAccepts) {
  const auto r = run_cli("advise " + recorded_trace("bc.zst") + " --total-error 0.05 --replications 0", true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("jemalloc: rounded down to an interval the real system accepts ("), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("dotnet: fixed at 100 KiB in the real system (it cannot be set)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("shipped defaults (closed form)"), std::string::npos) << r.output;
  const auto json = nlohmann::json::parse(
      run_cli("advise " + recorded_trace("bc.zst") + " --total-error 0.05 --replications 0 --json").output);
  for (const auto& entry : json["recommendations"]) {
    const std::string name = entry["scheme"].get<std::string>();
    if (name == "jemalloc") {
      const double interval = entry["closed_form"]["interval"].get<double>();
      EXPECT_EQ(interval, std::exp2(std::round(std::log2(interval))));
      EXPECT_EQ(entry["shipped_default"]["interval"].get<double>(), 524288);
    }
    if (name == "dotnet") {
      EXPECT_EQ(entry["closed_form"]["interval"].get<double>(), 102400);
    }
    if (name == "heapprofd") {
      EXPECT_EQ(entry["shipped_default"]["interval"].get<double>(), 4096);
    }
  }
}

// heapprofd's pass-through cutoff c(T) = 1 + floor(ln 0.01 / ln(1 - 1/T)) ~ 4.6 T
// moves with T. 200 allocations of 64 KiB (13.1 MB) pass through whole (no error)
// while c(T) <= 65536, i.e. up to T = 14227; above, they are sampled and the total's
// relative RMSE jumps from the 100-byte allocations' alone (sqrt(T * 2 MB) / 15.1 MB
// = 1.1% at 14227) to sqrt(T * 15.1 MB) / 15.1 MB = 3.1%. A target of +-2.5% at 95%
// (rRMSE <= 1.28%) is met up to the cutoff and missed just above: the advice is the
// last T whose cutoff still holds 64 KiB, and cliff_above() reports the jump.
TEST(Advisor, ACliffJustAboveTheAdvisedIntervalIsReported) {
  std::vector<std::uint64_t> sizes(200, 65536);
  sizes.insert(sizes.end(), 20000, 100);
  const Trace trace = testing::make_trace(sizes);
  AccuracyTargets targets;
  targets.total_error = 0.025;
  Advisor advisor(trace, targets);
  const auto advised = advisor.recommend(scheme_named("heapprofd"));
  ASSERT_TRUE(advised.has_value());
  EXPECT_LE(heapprofd_p99_threshold(advised->interval), 65536u);
  EXPECT_GT(heapprofd_p99_threshold(std::ceil(1.002 * advised->interval)), 65536u);  // bisected to 0.1%
  const auto cliff = advisor.cliff_above(scheme_named("heapprofd"), *advised);
  ASSERT_TRUE(cliff.has_value());
  EXPECT_GT(cliff->total_relative_rmse, 2 * advised->total_relative_rmse);
  // A smooth neighbourhood is no cliff: tcmalloc (no cutoff) at its own advice.
  const auto smooth = advisor.recommend(scheme_named("tcmalloc"));
  ASSERT_TRUE(smooth.has_value());
  EXPECT_FALSE(advisor.cliff_above(scheme_named("tcmalloc"), *smooth).has_value());
}

TEST(AdviseCli, RejectsImpossibleTargets) {
  const auto bad = run_cli("advise " + recorded_trace("bc.zst") + " --total-error 2", true);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("--total-error: expected a probability in (0, 1)"), std::string::npos);
  EXPECT_EQ(run_cli("advise /nonexistent.zst --total-error 0.1").exit_code, 2);
}

TEST(AdviseCli, RejectsATraceWithoutBytes) {
  const testing::ScratchDirectory dir;
  const std::string trace = dir.file("empty.json");
  testing::write_bytes(trace, R"({"allocations": 10, "sizes": {"distribution": "constant", "size": 0}})");
  const auto r = run_cli("advise " + trace + " --total-error 0.1", true);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(trace + ": no bytes allocated"), std::string::npos) << r.output;
}

TEST(AdviseCli, UnwritableOutputDirectoryIsAnInputError) {
  const testing::ScratchDirectory dir;
  const std::string file = dir.file("a-file");
  testing::write_bytes(file, "not a directory");
  const auto r = run_cli(
      "advise " + recorded_trace("bc.zst") + " --total-error 0.1 --replications 0 --out " + file + "/advice", true);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "allocsim: error: --out \"" + file + "/advice\": " + file + " is not a directory\n");
  EXPECT_EQ(testing::read_bytes(file), "not a directory");
}

}  // namespace
}  // namespace allocsim
