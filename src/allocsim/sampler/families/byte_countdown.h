#pragma once
// The byte countdown shared by `heapprofd` and `memray` (Perfetto
// src/profiling/memory/sampler.cc and bloomberg/memray PR #94 hooks.cpp).
//
// Gap: G = floor(E) + 1 with E ~ Exp(mean T), i.e. static_cast of a
// std::exponential_distribution draw plus one. P(G > k) = P(E >= k) = e^(-k/T), so
// G is exactly geometric on {1, 2, ...} with per-byte probability p' = 1 - e^(-1/T)
// (not 1/T).
// Countdown: the counter holds the bytes up to and including the next sample
// point; an allocation of s bytes subtracts s and, while the counter is <= 0, adds
// a fresh G and counts one sample. The overshoot is carried (countdown_carry.h), so the sample points
// are an exact Bernoulli(p') process over the byte stream the counter sees and an
// allocation of s bytes holds n ~ Binomial(s, p') of them, independently of every
// other allocation: P(n = 0) = (1 - p')^s = e^(-s/T).
// Pass-through: an allocation of s >= passthrough_from bytes is recorded whole at
// its true size (samples 1, offset 0, weight s), without touching the counter or
// drawing.
// Weight: T * n below the cutoff, s at or above it. E[T n] = s T p', so the byte
// estimate has relative bias T (1 - e^(-1/T)) - 1 = -1/(2T) + 1/(6T^2) - ...
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/json/json_reader.h"
#include "allocsim/random/log_uniform_batch.h"
#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/countdown_carry.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/scheme.h"
#include "allocsim/sampler/scheme_parameters.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline constexpr std::uint64_t kNoPassthrough = std::numeric_limits<std::uint64_t>::max();
// Largest mean gap accepted: keeps every gap (at most ~36.7 T for u >= 2^-53) an
// exact uint64.
inline constexpr double kMaxCountdownRate = 0x1.0p53;

// G = floor(E) + 1, E = -T ln u, from ln u already drawn (log_uniform_batch.h) or from u.
inline std::uint64_t floor_exponential_plus_one_from_log(double log_u, double mean) {
  return static_cast<std::uint64_t>(exponential_from_log_uniform(log_u, mean)) + 1;
}
inline std::uint64_t floor_exponential_plus_one(double u, double mean) {
  return floor_exponential_plus_one_from_log(portable_log(u), mean);
}

// What the countdown's skip-ahead replay searches, built once per (scheme, trace):
// the counters' byte streams (one per thread, or the whole trace for a process-wide
// counter) with prefix sums of the counted sizes, where a pass-through allocation
// counts 0 bytes (it never touches the counter), and the list of pass-through
// allocations (all recorded).
struct ByteCountdownStreams {
  CountedStreams streams;
  std::vector<std::uint64_t> passthrough;  // trace indices, in trace order
};

inline ByteCountdownStreams make_byte_countdown_streams(const Trace& trace, const ThreadIndex& index,
                                                        std::uint64_t passthrough_from, bool per_thread) {
  std::vector<std::uint64_t> passthrough;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (trace.requested[i] >= passthrough_from) passthrough.push_back(i);
  }
  const SizeColumn& size = trace.requested;
  auto counted = [&](std::uint64_t i) { return size[i] >= passthrough_from ? 0 : size[i]; };
  const bool plain = passthrough.empty();  // the counted sizes are the requested ones
  if (per_thread || index.thread_count() == 1) {
    return {plain ? CountedStreams::requested(index) : CountedStreams::per_thread(index, counted),
            std::move(passthrough)};
  }
  return {CountedStreams::whole_trace(trace.size(), counted), std::move(passthrough)};
}

class ByteCountdownSampler {
 public:
  // per_thread: one counter per traced thread (lanes[thread]); else one process-wide
  // counter drawing from lanes[0].
  ByteCountdownSampler(double mean_gap, std::uint64_t passthrough_from, bool per_thread)
      : mean_gap_(mean_gap), passthrough_from_(passthrough_from), per_thread_(per_thread) {}
  // For replay_skip_ahead: the streams of make_byte_countdown_streams with the same
  // passthrough_from and per_thread.
  ByteCountdownSampler(double mean_gap, std::uint64_t passthrough_from, bool per_thread,
                       std::shared_ptr<const ByteCountdownStreams> streams)
      : mean_gap_(mean_gap),
        passthrough_from_(passthrough_from),
        per_thread_(per_thread),
        streams_(std::move(streams)) {}

  // The same sample points seen from the points (countdown_carry.h), drawing from
  // the same lane in the same order as replay() (one stream after another):
  // identical observations; the pass-through allocations come last.
  template <class Stream>
  void replay_skip_ahead(const Trace& trace, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) const {
    const CountedStreams& streams = streams_->streams;
    // Counter c's lane feeds its gaps only, so their logarithms are drawn a batch at
    // a time (log_uniform_batch.h): the same draws as one at a time.
    for (std::uint32_t c = 0; c < streams.stream_count(); ++c) {
      LogUniformBatch<Stream> log_uniforms(lanes[c]);
      const auto draw = [&](std::size_t) {
        return floor_exponential_plus_one_from_log(log_uniforms.next(), mean_gap_);
      };
      Gaps<decltype(draw)> gaps{*this, nullptr, out, draw};
      carried_skip_ahead(streams, c, c, gaps);
    }
    for (const std::uint64_t i : streams_->passthrough) {
      out.push_back({i, 1, 0, static_cast<double>(trace.requested[i])});
    }
  }

  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    const auto draw = [&](std::size_t c) { return floor_exponential_plus_one(lanes[c].next_uniform(), mean_gap_); };
    if (per_thread_) {
      per_thread_carried(trace, next_, Gaps<decltype(draw)>{*this, &trace.requested, out, draw});
      return;
    }
    next_.resize(1);
    Gaps<decltype(draw)> gaps{*this, &trace.requested, out, draw};
    carried_countdown_replay(
        trace.size(), std::span<std::uint64_t>(next_), [](std::size_t) { return 0; }, gaps);
  }

 private:
  // The byte countdown: geometric gaps over requested bytes, per thread or one for
  // the process (counter c draws from lane c); an allocation holding n points is
  // recorded with weight T n, one at or above the cutoff whole, outside the countdown;
  // draw(c) is counter c's next gap.
  template <class Draw>
  struct Gaps {
    const ByteCountdownSampler& sampler;
    const SizeColumn* size;  // streaming only
    std::vector<Observation>& out;
    Draw draw;

    std::uint64_t units(std::size_t i) const { return (*size)[i]; }
    bool passes_through(std::size_t, std::uint64_t u) const { return u >= sampler.passthrough_from_; }
    void record_whole(std::size_t i, std::uint64_t u) { out.push_back({i, 1, 0, static_cast<double>(u)}); }
    void record(std::size_t i, std::uint64_t offset, std::uint64_t points) {
      out.push_back({i, sample_count(points), offset, sampler.weight(points)});
    }
    std::uint64_t redraw(std::size_t c) { return draw(c); }
  };

  double weight(std::uint64_t points) const { return mean_gap_ * static_cast<double>(points); }

  double mean_gap_;
  std::uint64_t passthrough_from_;
  bool per_thread_;
  std::vector<std::uint64_t> next_;                      // per counter: position of its next point
  std::shared_ptr<const ByteCountdownStreams> streams_;  // skip-ahead only
};

struct ByteCountdownConfig {
  double rate = 0;  // T, from the system's parameters (its default in its descriptor)
  std::uint64_t passthrough_from = kNoPassthrough;
  bool per_thread = true;
  bool same_sequence = false;  // a default-seeded engine: every process draws the same gaps
};

// The scheme over ByteCountdownSampler. Estimators, all with per-allocation theory:
//   bytes     = T n below the cutoff, s at or above (requested bytes; biased by
//               T p' - 1 per byte below the cutoff)
//   count     = 1 / (1 - e^(-s/T)) below the cutoff, 1 at or above (Horvitz-Thompson)
//   count_raw = 1 per sampled allocation (what the profile shows; biased)
std::unique_ptr<Scheme> make_byte_countdown_scheme(const ByteCountdownConfig& config);

// Reads the optional integer "rate" (T, 1 <= T <= 2^53) of a countdown scheme.
double read_countdown_rate(SchemeParameters& params);

}  // namespace allocsim
