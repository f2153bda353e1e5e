#pragma once
// Margins for a profiler correctness test: a test runs a known workload under a
// profiler and asserts that each expected site's value lies in a band. Given the
// scheme's sampling model (sampling_model.h), the sites (margin_sites.h) and a
// false-failure rate `a` for the whole test, each site gets the band its value falls
// outside of with probability at most its share a_i of `a`, and the power of the test
// against a stated bias of one site.
//
// A site's value is a sum over its sizes s of independent scaled counts w_s K_s:
//   per-allocation models  K_s ~ Binomial(n_s, p(s)), w_s = s / p(s) for bytes
//                          (the unbiased scaling of Go, jeprof and pprof), 1 for samples;
//   byte-rate model        K ~ Poisson(B / T) over the whole site, w = T for bytes;
//   pass-through sizes     (sampling_model.h) K_s = n_s, certain, w_s = s for bytes;
//   an unseen start        (margin_workload) its hidden allocations contribute 0, the
//                          one that ends it is one certain sample scaled as any.
// The band is for the estimate as the system reports it: with an unseen start the
// estimate's mean is below the site's true bytes, and the band says so.
// Its exact distribution (scaled_counts.h) gives the band: P(value < lower) and
// P(value > upper) are each at most a_i / 2. Where the sizes are too many for the exact
// distribution, each size gets a band at a_i / (sizes) and the site's band is their
// sum (a union bound: conservative, named "union over sizes"). Byte bands are then
// widened to whole bytes, one byte more per size for systems that truncate each
// record's values to integers (Go), and a relative 1e-9 for rounding.
//
// Splitting `a` over m sites: sampling is independent between allocations under
// these models, so sites are independent and a_i = 1 - (1 - a)^(1/m) (Sidak) makes
// P(any site fails) = 1 - prod(1 - f_i) <= a exactly; "bonferroni" takes a_i = a / m,
// valid under any dependence.
//
// Shares (value share): a site's bytes X over the workload's, X / (X + R) with R the
// bytes of everything else, X and R independent. The band is [x_lo / (x_lo + r_hi),
// x_hi / (x_hi + r_lo)] from the byte bands of X and R at a_i / 2 each, left with
// probability at most a_i (a union bound); shares of different sites are dependent, so
// the split must be Bonferroni, and the power comes from the engine.
//
// Power against a bias b of one site: the profiler reports (1 + b) times what an
// unbiased one would (b = -0.1: a 10% undercount); power = P((1 + b) value is outside
// the band), exact from the same distribution (by the engine for union-over-sizes
// bands: margins_check.h).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/profile/margin_sites.h"
#include "allocsim/profile/sampling_model.h"
#include "allocsim/profile/scaled_counts.h"

namespace allocsim::profile {

enum class MarginValue { bytes, samples, share };

// The smallest false-failure rate for a whole test. A band's own rate counts the mass
// its distribution leaves out, and that is known only as 1 - (the sum of the kept
// atoms) in double precision: to about 2^-53 = 1.1e-16 per count, however far the
// pmf is kept (scaled_counts.h cuts it at 1e-22). A site's share of the rate must
// stand well clear of that; 1e-12 leaves four decades for the split over sites and
// sizes. compute_margins also refuses any site whose band still cannot keep within
// its share.
inline constexpr double kMinFalseFailure = 1e-12;

// The most atoms one count's distribution may take (64 MiB of values and
// probabilities): about 24 standard deviations are kept (the pmf falls below 1e-22
// near 10.3 on either side), so a count of variance above ~3e10 samples (a
// byte-rate site of 3e10 expected samples) is refused instead of built.
inline constexpr double kMaxCountAtoms = 1 << 22;
enum class FailureSplit { sidak, bonferroni };

struct MarginOptions {
  double false_failure = 1e-6;  // for the whole test
  FailureSplit split = FailureSplit::sidak;
  double bias = -0.1;
  MarginValue value = MarginValue::bytes;
  // Products a site's exact convolution may take before the union bound is used.
  std::size_t atom_limit = std::size_t{1} << 22;
};

struct SiteMargin {
  MarginSite site;
  double expected = 0;  // the value's mean: true bytes, or expected samples
  double lower = 0, upper = 0;
  double false_failure = 0;     // P(outside the band) under the model (exact, or the union bound)
  bool exact = true;            // false: a union bound (over sizes, or for a share)
  std::optional<double> power;  // P(biased value outside the band); empty until the engine gives it
  std::string power_method;
};

struct Margins {
  SamplingModel model;
  MarginOptions options;
  double site_false_failure = 0;  // a_i, each site's budget
  std::vector<SiteMargin> sites;
  // P(any site fails) under the model: 1 - prod(1 - f_i) (independent sites), and the
  // union bound sum f_i.
  double whole_false_failure = 0;
  double union_bound = 0;
};

// `whole` is the whole workload as one site (whole_workload), needed for shares.
// InputError naming the flag for an impossible option (a rate outside
// [kMinFalseFailure, 1), a bias <= -1, no site, Sidak's split for shares), for a
// site whose band cannot keep within its share of the rate, and for a site whose
// distribution would need more than kMaxCountAtoms atoms per count.
Margins compute_margins(const SamplingModel& model, const std::vector<MarginSite>& sites, const MarginOptions& options,
                        const MarginSite& whole = {});

// The sites of `trace` holding at least `min_share` of its bytes (sites_of_trace) and
// the whole workload (whole_workload), as `scheme` allocates them, with the start the
// scheme cannot see (model.unsampled_start: gperftools' main thread's first 16 MiB)
// taken out of both (margin_sites.h: its hidden allocations left out, the one that
// ends it certain, as `allocsim flaky` takes it).
struct MarginWorkload {
  std::vector<MarginSite> sites;
  MarginSite whole;
};
MarginWorkload margin_workload(const Trace& trace, const Scheme& scheme, const SamplingModel& model, double min_share);

// The narrowest band of the value whose exact distribution is `x` (a site's: `site`,
// `value`; scaled_counts.h) that it leaves with probability at most `false_failure`:
// each tail at most (false_failure - x.dropped) / 2, then widened as every margin is
// (whole bytes, a byte per record for systems that truncate, 1e-9 for rounding).
// `its_rate`, when given, gets the band's own rate (<= false_failure).
Band tightest_band(const ScaledCounts& x, const MarginSite& site, MarginValue value, double false_failure,
                   double* its_rate = nullptr);

// What one sample at an allocation of `size` bytes adds to the value.
double sample_weight(const SamplingModel& model, MarginValue value, double size);

std::string value_name(MarginValue value);                             // "bytes", "samples", "share"
std::string split_name(FailureSplit split);                            // "sidak", "bonferroni"
std::string band_method(const SiteMargin& margin, MarginValue value);  // how its band was computed

}  // namespace allocsim::profile
