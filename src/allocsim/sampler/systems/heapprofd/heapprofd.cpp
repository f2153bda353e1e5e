#include "allocsim/sampler/systems/heapprofd/heapprofd.h"

#include <cmath>
#include <string>

#include "allocsim/sampler/families/byte_countdown.h"

namespace allocsim {
namespace {

std::uint64_t passthrough_from(const std::string& rule, double rate) {
  if (rule == "p99") return heapprofd_p99_threshold(rate);
  if (rule == "rate") return static_cast<std::uint64_t>(rate);
  return kNoPassthrough;
}

SchemeDescriptor heapprofd_descriptor(std::string name, std::string default_passthrough) {
  const bool pre12 = default_passthrough == "rate";
  return {
      .name = std::move(name),
      .summary = pre12 ? "heapprofd before Android 12: as `heapprofd`, but allocations of s >= T bytes pass "
                         "through at their true size."
                       : "Perfetto heapprofd: floor(Exp(T))+1 gaps counted down over requested bytes, leftover "
                         "carried (several samples per allocation), weight T*n; allocations with a >99% "
                         "chance of a sample pass through at their true size; counts are raw.",
      .source = "Perfetto src/profiling/memory/sampler.cc; heapprofd sampling design document "
                "(Perfetto docs/design-docs/heapprofd-sampling.md)",
      .parameters = {{"rate", "integer", kHeapprofdDefaultInterval, "sampling_interval_bytes T (1 <= T <= 2^53)"},
                     {"passthrough", "string", default_passthrough,
                      "\"p99\": s >= 1+floor(ln 0.01/ln(1-1/T)) (Android 12+); \"rate\": s >= T (before "
                      "Android 12); \"none\": every allocation goes through the countdown"},
                     {"counter", "string", "process",
                      "\"process\": one counter and engine per heap, shared by all threads (current code); "
                      "\"thread\": one per thread (the original ThreadLocalSamplingData)"},
                     {"seeding", "string", "process",
                      "\"process\": each process (replication) draws its own gaps; \"default\": the "
                      "engine's default seed, the same gaps in every process"}},
      .variants =
          {"Code: gaps floor(Exp(T))+1, per-byte probability 1-exp(-1/T), so bytes = T*n has "
           "relative bias T(1-exp(-1/T))-1 ~ -1/(2T); the document's idealised Bernoulli(1/T) "
           "per byte is `per-byte`, its continuous exponential countdown `poisson`.",
           "Code: pass-through allocations are recorded without touching the counter; the "
           "document only says the size is 'returned directly'. The comparison (>=) of the p99 "
           "cutoff is assumed, as in the old s >= T rule.",
           "Code: count is 1 per sampled allocation (HeapTracker allocation_count), not an "
           "estimate (`count_raw`); `count` is the Horvitz-Thompson estimate the code does not "
           "report.",
           "Document before Android 12 (appendix): pass-through at s >= T: passthrough \"rate\", "
           "or the `heapprofd-pre12` scheme.",
           "Code: one default-seeded engine per heap; the random source here is the "
           "replication's stream (same distribution), or with seeding \"default\" the same "
           "stream in every replication (every process repeats one realisation). Adaptive sampling (interval doubling "
           "under shared-memory pressure) is not modelled."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        ByteCountdownConfig config;
        config.rate = read_countdown_rate(params);
        const JsonValue passthrough = params["passthrough"];
        const std::string rule = passthrough.string();
        if (rule != "p99" && rule != "rate" && rule != "none") {
          passthrough.fail("must be \"p99\", \"rate\" or \"none\", got \"" + rule + "\"");
        }
        config.passthrough_from = passthrough_from(rule, config.rate);
        const JsonValue counter = params["counter"];
        if (counter.string() != "process" && counter.string() != "thread") {
          counter.fail("must be \"process\" or \"thread\", got \"" + counter.string() + "\"");
        }
        config.per_thread = counter.string() == "thread";
        const JsonValue seeding = params["seeding"];
        if (seeding.string() != "process" && seeding.string() != "default") {
          seeding.fail("must be \"process\" or \"default\", got \"" + seeding.string() + "\"");
        }
        config.same_sequence = seeding.string() == "default";
        return make_byte_countdown_scheme(config);
      },
      .rate = SchemeRate{},
      .family = pre12 ? SamplingFamily::none : SamplingFamily::poisson_bytes,
      .skip_ahead = true,
      .advice = pre12 ? std::nullopt : std::optional<AdviceRule>(AdviceRule{}),
  };
}

}  // namespace

std::uint64_t heapprofd_p99_threshold(double rate) {
  // T = 1: ln(1 - 1/T) = -inf, the quotient is 0 and every allocation passes through.
  return 1 + static_cast<std::uint64_t>(std::floor(std::log(0.01) / std::log1p(-1.0 / rate)));
}

SchemeDescriptor heapprofd_scheme() { return heapprofd_descriptor("heapprofd", "p99"); }

SchemeDescriptor heapprofd_pre12_scheme() { return heapprofd_descriptor("heapprofd-pre12", "rate"); }

}  // namespace allocsim
