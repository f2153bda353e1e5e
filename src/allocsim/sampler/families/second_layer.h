#pragma once
// A second sampling layer downstream of a sampler (a profiler or exporter that
// forwards each sampled allocation with probability `keep`, e.g. a .NET profiler
// sub-sampling AllocationTick events, pyroscope-dotnet#246). The decision for an
// observation is a uniform keyed by (replication, event) on a stream of its own, so
// streaming and skip-ahead replay, which emit observations in different orders, keep
// the same ones, and the sampler's own draws are untouched.
#include <memory>
#include <vector>

#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/scheme.h"

namespace allocsim {

class SecondLayerRun final : public SchemeRun {
 public:
  SecondLayerRun(std::unique_ptr<SchemeRun> run, double keep) : run_(std::move(run)), keep_(keep) {}

  void replay(const StreamKey& key, std::vector<Observation>& observations) override {
    const std::size_t first = observations.size();
    run_->replay(key, observations);
    StreamKey layer = key;
    layer.stream = ~key.stream;  // not a stream any sampler draws from
    std::size_t kept = first;
    for (std::size_t o = first; o < observations.size(); ++o) {
      RandomStream decision(layer, observations[o].event);
      if (decision.next_uniform() <= keep_) observations[kept++] = observations[o];
    }
    observations.resize(kept);
  }

 private:
  std::unique_ptr<SchemeRun> run_;
  double keep_;
};

// `run` thinned by a second layer, or `run` itself when keep = 1.
inline std::unique_ptr<SchemeRun> with_second_layer(std::unique_ptr<SchemeRun> run, double keep) {
  if (run == nullptr || keep >= 1) return run;
  return std::make_unique<SecondLayerRun>(std::move(run), keep);
}

}  // namespace allocsim
