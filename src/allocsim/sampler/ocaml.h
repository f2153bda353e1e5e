#pragma once
// `ocaml`: OCaml 5's statmemprof (runtime/memprof.c; J.-H. Jourdan, "Statistically
// profiling memory in OCaml", OCaml Workshop 2016).
//
// The unit is the word, header included: a block for s bytes has wosize =
// ceil(s / 8) words and whsize = wosize + 1. Every word is a Bernoulli(lambda) trial:
// the runtime walks geometric gaps floor(1 + ln u / ln(1 - lambda)) with the
// leftover carried (major heap, and the minor heap's trigger plus Binomial of the
// rest), so a block holds n ~ Binomial(whsize, lambda) samples, independently of
// every other block. The state is per domain (here: per traced thread).
// The callback gets n and wosize; the unbiased estimate is n / lambda words,
// header included. Estimators:
//   bytes: 8 n / lambda against 8 whsize bytes (unbiased);
//   bytes_as_wosize: the same number read as an estimate of the payload (the
//     requested bytes): over by a header word per block, plus the rounding to words;
//   count: n / (lambda whsize) per block (unbiased).
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/skip_ahead.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline std::uint64_t ocaml_whsize(std::uint64_t bytes) { return (bytes + 7) / 8 + 1; }

class OcamlSampler {
 public:
  explicit OcamlSampler(double lambda) : lambda_(lambda) {}
  // For replay_skip_ahead only: `words` is CountedStreams::per_thread over whsize.
  OcamlSampler(double lambda, std::shared_ptr<const CountedStreams> words)
      : lambda_(lambda), words_(std::move(words)) {}

  // The sampled words seen directly: points at 1-based word positions G1, G1 + G2,
  // ... of each domain's word stream; the block holding a point is found by
  // galloping search and the further points inside it counted, drawing from the
  // same lane in the same order as replay(): identical observations.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) const {
    const CountedStreams& streams = *words_;
    for (std::uint32_t t = 0; t < streams.stream_count(); ++t) {
      const std::uint64_t end = streams.total(t);
      std::uint64_t gap = draw(lanes[t]);
      if (gap > end) continue;
      std::uint64_t x = gap - 1;  // 0-based word position of the next point
      std::size_t k = 0;
      while (x < end) {
        k = streams.find(t, x, k);
        const std::uint64_t last = streams.at(t, k + 1) - 1;  // the block's last word
        const std::uint64_t offset = x - streams.at(t, k);
        std::uint64_t samples = 1;
        for (;;) {
          gap = draw(lanes[t]);
          if (gap > last - x) {
            x = gap > end - x ? end : x + gap;  // saturate: nothing beyond end matters
            break;
          }
          x += gap;
          ++samples;
        }
        out.push_back({streams.event(t, k), static_cast<std::uint32_t>(std::min<std::uint64_t>(samples, UINT32_MAX)),
                       offset, static_cast<double>(samples)});
      }
    }
  }

  // Observation: samples = n, offset = the first sampled word's index in the block.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    remaining_.resize(lanes.size());
    for (std::size_t t = 0; t < lanes.size(); ++t) remaining_[t] = draw(lanes[t]);
    const std::uint64_t* requested = trace.requested.data();
    const std::uint32_t* thread = trace.thread.data();
    const std::size_t n = trace.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t words = ocaml_whsize(requested[i]);
      std::uint64_t& remaining = remaining_[thread[i]];  // words up to and including the next sampled one
      if (words < remaining) {
        remaining -= words;
        continue;
      }
      const std::uint64_t offset = remaining - 1;
      std::uint64_t left = words - remaining, samples = 1;
      for (;;) {
        const std::uint64_t gap = draw(lanes[thread[i]]);
        if (gap > left) {
          remaining = gap - left;
          break;
        }
        left -= gap;
        ++samples;
      }
      out.push_back({i, static_cast<std::uint32_t>(std::min<std::uint64_t>(samples, UINT32_MAX)), offset,
                     static_cast<double>(samples)});
    }
  }

 private:
  template <class Stream>
  std::uint64_t draw(Stream& lane) const {
    return geometric_trials_from_uniform(lane.next_uniform(), lambda_);
  }

  double lambda_;
  std::vector<std::uint64_t> remaining_;  // per domain
  std::shared_ptr<const CountedStreams> words_;  // skip-ahead only
};

SchemeDescriptor ocaml_scheme();

}  // namespace allocsim
