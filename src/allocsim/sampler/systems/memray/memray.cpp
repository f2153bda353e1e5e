#include "allocsim/sampler/systems/memray/memray.h"

#include "allocsim/sampler/families/byte_countdown.h"
#include "allocsim/sampler/systems/heapprofd/heapprofd.h"

namespace allocsim {

SchemeDescriptor memray_scheme() {
  return {
      .name = "memray",
      .summary = "Memray's sampling design: one process-wide countdown of floor(Exp(T))+1 gaps "
                 "over requested bytes, leftover carried, weight T*n; allocations of s >= T "
                 "bytes are taken whole at their true size.",
      .source = "Memray documentation 'Sampling' (docs/sampling.rst) and "
                "src/memray/_memray/hooks.cpp of bloomberg/memray PR #94 (8a7a4d1e)",
      .parameters = {{"rate", "integer", kHeapprofdDefaultInterval,
                      "sampling size T, mean bytes between samples (1 <= T <= 2^53; Memray "
                      "ships no default, 4096 as heapprofd)"}},
      .variants = {"Document: 'draw a random number from the exponential distribution'; code (PR #94): "
                   "static_cast<size_t> of the draw plus one, i.e. floor(Exp(T))+1 with per-byte "
                   "probability 1-exp(-1/T): modelled, so bytes = T*n has relative bias ~ -1/(2T) "
                   "below T. The continuous-gap variant without a cutoff is `poisson`.",
                   "Document: 'bigger than the sampling size' in the algorithm, 'bigger or equal' in the "
                   "performance section; code: s >= T. Modelled: s >= T, counter untouched.",
                   "Code: the counter is one global atomic but each thread draws gaps from its own "
                   "thread_local engine; here every gap comes from one stream (same distribution).",
                   "Code: in the PR only native-allocator hooks are sampled; pymalloc allocations are "
                   "tracked in full. Not modelled: every traced allocation is sampled."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        ByteCountdownConfig config;
        config.rate = read_countdown_rate(params);
        config.passthrough_from = static_cast<std::uint64_t>(config.rate);
        config.per_thread = false;
        return make_byte_countdown_scheme(config);
      },
      .rate = SchemeRate{},
      .family = SamplingFamily::poisson_bytes,
      .skip_ahead = true,
  };
}

}  // namespace allocsim
