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
    per_thread_carried_skip_ahead(*words_, Words<Stream>{trials_, nullptr, lanes, out});
  }

  // Observation: samples = n, offset = the first sampled word's index in the block.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    per_thread_carried(trace, next_, Words<Stream>{trials_, &trace.requested, lanes, out});
  }

 private:
  // OCaml's countdown: each domain's geometric gaps over the words of its blocks
  // (header included); a block holding n points is recorded with n samples.
  template <class Stream>
  struct Words {
    const GeometricTrials& trials;
    const SizeColumn* requested;  // streaming only
    std::span<Stream> lanes;
    std::vector<Observation>& out;

    std::uint64_t units(std::size_t i) const { return ocaml_whsize((*requested)[i]); }
    void record(std::size_t i, std::uint64_t offset, std::uint64_t samples) {
      out.push_back({i, sample_count(samples), offset, static_cast<double>(samples)});
    }
    std::uint64_t redraw(std::size_t t) { return trials(lanes[t].next_uniform()); }
  };

  GeometricTrials trials_;                       // p = lambda
  std::vector<std::uint64_t> next_;              // per domain: word position of its next point
  std::shared_ptr<const CountedStreams> words_;  // skip-ahead only
};

SchemeDescriptor ocaml_scheme();

}  // namespace allocsim
