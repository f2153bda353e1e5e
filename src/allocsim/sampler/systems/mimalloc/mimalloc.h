#pragma once
// `mimalloc`: mimalloc's built-in pprof heap profiler (MIMALLOC_PROFILE=<base>;
// microsoft/mimalloc 01b5325 src/profile/pprof.c mi_exp_sample, on_alloc,
// _mi_pprof_profiler_init; hooks in include/mimalloc-profile.h at 215439a, "still
// experimental"; the countdown in src/profile/sample-profile.c at f72b7a0).
//
// Which allocation is sampled: mimalloc's page-refill batching (mimalloc_pages.h): the
// countdown is charged by the blocks a page handed out, at the page's block size, when
// the page's free list runs dry; the allocation that refills it (or any allocation too
// big for a batch, counted one by one) is sampled when the countdown is below its size.
//
// Thresholds, mi_exp_sample(T): r = 64 random bits | 1, lz = clz(r), frac = the 8 bits
// after the leading one, bits = lz + frac/256 (Q8, a stand-in for -log2 U), ln = bits
// * 177/256 (Q8 ln 2), next = floor(ln_q8 T / 256) + 1, capped at 32 T. lz + frac/256
// is not -log2 U: it is uniform on [k, k + 1) with probability 2^-(k+1), mean 1.5 (vs
// 1/ln 2), so the thresholds have mean ~1.037 T (mimalloc_mean_threshold, exact) and a
// piecewise-uniform, not exponential, law. Default T: mi_option_profile_sample_rate,
// 16 KiB. The first thresholds: mi_profiler_start sets the main thread's rate to 1 (its
// first two generic-path allocations are sampled, mimalloc_pages.h's min reset); every
// other thread starts at T (profiler.initial_sample_rate), not drawn.
//
// What it records: on_alloc adds requested_size and 1 to the sampled stack's
// alloc_bytes and alloc_count; the dump (text "heap profile: ... @ heapprofile", or
// profile.proto with `period` T) writes those raw sampled sums. A consumer that reads
// them as the heap (pprof's default view) gets
//   bytes_raw: sum over samples of s, expectation sum_i s_i pi_i,
// relative bias = (sampled fraction of the site's bytes) - 1: for a site of 64-byte
// objects at T = 16 KiB one sample per 64 KiB refill, -99.90 % (figure
// mimalloc-batching); count_raw likewise. bytes_ht (s / (1 - e^(-s/T)) per sample) is what
// a consumer unsampling by the proto's period would compute (Go's and gperftools'
// rule): biased as well, because the thresholds are not Exp(T), the min reset halves
// the mean interval, and batching makes small blocks candidates once per refill.
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/mimalloc/mimalloc_pages.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline constexpr std::uint64_t kMimallocProfileRate = 16 * 1024;

// mi_exp_sample for the 64 random bits `bits` (before the | 1) and mean T.
inline std::uint64_t mimalloc_exp_sample(std::uint64_t bits, std::uint64_t scale) {
  if (scale == 0) return 0;
  const std::uint64_t r = bits | 1;
  const int lz = std::countl_zero(r);
  const std::uint64_t frac_q8 = lz >= 63 ? 0 : (r << (lz + 1)) >> 56;  // r == 1: the shift by 64 (UB in C) read as 0
  const std::uint64_t bits_q8 = (static_cast<std::uint64_t>(lz) << 8) | frac_q8;
  const std::uint64_t ln_q8 = (bits_q8 * 177) >> 8;
  const std::uint64_t next = ((ln_q8 * scale) >> 8) + 1;
  const std::uint64_t cap = scale * 32;
  return next > cap ? cap : next;
}

// The law of mi_exp_sample(T): each (lz, frac) with probability 2^-(lz+1) / 256
// (lz < 63; lz = 63 is r = 1, probability 2^-63, folded into lz = 62). `visit(value, p)`.
template <class Visit>
void mimalloc_threshold_law(std::uint64_t scale, Visit&& visit) {
  for (int lz = 0; lz < 63; ++lz) {
    const double p = std::ldexp(1.0, -(lz + 1)) / 256 * (lz == 62 ? 2.0 : 1.0);
    for (std::uint64_t frac = 0; frac < 256; ++frac) {
      const std::uint64_t bits = (std::uint64_t{1} << (63 - lz)) | (frac << (55 - lz > 0 ? 55 - lz : 0));
      visit(mimalloc_exp_sample(lz >= 56 ? (std::uint64_t{1} << (63 - lz)) : bits, scale), p);
    }
  }
}

// E[mi_exp_sample(T)]: ~1.037 T.
inline double mimalloc_mean_threshold(std::uint64_t scale) {
  double mean = 0;
  mimalloc_threshold_law(scale, [&](std::uint64_t v, double p) { mean += p * static_cast<double>(v); });
  return mean;
}

// E[floor(X / u)] for X = mi_exp_sample(T).
inline double mimalloc_mean_floor(std::uint64_t scale, std::uint64_t u) {
  double mean = 0;
  mimalloc_threshold_law(scale, [&](std::uint64_t v, double p) { mean += p * static_cast<double>(v / u); });
  return mean;
}

struct MimallocSettings {
  std::uint64_t rate = kMimallocProfileRate;  // T
  std::uint64_t batch = kMimallocBatchBytes;  // bytes of blocks one refill hands out
  MimallocReset reset = MimallocReset::min;
  bool drawn_start = false;  // every thread starts as after a sample (tests), not as mimalloc does
};

// Replays the trace thread by thread state (one countdown and page set per thread);
// observation weight = requested_since_last_sample.
template <class Draw>
class MimallocBatchSampler {
 public:
  MimallocBatchSampler(const MimallocSettings& settings, Draw draw) : settings_(settings), draw_(draw) {}

  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    threads_.clear();
    for (std::size_t t = 0; t < lanes.size(); ++t) {
      std::uint64_t rate = settings_.rate, countdown = settings_.rate;
      if (settings_.drawn_start) {
        countdown = draw_(lanes[t], settings_.rate);
        rate = draw_(lanes[t], settings_.rate);
        if (settings_.reset == MimallocReset::fresh) countdown = rate;
      } else if (t == 0 && draw_.main_thread_starts_at_one) {
        rate = countdown = 1;
      }
      threads_.emplace_back(settings_.batch, settings_.reset, rate, countdown);
    }
    const std::size_t n = trace.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t t = trace.thread[i];
      std::uint64_t requested = 0;
      if (threads_[t].allocate(
              trace.requested[i], [&] { return draw_(lanes[t], settings_.rate); }, requested))
        out.push_back({i, 1, 0, static_cast<double>(requested)});
    }
  }

 private:
  MimallocSettings settings_;
  Draw draw_;
  std::vector<MimallocThreadPages> threads_;
};

// mi_exp_sample from the lane's 64 bits (_mi_theap_random_next).
struct MimallocDraw {
  bool main_thread_starts_at_one = true;  // mi_profiler_start
  template <class Stream>
  std::uint64_t operator()(Stream& lane, std::uint64_t scale) const {
    return mimalloc_exp_sample(lane.next_u64(), scale);
  }
};

// Shared with Bun's scheme (systems/bun/): the batching parameters, read back.
std::vector<ParameterInfo> mimalloc_batch_parameters(const char* reset_default, const char* reset_note);
MimallocSettings read_mimalloc_settings(SchemeParameters& params);

SchemeDescriptor mimalloc_scheme();

}  // namespace allocsim
