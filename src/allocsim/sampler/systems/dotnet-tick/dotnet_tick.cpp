#include "allocsim/sampler/systems/dotnet-tick/dotnet_tick.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

#include <string>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/second_layer.h"

namespace allocsim {
namespace {

class AllocationTickScheme final : public Scheme {
 public:
  AllocationTickScheme(std::uint64_t stride, bool reset, double keep) : stride_(stride), reset_(reset), keep_(keep) {
    estimators_.push_back({"bytes", Quantity::requested_bytes,
                           "the bytes each event reports (stride per boundary, or the running amount), "
                           "attributed to the allocation that fired it, divided by keep"});
    if (keep < 1) {
      estimators_.push_back({"bytes_one_layer", Quantity::requested_bytes,
                             "the same not divided by the second layer's keep probability"});
    }
  }

  const std::vector<EstimatorSpec>& estimators() const override { return estimators_; }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, stride = stride_, reset = reset_, keep = keep_] {
      return with_second_layer(
          std::make_unique<SamplerRun<AllocationTickSampler>>(trace, AllocationTickSampler(stride, reset)), keep);
    });
  }

  // The process-wide prefix sums, shared by the runs.
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    auto stream = std::make_shared<const CountedStreams>(AllocationTickSampler::process_stream(trace, index));
    return skip_ahead_runs([&trace, &index, stride = stride_, reset = reset_, keep = keep_, stream] {
      return with_second_layer(std::make_unique<SkipAheadRun<AllocationTickSampler>>(
                                   trace, index, AllocationTickSampler(stride, reset, stream)),
                               keep);
    });
  }

  enum Register : std::size_t { kBytes, kBytesOneLayer };

  // One register per estimator, bytes_one_layer only with keep < 1.
  void weigh(const Trace&, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<> rows(out, observations.size(), estimators_.size());
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const auto registers = rows[o];
      registers[kBytes] = observations[o].weight / keep_;
      if (registers.size() > kBytesOneLayer) registers[kBytesOneLayer] = observations[o].weight;
    }
  }

 private:
  std::uint64_t stride_;
  bool reset_;
  double keep_;
  std::vector<EstimatorSpec> estimators_;
};

}  // namespace

SchemeDescriptor dotnet_tick_scheme() {
  return {
      .name = "dotnet-tick",
      .summary = "The .NET AllocationTick event: deterministic, one event every 100 KB of "
                 "allocated bytes (fixed start and stride), each standing for 100 KB. Biased "
                 "on periodic allocation patterns.",
      .source = "dotnet/runtime docs/design/features/RandomizedAllocationSampling.md, on "
                "AllocationTick; coreclr gc.cpp try_allocate_more_space (release/1.1.0)",
      .parameters = {{"rate",
                      "integer",
                      102400,
                      "bytes between events (etw_allocation_tick = 100 * 1024); alias \"stride\"",
                      {"stride"}},
                     {"mode", "string", "stride",
                      "\"stride\": events at every multiple of the stride of cumulative bytes, each worth "
                      "the stride (the document); \"reset\": running amount > stride fires and resets to "
                      "0, each event worth the running amount (the GC code)"},
                     {"keep", "number", 1.0,
                      "probability that a profiler downstream keeps each event (a second sampling "
                      "layer); bytes divides by it, bytes_one_layer does not"}},
      .variants = {"Document: fixed starting point and stride (\"stride\", the default: first event when "
                   "cumulative bytes reach one stride). Code: `running > etw_allocation_tick` fires, "
                   "reports the running amount and resets it to 0, dropping the overshoot (\"reset\").",
                   "Code: the running amount grows by the size of each new allocation context handed "
                   "to a thread (not per object), per GC heap and separately for small and large "
                   "objects, so the event lands on the object whose allocation needed a new context. "
                   "Not modelled: bytes are counted per object in one process-wide counter."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        const JsonValue rate = params["rate"];
        const std::uint64_t stride = positive_byte_count(rate);
        if (stride > (std::uint64_t{1} << 62)) rate.fail("must be <= 2^62");
        const JsonValue mode = params["mode"];
        if (mode.string() != "stride" && mode.string() != "reset") {
          mode.fail("must be \"stride\" or \"reset\", got \"" + mode.string() + "\"");
        }
        const JsonValue keep = params["keep"];
        if (keep.probability() <= 0) keep.fail("must be > 0");
        return std::make_unique<AllocationTickScheme>(stride, mode.string() == "reset", keep.probability());
      },
      .rate = SchemeRate{},
      .skip_ahead = true,
  };
}

}  // namespace allocsim
