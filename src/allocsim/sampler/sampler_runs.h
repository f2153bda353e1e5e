#pragma once
// The SchemeRun adapters a scheme starts: a concrete sampler bound to a trace for
// streaming or skip-ahead replay, and the run that repeats replication 0's streams;
// and the prepared scheme that starts them.
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

// A prepared scheme whose runs `start()` makes: a callable that holds by value
// whatever the runs share (parameters, and the trace's derived state through
// std::shared_ptr<const ...>), so that preparing has no state but its own.
template <class Start>
class PreparedRuns final : public PreparedScheme {
 public:
  PreparedRuns(bool skip_ahead, Start start) : skip_ahead_(skip_ahead), start_(std::move(start)) {}
  std::unique_ptr<SchemeRun> start() const override { return start_(); }
  bool skip_ahead() const override { return skip_ahead_; }

 private:
  bool skip_ahead_;
  Start start_;
};

template <class Start>
std::shared_ptr<const PreparedScheme> streaming_runs(Start start) {
  return std::make_shared<const PreparedRuns<Start>>(false, std::move(start));
}
template <class Start>
std::shared_ptr<const PreparedScheme> skip_ahead_runs(Start start) {
  return std::make_shared<const PreparedRuns<Start>>(true, std::move(start));
}

}  // namespace allocsim
