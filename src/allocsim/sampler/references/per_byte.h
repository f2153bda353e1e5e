#pragma once
// `per-byte`: the exact reference every byte-rate sampler approximates. Each byte
// of each allocation is an independent Bernoulli trial with probability p = 1/T
// (Perfetto docs/design-docs/heapprofd-sampling.md, "Conceptual motivation"; Memray
// docs/sampling.rst, "Bernoulli process"), so a group
// of S bytes holds Binomial(S, 1/T) sampled bytes. One uniform per byte: slow, meant
// for small traces and tests.
// Estimators: bytes = T * n; count = 1 / (1 - (1 - 1/T)^s) per sampled allocation.
#include <cmath>
#include <span>
#include <vector>

#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

class PerByteSampler {
 public:
  explicit PerByteSampler(double rate) : threshold_(threshold_for(1.0 / rate)) {}

  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    const std::size_t n = trace.size();
    for (std::size_t i = 0; i < n; ++i) {
      Stream& stream = lanes[trace.thread[i]];
      Observation obs{i, 0, 0, 0.0};
      const std::uint64_t size = trace.requested[i];
      for (std::uint64_t b = 0; b < size; ++b) {
        if (stream.next_u64() < threshold_) {
          if (obs.samples == 0) obs.offset = b;
          ++obs.samples;
        }
      }
      if (obs.samples > 0) out.push_back(obs);
    }
  }

 private:
  // A raw 64-bit word below p * 2^64 has probability p to within 2^-64.
  static std::uint64_t threshold_for(double p) {
    const double scaled = std::ldexp(p, 64);
    return scaled >= 0x1.0p64 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(scaled);
  }

  std::uint64_t threshold_;
};

SchemeDescriptor per_byte_scheme();

}  // namespace allocsim
