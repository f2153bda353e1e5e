#include "allocsim/engine/scheme_replay.h"

namespace allocsim {

SchemeReplay::SchemeReplay(const Scheme& scheme, const Trace& trace, const PreparedScheme& prepared)
    : scheme_(scheme), trace_(trace), layout_(scheme.estimators()), run_(prepared.start()) {}

SchemeReplay::SchemeReplay(const Scheme& scheme, const Trace& trace)
    : scheme_(scheme), trace_(trace), layout_(scheme.estimators()), run_(scheme.start(trace)) {}

void SchemeReplay::replay(const StreamKey& key) {
  observations_.clear();
  run_->replay(key, observations_);
  contributions_.resize(observations_.size() * layout_.width());
  scheme_.weigh(trace_, observations_, contributions_);
}

}  // namespace allocsim
