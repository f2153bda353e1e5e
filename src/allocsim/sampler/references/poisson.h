#pragma once
// `poisson`: the idealised exponential-countdown sampler of the heapprofd design
// document (Perfetto docs/design-docs/heapprofd-sampling.md, "Implementation", step
// 3): each traced thread keeps the
// distance to its next sample point; an allocation of s requested bytes subtracts s,
// and every time the distance falls to or below zero a fresh Exp(mean T) gap is
// added and one more sample is counted. The gaps are continuous, so sample points
// form a Poisson process of rate 1/T over each thread's byte stream and the number
// of points in a group of S bytes is exactly Poisson(S/T), whatever the split of the
// bytes into allocations (memorylessness).
// Estimators: bytes = T * n per sampled allocation (the document's "multiply the
// number of samples by the sampling rate"); count = 1 / (1 - e^(-s/T)) per sampled
// allocation (Horvitz-Thompson, since P(sampled) = 1 - e^(-s/T)).
#include <span>
#include <vector>

#include "allocsim/random/log_uniform_batch.h"
#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/point_batches.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

class PoissonSampler {
 public:
  explicit PoissonSampler(double mean_gap) : mean_gap_(mean_gap) {}

  // The same process seen from the sample points: thread t's points sit at
  // x1 = gap1, x2 = x1 + gap2, ... along its byte stream (the prefix sums of its
  // requested sizes); each point falls in the event whose bytes contain it, found
  // a batch of points at a time (point_batches.h). Draws come from the same lane in
  // the same order as replay(), their logarithms a batch at a time.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& index, std::span<Stream> lanes,
                         std::vector<Observation>& out) const {
    const CountedStreams streams = CountedStreams::requested(index);
    for (std::uint32_t t = 0; t < streams.stream_count(); ++t) {
      const double end = static_cast<double>(streams.total(t));
      double x = 0;
      LogUniformBatch<Stream> log_uniforms(lanes[t]);
      batched_points<double>(
          streams, t,
          [&](double& next) {
            x += exponential_from_log_uniform(log_uniforms.next(), mean_gap_);
            next = x;
            return x < end;
          },
          [&](std::size_t k, double first, std::uint64_t points) {
            const auto offset = static_cast<std::uint64_t>(first - static_cast<double>(streams.at(t, k)));
            out.push_back({streams.event(t, k), sample_count(points), offset, 0.0});
          });
    }
  }

  // Each thread's points sit at the running sums x of its gaps, in absolute byte
  // positions of its stream, as in replay_skip_ahead: the same arithmetic, so the
  // two place every point in the same event at the same offset, bit for bit (a
  // countdown that subtracts each size would round differently, and about once in
  // 10^7 points put one a byte or an event away).
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    position_.resize(lanes.size());
    bytes_before_.assign(lanes.size(), 0);
    for (std::size_t t = 0; t < lanes.size(); ++t) position_[t] = draw_gap(lanes[t]);
    const SizeColumn& size = trace.requested;
    const ThreadColumn& thread = trace.thread;
    const std::size_t n = trace.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t t = thread[i];
      double& x = position_[t];
      const std::uint64_t begin = bytes_before_[t], end = begin + size[i];
      bytes_before_[t] = end;
      // The event holds byte floor(x) when begin <= floor(x) < end.
      if (static_cast<std::uint64_t>(x) >= end) continue;
      Observation obs{i, 0, static_cast<std::uint64_t>(x - static_cast<double>(begin)), 0.0};
      do {
        ++obs.samples;
        x += draw_gap(lanes[t]);
      } while (static_cast<std::uint64_t>(x) < end);
      out.push_back(obs);
    }
  }

 private:
  template <class Stream>
  double draw_gap(Stream& stream) const {
    return exponential_from_uniform(stream.next_uniform(), mean_gap_);
  }

  double mean_gap_;
  std::vector<double> position_;             // per thread: its next point
  std::vector<std::uint64_t> bytes_before_;  // per thread: requested bytes before the event
};

SchemeDescriptor poisson_scheme();

}  // namespace allocsim
