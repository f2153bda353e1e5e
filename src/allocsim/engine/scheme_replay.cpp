#include "allocsim/engine/scheme_replay.h"

namespace allocsim {

SchemeReplay::SchemeReplay(const Scheme& scheme, const Trace& trace)
    : scheme_(scheme), trace_(trace), run_(scheme.start(trace)) {
  for (const EstimatorSpec& spec : scheme.estimators()) {
    first_register_.push_back(register_count_);
    register_count_ += spec.registers;
  }
}

void SchemeReplay::replay(const StreamKey& key) {
  observations_.clear();
  run_->replay(key, observations_);
  contributions_.assign(observations_.size() * register_count_, 0.0);
  scheme_.weigh(trace_, observations_, contributions_);
}

}  // namespace allocsim
