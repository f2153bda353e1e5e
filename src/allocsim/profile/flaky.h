#pragma once
// Flaky profiler tests: the false-failure rate of the assertions profiler test suites
// write, under a scheme's sampling model (sampling_model.h), and the whole test's.
//
// A test description (JSON) names the scheme, its rate, the workload (a site list as
// margins takes it, or a trace) and the assertions:
//   {"site": "big", "bytes": ["50MiB", "110MiB"]}    the estimate within [lo, hi]
//   {"site": "big", "samples": [1, 40]}               (also "count": the objects estimate)
//   {"site": "big", "share": [0.7, 0.9]}              share of the profile's bytes
//   {"site": "big", "share_at_least": 0.8}
//   {"site": "a", "present": true}                    >= 1 sample ("present": false: none)
//   {"sites_present": 2, "among": ["a", "b", "c"]}    exactly k sites sampled (all if no "among")
//   {"site": "a", "above": "b"}                        a's bytes estimate > b's
//   {"top": ["a", "b"]}                                the N = 2 largest bytes estimates are a, b
// Any assertion may add "bias": b (or the test, for all): its power, P(it fails) when
// the profiler reports (1 + b) times the site's values, comes beside its rate.
//
// Under every model the samples of distinct allocations are independent (binomial per
// size for the per-allocation models, Poisson per size for the byte-rate one, certain
// for pass-through sizes), so distinct sites are independent and each assertion's
// failure probability is exact from the sites' exact distributions (scaled_counts.h):
//   within        P(X < lo) + P(X > hi)
//   share >= x    sum_r P(R = r) P(X < x r / (1 - x)), X the site's bytes, R the rest's
//   present       prod_s P(no sample at size s)      absent: 1 - that
//   exactly k     1 - P(K = k), K Poisson-binomial over the sites' presence
//   A above B     sum_b P(B = b) P(A <= b)
//   top set       1 - sum_m P(M = m) prod_{i in set} P(X_i > m), M the largest outside
// each plus the mass its distributions leave out (a bound below 1e-15). Where a
// distribution would take more atoms than the atom limit, the rate comes from the
// engine (labelled). The whole test: 1 - prod(1 - f_i) when the assertions read
// disjoint sets of sites (independent: exact), else the union bound sum f_i.
//
// A scheme without a sampling model (SchemeDescriptor::family none: heapprofd before
// Android 12, JFR's and dd-trace-rb's adaptive samplers, .NET's tick, ...) has no exact
// distribution: every rate, and every power, comes from the engine (labelled, with its
// one-sided 95% Clopper-Pearson upper bound), the values being the scheme's own
// "bytes" and "count" estimators and its sample points; the tightest band and the
// inverse answer need a model and are stated as unavailable.
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/json/json_reader.h"
#include "allocsim/profile/margin_sites.h"
#include "allocsim/profile/sampling_model.h"
#include "allocsim/profile/scaled_counts.h"
#include "allocsim/sampler/scheme.h"
#include "allocsim/trace/trace.h"

namespace allocsim::profile {

enum class FlakyValue { bytes, samples, count };

struct FlakyAssertion {
  enum class Kind { within, share_within, present, absent, sites_present, above, top };
  Kind kind = Kind::within;
  FlakyValue value = FlakyValue::bytes;  // for within
  std::vector<std::size_t> sites;        // indices into the test's sites (the first is "site")
  double lower = 0, upper = 0;           // the band; share_at_least is [x, 1]; k for sites_present
  std::string text;                      // as a reader states it, units on every number
  std::string path;                      // its JSON path
  // The bias its power is computed against ("bias": b > -1, per assertion or for the
  // whole test): the profiler reports (1 + b) times what an unbiased one would for the
  // assertion's site (a within, share or rank assertion's "site"; a top set's sites).
  std::optional<double> bias;
};

// Whether a bias of the values changes what `a` reads: not for a presence, an absence or
// exactly-k present (a value bias leaves which sites are sampled as it is).
inline bool reads_values(const FlakyAssertion& a) {
  using Kind = FlakyAssertion::Kind;
  return a.kind != Kind::present && a.kind != Kind::absent && a.kind != Kind::sites_present;
}

struct FlakyTest {
  std::optional<SamplingModel> model;  // empty: the scheme has none (every rate by the engine)
  std::string scheme;
  double rate = 0;  // T; 0 for a scheme without a mean interval (its "params" set it)
  std::vector<MarginSite> sites;
  std::vector<FlakyAssertion> assertions;
  // The rate the tightest band of each bytes, count or samples assertion is given at
  // (flaky_rates; `allocsim flaky --target`).
  double band_target = 1e-6;
  // Per site: its allocations before any were taken out (empty: the sizes' counts).
  std::vector<double> allocations;
  // The unseen start (apply_startup_window), kept to take it again at a multiplied
  // workload (scaled_test): its bytes, the sites before it was taken out, and the
  // trace and scheme it came from (both must outlive the test).
  std::uint64_t startup_bytes = 0;
  std::vector<MarginSite> sites_before_start;
  const Trace* start_trace = nullptr;
  const Scheme* start_scheme = nullptr;
};

// A start in which thread 0 samples nothing for its first `startup_bytes` (gperftools'
// main thread, whose first counter is 16 MiB: Scheme parameter startup_counter), then
// samples the allocation that crosses it for certain; the sampling is fresh after it.
// The allocations before take no part in the sites' distributions (value 0 whatever
// the draws) and the crossing one is one certain sample (margin_sites.h:
// unsampled_start, take_out_start, as margins takes it). Sites must be `trace`'s;
// `trace` and `scheme` must outlive the test.
void apply_startup_window(FlakyTest& test, const Trace& trace, const Scheme& scheme, std::uint64_t startup_bytes);

// The assertions of `description` ("$.assertions"), names resolved against `sites`;
// InputError naming the JSON path under `where` for anything wrong.
std::vector<FlakyAssertion> read_assertions(const JsonValue& assertions, const std::vector<MarginSite>& sites);

struct FlakyRate {
  std::optional<double> false_failure;  // empty: no exact distribution (the engine gives it)
  std::string method;                   // "exact", or "by the engine, R replications"
  // Against the assertion's bias: P(it fails when the profiler is biased), exact from
  // the same distributions with the biased site's values times (1 + b) (a bias of the
  // values leaves which sites are sampled as it is: a presence's power is its
  // false-failure rate). Empty without a bias, or until the engine gives it.
  std::optional<double> power{};
  std::string power_method{};
  // Bytes, count or samples assertions: the narrowest band its value leaves with
  // probability at most the test's band_target (margins.h tightest_band), and that
  // band's own rate.
  std::optional<Band> tightest{};
  double tightest_rate = NAN;
  // A rate measured by the engine: the one-sided 95% Clopper-Pearson upper bound on it
  // (fill_rates_from_check), for the emitted test's comment.
  std::optional<double> upper_95{};
};

struct FlakyRates {
  std::vector<FlakyRate> assertions;
  double whole = 0;
  bool independent = true;  // the assertions read disjoint sites: the product is exact
  std::string whole_method;
  std::optional<double> whole_upper_95;  // the whole test's rate measured by the engine: its 95% upper bound
};

// Products an exact distribution may take before the engine is used instead.
inline constexpr std::size_t kFlakyAtomLimit = std::size_t{1} << 22;

FlakyRates flaky_rates(const FlakyTest& test, std::size_t atom_limit = kFlakyAtomLimit);
// The whole test's rate from the assertions' (all given).
void combine_whole(const FlakyTest& test, FlakyRates& rates);

// The engine's count of failures: the scheme's sampler replays `trace` (whose stacks
// are the sites' `stack`), replications [0, R) of seed `seed`; deterministic for any
// thread count. The values are the model's estimates (weight per sample), or without
// a model the scheme's own "bytes" and "count" estimators (InputError naming the
// assertion when it reads one the scheme lacks) and its sample points.
struct FlakyCheck {
  std::uint64_t replications = 0;
  std::vector<std::uint64_t> failures;    // per assertion
  std::vector<std::uint64_t> detections;  // per assertion: failures of the biased run (0 without a bias)
  std::uint64_t any_failure = 0;
  void merge(const FlakyCheck& block);
};
FlakyCheck check_flaky(const FlakyTest& test, const Scheme& scheme, const Trace& trace, std::uint64_t replications,
                       std::uint64_t seed, unsigned threads);

// Assertions whose rate has no exact distribution take the engine's measured rate (and
// power), each with its one-sided 95% upper bound: Clopper-Pearson, the upper end of the
// two-sided 90% interval (count_change.h clopper_pearson).
void fill_rates_from_check(FlakyRates& rates, const FlakyCheck& check);
std::optional<double> measured_upper_95(std::uint64_t failures, std::uint64_t replications);

// The model in words, or what stands for it without one; the interval the test samples
// at ("512 KiB", or "the scheme's params" for a scheme without a mean interval).
std::string model_text(const FlakyTest& test);
std::string rate_text(const FlakyTest& test);
// Without a model: the one line saying what is not available (the tightest band and
// the inverse answer); empty with one.
std::string no_model_note(const FlakyTest& test);

// Whether a measured failure count exceeds the computed rate f: more than 5 standard
// errors (sqrt(f (1 - f) / R)) above f AND P(Binomial(R, f) >= measured) below
// kCheckFalseAlarm (1e-6). The second keeps the false-alarm rate of each comparison
// at most 1e-6 where the normal approximation is poor (R f small).
bool exceeds_rate(std::uint64_t failures, std::uint64_t replications, double false_failure);

// The inverse questions: the smallest workload multiplier m (every site's allocations
// times m, each size's count rounded to a whole allocation; bands of bytes, samples and
// count times m: the same relative band) and the largest sampling interval at most the
// test's that bring the whole test's rate to at most `target`. The multiplier's
// resolution is one allocation of the site with the most (m = N / N0, N whole): the
// answer is the smallest such N, not the next whole multiple. A multiplied workload is
// the workload run m times over (its last run a prefix of the trace when m is not
// whole: the site list's round-robin trace runs its sites evenly): an unseen start is
// taken again from ceil(m) runs (the window is fixed in bytes, so a larger workload
// hides a smaller fraction). Each is searched by doubling (N = N0, 2 N0, ... up to
// 2^20 N0; T, T/2, ... down to 1 byte) to the first that reaches it, then bisection in
// whole allocations (whole bytes) between that one and the one before (the rate need
// not be monotone: an absence fails more often with more samples; the answer is then
// the first reached on that path, or none). `at_rate` gives the test at another
// interval (the scheme's pass-through and start windows depend on it).
//
// With `power_target` P, each must also bring every biased assertion's power (a
// presence's aside: a value bias leaves it as it is) to at least P. Either way the
// answer states the least such power it reaches, against each assertion's own bias.
struct Reached {
  double rate = NAN;            // the whole test's false-failure rate
  std::optional<double> power;  // the least power among the biased assertions; none without one
};
struct FlakyAnswer {
  double target = 1e-6;
  std::optional<double> power_target;
  std::optional<double> multiplier;  // allocations per site times this (N / N0)
  std::optional<double> rate;        // bytes
  Reached at_multiplier, at_rate;
};
FlakyTest scaled_test(const FlakyTest& test, double multiplier);
FlakyAnswer inverse_answer(const FlakyTest& test, double target, const std::function<FlakyTest(double)>& at_rate,
                           std::optional<double> power_target = std::nullopt);
// "rate 2.3e-07; power >= 0.9991 against each stated bias".
std::string reached_text(const Reached& reached);
// Site i's allocations (before an unseen start took any out), and every site's at `multiplier`.
double site_allocations(const FlakyTest& test, std::size_t site);
std::vector<double> allocations_at(const FlakyTest& test, double multiplier);
// The workload at `multiplier`, with its units and `details` in its parentheses: "run
// big >= 18400 times (2.3x its 8000 allocations; DETAILS)", or for several sites "run
// each site 2.3x its allocations: a >= 1024 times, b >= 512 times (DETAILS)".
std::string workload_text(const FlakyTest& test, double multiplier, const std::string& details);
std::string answer_text(const FlakyTest& test, const FlakyAnswer& answer);

// The assertions as code a suite can paste: "gtest" (GoogleTest), "pytest" or "go"
// (testing), each with a comment giving its false-failure rate, the model and
// `command`, which regenerates them. The code reads the profile through functions the
// suite provides: bytes(site), samples(site), count(site), share(site) (of the
// profile's bytes), present(site) (>= 1 sample) and top(n) (the n sites of most
// bytes, as a set). InputError for another language.
std::string emit_test(const FlakyTest& test, const FlakyRates& rates, const std::string& language,
                      const std::string& command);

// A rate as the table prints it ("-" where none), and a measured one with its distance
// from the computed rate `f` in standard errors: "0.0241 (+0.3 SE)".
std::string flaky_rate_text(const std::optional<double>& f);
std::string flaky_measured_text(std::uint64_t failures, std::uint64_t replications, const std::optional<double>& f);

std::string flaky_table(const FlakyTest& test, const FlakyRates& rates, const std::optional<FlakyCheck>& check);
std::string flaky_json(const FlakyTest& test, const FlakyRates& rates, const std::optional<FlakyCheck>& check);

}  // namespace allocsim::profile
