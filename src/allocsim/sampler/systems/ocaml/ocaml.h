#pragma once
// `ocaml`: OCaml 5's statmemprof (runtime/memprof.c; J.-H. Jourdan, "Statistically
// profiling memory in OCaml", OCaml Workshop 2016).
//
// The unit is the word, header included: a block for s bytes has wosize =
// ceil(s / 8) words and whsize = wosize + 1. Every word is a Bernoulli(lambda) trial:
// the runtime walks geometric gaps floor(1 + ln u / ln(1 - lambda)) with the
// leftover carried (countdown_carry.h) (major heap, and the minor heap's trigger plus Binomial of the
// rest), so a block holds n ~ Binomial(whsize, lambda) samples, independently of
// every other block. The state is per domain (here: per traced thread).
// The callback gets n and wosize; the unbiased estimate is n / lambda words,
// header included. Estimators:
//   bytes: 8 n / lambda against 8 whsize bytes (unbiased);
//   bytes_as_wosize: the same number read as an estimate of the payload (the
//     requested bytes): over by a header word per block, plus the rounding to words;
//   count: n / (lambda whsize) per block (unbiased).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/countdown_carry.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/families/skip_ahead.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline std::uint64_t ocaml_whsize(std::uint64_t bytes) { return (bytes + 7) / 8 + 1; }

class OcamlSampler {
 public:
  explicit OcamlSampler(double lambda) : trials_(lambda) {}
  // For replay_skip_ahead only: `words` is CountedStreams::per_thread over whsize.
  OcamlSampler(double lambda, std::shared_ptr<const CountedStreams> words)
      : trials_(lambda), words_(std::move(words)) {}

  // The sampled words seen directly (countdown_carry.h): the block holding a point
  // is found by galloping search and the further points inside it counted, drawing
  // from the same lane in the same order as replay(): identical observations.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) const {
    const CountedStreams& streams = *words_;
    for (std::uint32_t t = 0; t < streams.stream_count(); ++t) {
      carried_skip_ahead(
          streams, t, [&] { return draw(lanes[t]); }, NoDeterministicPoints{},
          [&](std::size_t k, std::uint64_t offset, std::uint64_t samples) {
            out.push_back({streams.event(t, k), sample_count(samples), offset, static_cast<double>(samples)});
          });
    }
  }

  // Observation: samples = n, offset = the first sampled word's index in the block.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    next_.resize(lanes.size());
    const SizeColumn& requested = trace.requested;
    const ThreadColumn& thread = trace.thread;
    carried_countdown_replay(
        trace.size(), std::span<std::uint64_t>(next_), [&](std::size_t i) { return thread[i]; },
        [&](std::size_t i) { return ocaml_whsize(requested[i]); }, [&](std::size_t t) { return draw(lanes[t]); },
        NoDeterministicPoints{}, [&](std::size_t i, std::uint64_t offset, std::uint64_t samples) {
          out.push_back({i, sample_count(samples), offset, static_cast<double>(samples)});
        });
  }

 private:
  template <class Stream>
  std::uint64_t draw(Stream& lane) const {
    return trials_(lane.next_uniform());
  }

  GeometricTrials trials_;  // p = lambda
  std::vector<std::uint64_t> next_;  // per domain: word position of its next point
  std::shared_ptr<const CountedStreams> words_;  // skip-ahead only
};

SchemeDescriptor ocaml_scheme();

}  // namespace allocsim
