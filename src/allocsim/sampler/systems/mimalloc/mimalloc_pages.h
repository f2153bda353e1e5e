#pragma once
// How mimalloc's sampling hooks see allocations: in page-refill batches (microsoft/mimalloc
// 01b5325, src/alloc/page.c mi_theap_adjust_sample_countdown with MI_SAMPLE == 1,
// src/profile/sample-profile.c _mi_theap_malloc_sampled at f72b7a0,
// include/mimalloc-profile.h at 215439a). Both the built-in pprof profiler (mimalloc.h)
// and Bun's Bun.pprof.heap (systems/bun/bun.h) sit on top of it.
//
// The malloc fast path pops a block off its page's free list and never looks at the
// sampler. Only the generic path (a page whose free list is empty, or an allocation too
// large for a small page) counts bytes against the thread's countdown C:
//   adjust: the blocks the page handed out since its last count, alloc_diff, are
//     counted at the page's block size b: C -= alloc_diff * b (C floors at 0; the
//     excess is carried in sample_requested);
//   should_sample(s): C < s, s the requested size of the allocation on the generic path;
//   sampled: requested_since_last_sample = sample_rate + s - C + sample_requested goes
//     to on_alloc, which returns the next threshold X'. The countdown is first reset to
//     the current rate X (the previous threshold), then _mi_theap_set_profile_sample_rate
//     clamps it to X' ("todo: adjust difference?"): C = min(X, X'), while sample_rate
//     = X'. So (reset "min", upstream at f72b7a0) the next sample comes after min(X, X')
//     bytes, and its requested_since_last_sample counts from X': it exceeds the bytes
//     counted by X' - min(X, X') = max(0, X' - X). For iid Exp(T) thresholds that is a
//     mean interval of T/2 and a mean credit of T per sample: bytes since the last
//     sample sum to twice the bytes allocated. Reset "new" is the fix (C = X', the
//     credit is the bytes counted): Bun's fork carries fixes to these hooks
//     (oven-sh/mimalloc#40, #43, #44, #45, #47) that allocsim has not read, so which
//     reset Bun runs is a parameter.
// So the decision sees a batch: the page's refill hands out up to `batch` bytes of
// blocks (64 KiB, the figure Bun's PR gives: "mimalloc counts small allocations when
// their page is refilled, up to 64 KiB of blocks at a time"), K = floor(batch / b)
// blocks, and only the allocation that finds the free list empty is a candidate. The
// counterpart of HotSpot's TLAB (jvm/jvm_tlab.h), per size class instead of per thread.
// Blocks with K < 2 (b > batch / 2) are counted one by one, each its own candidate.
//
// Model, per thread, per block size b (one page per size class in use):
//   small (K >= 2): a block left on the free list: take it, no decision. Else (refill):
//     count the page's previous blocks (alloc_diff b), then decide on s; if not sampled
//     the allocation is the first block of the new batch, else it is counted in the
//     sample's requested bytes only (mimalloc allocates a sampled block oversized from
//     another page, whose later count includes it again: not modelled);
//   large: decide on s before counting it; if not sampled C -= s.
// Block sizes: mimalloc's bins (mimalloc_block_size): word-rounded, even words up to 8
// words, then 4 bins per doubling. Padding, the oversized sampled block, frees that
// put blocks back on a page's local free list (mimalloc collects them into a new
// batch, so a page that frees refills from its own frees: counted again here as a
// fresh batch of K) and MI_GENERIC_FAST_LIMIT are not modelled.
//
// Closed form, one size class (requests of s bytes in blocks of b, K = floor(batch / b)
// >= 2), stationary: after a sample with countdown C, refill j has charged (j K - 1) b
// bytes when it decides on s, so the sample falls on the first j with
// C - (j K - 1) b < s, i.e. j = floor((C + b - s) / (K b)) + 1, j K allocations after the
// last (C = X under reset "new"; min(X, X') under "min"). For b = s:
//   samples per allocation = 1 / (K (E floor(C / (K b)) + 1))
// against 1 / (E floor(C / b) + 1) if each allocation were a candidate. With
// K b > C (mimalloc's 16 KiB mean against 64 KiB batches) every refill is sampled:
// one sample per K allocations, K b / E[C] times fewer than the bytes would give.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <unordered_map>

namespace allocsim {

inline constexpr std::uint64_t kMimallocBatchBytes = 64 * 1024;

// _mi_bin's block size for a request of s bytes (at least one word).
inline std::uint64_t mimalloc_block_size(std::uint64_t s) {
  std::uint64_t words = (s + 7) / 8;
  if (words <= 1) return 8;
  if (words <= 8) return (words + 1) / 2 * 2 * 8;
  const std::uint64_t w = words - 1;
  const int b = std::bit_width(w) - 1;  // index of the highest set bit, >= 3
  return (((w >> (b - 2)) + 1) << (b - 2)) * 8;
}

// Blocks one refill hands out: floor(batch / b); below 2 the block is counted alone.
inline std::uint64_t mimalloc_blocks_per_refill(std::uint64_t block, std::uint64_t batch) {
  return block == 0 ? 0 : batch / block;
}

// How the countdown restarts after a sample (see above).
enum class MimallocReset { min, fresh };

// One thread's countdown and pages. `allocate` returns whether the allocation of s
// bytes is sampled, and then requested_since_last_sample (s included).
class MimallocThreadPages {
 public:
  // `rate`: the thread's sample_rate (its last threshold); `countdown`: C at the start.
  MimallocThreadPages(std::uint64_t batch, MimallocReset reset, std::uint64_t rate, std::uint64_t countdown)
      : batch_(batch), reset_(reset), rate_(rate), countdown_(std::min(countdown, rate)), excess_(rate - countdown_) {}

  template <class Redraw>
  bool allocate(std::uint64_t s, Redraw&& redraw, std::uint64_t& requested) {
    const std::uint64_t b = mimalloc_block_size(s);
    const std::uint64_t k = mimalloc_blocks_per_refill(b, batch_);
    if (k >= 2) {
      Page& page = pages_[b];
      if (page.free > 0) {  // fast path
        --page.free;
        ++page.handed_out;
        return false;
      }
      count(page.handed_out * b);  // mi_theap_adjust_sample_countdown
      page.handed_out = 0;
      page.free = k - 1;
      if (decide(s, redraw, requested)) return true;
      page.handed_out = 1;
      return false;
    }
    if (decide(s, redraw, requested)) return true;
    count(s);
    return false;
  }

  std::uint64_t countdown() const { return countdown_; }

 private:
  struct Page {
    std::uint64_t free = 0;        // blocks left on the free list
    std::uint64_t handed_out = 0;  // blocks taken since the page's last count
  };

  void count(std::uint64_t bytes) {
    countdown_ = countdown_ >= bytes ? countdown_ - bytes : 0;
    since_ += bytes;
  }

  template <class Redraw>
  bool decide(std::uint64_t s, Redraw&& redraw, std::uint64_t& requested) {
    if (countdown_ >= s) return false;  // mi_theap_should_sample: C < s
    requested = since_ + s + excess_;
    since_ = 0;
    const std::uint64_t next = redraw();
    countdown_ = reset_ == MimallocReset::min ? std::min(rate_, next) : next;
    excess_ = next - countdown_;
    rate_ = next;
    return true;
  }

  std::uint64_t batch_;
  MimallocReset reset_;
  std::uint64_t rate_;       // sample_rate: the last threshold drawn
  std::uint64_t countdown_;  // C
  std::uint64_t excess_;     // sample_rate - C at the last reset: counted in requested, never allocated
  std::uint64_t since_ = 0;  // bytes counted since the previous sample
  std::unordered_map<std::uint64_t, Page> pages_;
};

}  // namespace allocsim
