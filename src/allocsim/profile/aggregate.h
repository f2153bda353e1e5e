#pragma once
// Many profiles of one program (a fleet, or repeated dumps) pooled into one: per site
// (entries matched as entry_match.h matches them), the summed samples, the sum (or the
// mean over the N profiles) of the system's own estimates, and an interval for the
// true total (or mean) from the pooled counts: exact at one rate, approximate at several.
//
// Independent profiles' counts add. Byte-rate model: profile i's samples are
// Poisson(B_i / T), so the pooled count is Poisson(sum B_i / T), and Garwood's
// interval for it (entry_interval.h) bounds the total true bytes sum B_i.
// Per-allocation models at one rate: profile i's samples are Binomial(n_i, p(s)), so
// the pooled count is Binomial(sum n_i, p(s)), and the Clopper-Pearson interval in n
// bounds the total objects sum n_i. The mean is the total over N, its interval the
// total's over N.
//
// Profiles at different rates (one scheme, one window): each profile's counts stand
// for their own bytes per sample, and the total is a weighted sum of counts, bounded
// by Fay and Feuer's gamma interval (mixed_rate_interval.h; approximate, conservative
// in simulation, not guaranteed). With all rates equal the exact construction above is
// kept.
//
// Detection limit: a site of true bytes B_i in profile i has no sample in any profile
// with probability prod_i exp(-B_i / T_i) under both byte-rate models
// ((1 - p(s))^(n_i) = exp(-n_i s / T_i)), and prod_i (1 - 1/T_i)^(B_i / s) under the
// fixed per-allocation one. At one rate that is exp(-B / T), B = sum B_i: what matters
// is the total, so the bytes a site needs, summed over the N profiles, to appear in at
// least one with probability 0.95 are one profile's detection_limit_bytes, T ln 20 for
// the byte-rate models (its mean per profile that over N). At different rates it
// depends on how the bytes are spread: spread evenly (B/N in each),
// exp(-(B/N) sum_i 1/T_i) = 1/20 gives B = N ln 20 / sum_i (1/T_i) (the fixed model:
// B/(N s) ln(1 - 1/T_i) summed, rounded up to whole objects per profile); all in the
// profile of the largest T, T_max ln 20, the worst case.
#include <cstddef>
#include <string>
#include <vector>

#include "allocsim/profile/entry_interval.h"
#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

struct AggregateEntry {
  std::string stack;  // entry_match.h's key and label
  std::string label;
  double object_size = 0;  // of a mixed record, the pooled sampled bytes over the pooled samples
  bool mixed_sizes = false;
  double samples = 0;  // summed over the profiles
  std::size_t profiles_with_samples = 0;
  double estimate_bytes = 0;  // the system's own estimates, summed (or their mean)
  EntryInterval interval;     // for the true total (or mean)
};

struct Aggregate {
  SamplingModel model;                // the first profile's
  std::vector<SamplingModel> models;  // each profile's, in order
  bool rates_differ = false;
  std::string window;
  std::size_t profiles = 0;
  bool mean = false;
  double level = 0.95;
  std::vector<AggregateEntry> entries;  // largest estimate first
  // True bytes summed over the profiles (per profile with `mean`): spread evenly over
  // them, and (equal to it at one rate) all in the profile of the largest rate.
  double detection_limit_95 = 0;
  double detection_limit_95_worst = 0;
};

// InputError naming the file when the profiles' schemes or windows differ, or none is
// given.
Aggregate aggregate_profiles(const std::vector<HeapProfile>& profiles, double level, bool mean);

}  // namespace allocsim::profile
