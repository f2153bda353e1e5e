#pragma once
// One replication of a scheme over a trace, without the engine's groups and
// windows: the sampled allocations and each one's registers (Scheme::weigh), for
// callers that tally their own quantities per replication (model moments, the
// advice check). One per worker thread: the buffers are reused.
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/scheme.h"

namespace allocsim {

class SchemeReplay {
 public:
  SchemeReplay(const Scheme& scheme, const Trace& trace);

  // Replays replication `key` (streaming replay) and weighs its observations.
  void replay(const StreamKey& key);

  const std::vector<Observation>& observations() const { return observations_; }
  // Observation o's registers, all estimators' in order (EstimatorSpec::registers each).
  std::span<const double> registers(std::size_t o) const {
    return {contributions_.data() + o * register_count_, register_count_};
  }
  // Where estimator e's registers start within registers(o).
  std::size_t first_register(std::size_t estimator) const { return first_register_.at(estimator); }

 private:
  const Scheme& scheme_;
  const Trace& trace_;
  std::unique_ptr<SchemeRun> run_;
  std::size_t register_count_ = 0;
  std::vector<std::size_t> first_register_;  // per estimator
  std::vector<Observation> observations_;
  std::vector<double> contributions_;
};

}  // namespace allocsim
