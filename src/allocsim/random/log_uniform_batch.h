#pragma once
// A lane's draws of ln u, a batch at a time: kBatch uniforms taken from the stream
// in order, then their logarithms in one loop the compiler vectorises
// (portable_logs). For a lane whose every draw is ln u (poisson's gaps), the
// words go to the same draws as one at a time and every draw has the same bits, so
// a replay that batches and one that does not agree exactly. Any other stream
// (a test's scripted one, which must not be read ahead) is drawn one at a time.
#include <concepts>
#include <cstddef>

#include "allocsim/random/portable_log.h"
#include "allocsim/random/random_stream.h"

namespace allocsim {

template <class Stream>
class LogUniformBatch {
 public:
  explicit LogUniformBatch(Stream& stream) : stream_(stream) {}

  double next() {
    if constexpr (!std::same_as<Stream, RandomStream>) {
      return portable_log(stream_.next_uniform());
    } else {
      if (next_ == kBatch) refill();
      return logs_[next_++];
    }
  }

 private:
  static constexpr std::size_t kBatch = 64;

  void refill() {
    double uniforms[kBatch];
    for (double& u : uniforms) u = stream_.next_uniform();
    portable_logs(uniforms, logs_, kBatch);
    next_ = 0;
  }

  Stream& stream_;
  double logs_[kBatch];
  std::size_t next_ = kBatch;
};

}  // namespace allocsim
