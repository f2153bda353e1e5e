#include "allocsim/sampler/systems/memleak/memleak.h"

#include <cmath>

#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

namespace allocsim {
namespace {

// A program allocating 1 GiB a second: the rate clock's default pace.
constexpr std::uint64_t kMemleakAllocRate = std::uint64_t{1} << 30;

class MemleakScheme final : public Scheme {
 public:
  enum Estimator : std::size_t { kBytesRaw, kCountRaw, kBytes, kCount, kEstimators };

  MemleakScheme(std::uint64_t every, MemleakClock clock) : every_(every), clock_(clock) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes_raw", Quantity::requested_bytes,
         "s per kept allocation, not scaled: memleak's size column (live_: its outstanding bytes)"},
        {"count_raw", Quantity::count, "1 per kept allocation: memleak's allocation count"},
        {"bytes", Quantity::requested_bytes, "N s per kept allocation: the raw bytes scaled by -s N"},
        {"count", Quantity::count, "N per kept allocation: the raw count scaled by -s N"},
    };
    return specs;
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, every = every_, clock = clock_] {
      return std::make_unique<SamplerRun<MemleakSampler>>(trace, MemleakSampler(every, clock));
    });
  }

  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const double every = static_cast<double>(std::max<std::uint64_t>(every_, 1));
    const RegisterRows<kEstimators> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kCount);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double s = static_cast<double>(parked_size(rows[o], kCount));
      const auto registers = rows[o];
      registers[kBytesRaw] = s;
      registers[kCountRaw] = 1.0;
      registers[kBytes] = every * s;
      registers[kCount] = every;
    }
  }

  // Each allocation is kept with probability pi = gcd(g, N)/N under the random phase
  // (memleak.h): the group's bias is the sum of the marginals' biases. The inclusions
  // are dependent, so the variance and P(>= 1 sample) are known only for a group of
  // one allocation, or when pi = 1 (everything kept).
  EstimatorTheory theory(std::size_t estimator) const override {
    EstimatorTheory theory = per_allocation_theory(this, &MemleakScheme::allocation_theory, estimator);
    const bool all_kept = memleak_kept_fraction(clock_.granularity, every_) == 1.0;
    theory.group = [all_kept](const GroupTotals& truth, const AllocationTheory& sums) {
      TheoryValues values;
      values.bias = sums.bias;
      if (truth.count == 1 || all_kept) {
        values.var = sums.variance;
        values.p_any_sample = -std::expm1(sums.log_p_none);
      }
      return values;
    };
    return theory;
  }

 private:
  AllocationTheory allocation_theory(std::size_t estimator, const Trace& trace, std::size_t i) const {
    const double pi = memleak_kept_fraction(clock_.granularity, every_);
    const double every = static_cast<double>(std::max<std::uint64_t>(every_, 1));
    const bool bytes = estimator == kBytesRaw || estimator == kBytes;
    const double truth = bytes ? static_cast<double>(trace.requested[i]) : 1.0;
    const double weight = (estimator == kBytes || estimator == kCount) ? every * truth : truth;
    return {pi * weight - truth, weight * weight * pi * (1 - pi), pi == 1.0 ? -INFINITY : std::log1p(-pi)};
  }

  std::uint64_t every_;
  MemleakClock clock_;
};

}  // namespace

SchemeDescriptor memleak_scheme() {
  std::vector<ParameterInfo> parameters = {
      {"rate",
       "integer",
       1,
       "N: keep an allocation iff bpf_ktime_get_ns() % N == 0 (-s/--sample-rate, \"sample every N-th "
       "allocation\"); N <= 1 keeps every allocation; alias \"sample_rate\"",
       {"sample_rate"}},
      {"clock_granularity_ns", "integer", 1,
       "g: the clocksource's period in ns; readings are multiples of g (1 on a GHz TSC, 100 on Hyper-V's "
       "reference TSC page, 1000 on a 1 MHz timer, 4000000 on jiffies at HZ = 250)"},
      {"clock_jitter_ns", "integer", 0,
       "J: each clock read is late by a uniform 0 .. J - 1 ns, independently per allocation (0: none)"},
  };
  for (ParameterInfo& p : wall_clock_parameters(kMemleakAllocRate)) parameters.push_back(std::move(p));
  return {
      .name = "memleak",
      .summary = "bcc/libbpf-tools memleak -s N: an allocation is kept iff the kernel's monotonic clock in ns "
                 "is a multiple of N; kept allocations report their raw size and count, not scaled. On a "
                 "clock of period g the kept fraction is gcd(g, N)/N, not 1/N.",
      .source = "iovisor/bcc 6d0a964 libbpf-tools/memleak.bpf.c (gen_alloc_enter), libbpf-tools/memleak.c "
                "(print_outstanding_allocs), tools/memleak.py (SAMPLE_EVERY_N)",
      .parameters = std::move(parameters),
      .variants = {"The clock is a model: readings g * floor((t + phi + U)/g), phase phi uniform over "
                   "lcm(g, N) per replication, jitter U per allocation; an NTP-slewed clocksource is not "
                   "modelled. With clock \"trace\", t is on the trace's own tick (1 ms for heaptrack): a "
                   "lattice of its own unless clock_jitter_ns covers a tick.",
                   "bytes and count (scaled by N) are what a reader of the raw report would compute, not "
                   "what memleak prints (bytes_raw, count_raw).",
                   "Sizes are the requested sizes (memleak records the malloc argument); min/max size "
                   "filters, the -o age filter and failed allocations are not modelled."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue rate = params["rate"];
        const std::uint64_t every = rate.positive_uint();
        if (every > (std::uint64_t{1} << 31)) rate.fail("must be at most 2^31");
        MemleakClock clock;
        const JsonValue granularity = params["clock_granularity_ns"];
        clock.granularity = granularity.positive_uint();
        if (clock.granularity > (std::uint64_t{1} << 32)) granularity.fail("must be at most 2^32 ns");
        clock.jitter = params["clock_jitter_ns"].uint();
        clock.wall = read_wall_clock(params);
        return std::make_unique<MemleakScheme>(every, clock);
      },
      .rate = SchemeRate{.unit = RateUnit::allocations},
      .estimator_legends = {{"bytes_raw", "bytes, sampled sizes summed (unscaled)"}},
  };
}

}  // namespace allocsim
