#pragma once
// Scripted random sources, for hand-computed mechanism tests.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace allocsim::testing {

// Uniforms for scripting an exponential draw -T ln u with mean T:
// uniform_for_next gives the draw whose floor(.) + 1 is `next` (Go, the JVM),
// uniform_for_interval the one whose trunc(.) is `interval` (tcmalloc, gperftools,
// accumulators). Both aim at the middle of the target's unit interval.
inline double uniform_for_next(double next, double mean) { return std::exp(-(next - 0.5) / mean); }
inline double uniform_for_interval(double interval, double mean) { return std::exp(-(interval + 0.5) / mean); }

// A random stream that replays given values, for hand-computed mechanism tests.
// next_uniform() returns the scripted uniforms in order; next_u64() the scripted
// words. Running out is a test error, never a silent wrap-around.
class ScriptedStream {
 public:
  explicit ScriptedStream(std::vector<double> uniforms, std::vector<std::uint64_t> words = {})
      : uniforms_(std::move(uniforms)), words_(std::move(words)) {}

  double next_uniform() {
    if (next_uniform_ >= uniforms_.size()) throw std::logic_error("scripted uniforms exhausted");
    return uniforms_[next_uniform_++];
  }
  std::uint64_t next_u64() {
    if (next_word_ >= words_.size()) throw std::logic_error("scripted words exhausted");
    return words_[next_word_++];
  }
  std::size_t uniforms_used() const { return next_uniform_; }
  std::size_t words_used() const { return next_word_; }

 private:
  std::vector<double> uniforms_;
  std::vector<std::uint64_t> words_;
  std::size_t next_uniform_ = 0;
  std::size_t next_word_ = 0;
};

}  // namespace allocsim::testing
