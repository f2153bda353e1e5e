#pragma once
// The SchemeRun adapters a scheme starts: a concrete sampler bound to a trace for
// streaming or skip-ahead replay, and the run that repeats replication 0's streams.
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/scheme.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// Binds a concrete sampler (a value type with a templated replay over lane streams)
// to a trace, so that each replication is a single virtual call.
template <class Sampler>
class SamplerRun final : public SchemeRun {
 public:
  SamplerRun(const Trace& trace, Sampler sampler)
      : trace_(trace), sampler_(std::move(sampler)), lanes_(trace.thread_count) {}

  void replay(const StreamKey& key, std::vector<Observation>& observations) override {
    for (std::size_t t = 0; t < lanes_.size(); ++t) lanes_[t].reset(key, t);
    sampler_.replay(trace_, std::span<RandomStream>(lanes_), observations);
  }

 private:
  const Trace& trace_;
  Sampler sampler_;
  std::vector<RandomStream> lanes_;
};

// The same for a sampler's skip-ahead replay, replay_skip_ahead(trace, index,
// lanes, out). It appends the same observations as replay() but thread by thread,
// not in trace order; only floating-point summation order differs downstream.
template <class Sampler>
class SkipAheadRun final : public SchemeRun {
 public:
  SkipAheadRun(const Trace& trace, const ThreadIndex& index, Sampler sampler)
      : trace_(trace), index_(index), sampler_(std::move(sampler)), lanes_(trace.thread_count) {}

  void replay(const StreamKey& key, std::vector<Observation>& observations) override {
    for (std::size_t t = 0; t < lanes_.size(); ++t) lanes_[t].reset(key, t);
    sampler_.replay_skip_ahead(trace_, index_, std::span<RandomStream>(lanes_), observations);
  }

 private:
  const Trace& trace_;
  const ThreadIndex& index_;
  Sampler sampler_;
  std::vector<RandomStream> lanes_;
};

// Replays every replication with replication 0's random streams: a generator with a
// fixed default seed draws the same sequence in every process, so every process of
// the same program records the same samples.
class SameSequenceRun final : public SchemeRun {
 public:
  explicit SameSequenceRun(std::unique_ptr<SchemeRun> run) : run_(std::move(run)) {}

  void replay(const StreamKey& key, std::vector<Observation>& observations) override {
    StreamKey first = key;
    first.replication = 0;
    run_->replay(first, observations);
  }

 private:
  std::unique_ptr<SchemeRun> run_;
};

}  // namespace allocsim
