#include "allocsim/sampler/systems/go/go.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/exponential_inclusion.h"

namespace allocsim {

std::uint64_t go_counted_size(const Trace& trace, std::size_t i, bool tiny, std::vector<GoTinyBlock>& blocks) {
  const std::uint64_t s = trace.requested[i];
  if (s == 0) return 0;
  if (tiny && s < kGoTinySize) return blocks[trace.thread[i]].counted(s);
  return go_slot_size(s);
}

namespace {

// pprof's scaleHeapSample (protomem.go) on one record's raw (count, bytes); R <= 1
// leaves them unscaled. Go's own arithmetic, 1 / (1 - math.Exp(-avg/R)), rather
// than exponential_unsampling_scale's expm1: the int64 truncation that follows
// turns a last-bit difference at an integer into a whole count.
std::pair<double, double> scale_heap_sample(double count, double bytes, double rate) {
  if (count == 0 || bytes == 0) return {0, 0};
  if (rate <= 1) return {count, bytes};
  const double scale = 1 / (1 - std::exp(-(bytes / count) / rate));
  return {static_cast<double>(static_cast<std::int64_t>(count * scale)),
          static_cast<double>(static_cast<std::int64_t>(bytes * scale))};
}

std::vector<EstimatorSpec> go_estimators(std::uint32_t periods) {
  std::vector<EstimatorSpec> specs = {
      {"bytes", Quantity::allocated_bytes, "u / (1 - exp(-u/R)) per sample (slot size u), unrounded"},
      {"count", Quantity::count, "1 / (1 - exp(-u/R)) per sample, unrounded"},
      {"bytes_merged", Quantity::allocated_bytes,
       "scaleHeapSample on the group's raw (count, bytes), int64: the profile's value for one "
       "(stack, size) record, merge-then-scale for a mixed group",
       2},
      {"count_merged", Quantity::count, "the count of the same scaleHeapSample call", 2},
  };
  if (periods > 1) {
    specs.push_back({"bytes_delta_then_scale", Quantity::allocated_bytes,
                     "scaleHeapSample (int64) on each time span's raw delta, summed over the spans",
                     2 * std::size_t{periods}});
    specs.push_back(
        {"count_delta_then_scale", Quantity::count, "the counts of the same calls", 2 * std::size_t{periods}});
  }
  return specs;
}

class GoScheme final : public Scheme {
 public:
  // bytes, count, the raw (bytes, count) of each merged estimator, then from kSpans
  // with periods k > 1 the raw (bytes, count) of each span, once per delta estimator.
  enum Register : std::size_t { kBytes, kCount, kRawBytes, kRawCount, kRawBytesForCount, kRawCountForCount, kSpans };

  explicit GoScheme(const GoConfig& config) : config_(config), estimators_(go_estimators(config.periods)) {}

  const std::vector<EstimatorSpec>& estimators() const override { return estimators_; }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs(
        [&trace, config = config_] { return std::make_unique<SamplerRun<GoSampler>>(trace, GoSampler(config)); });
  }

  // Not for the pre-1.12 bypass (those allocations redraw without a sample point)
  // or R = 1 (every allocation, no draws).
  std::shared_ptr<const PreparedScheme> prepare_skip_ahead(const Trace& trace,
                                                           const ThreadIndex& index) const override {
    if (config_.bypass || config_.rate == 1) return nullptr;
    // The threads' counted-size prefix sums, shared by the runs: each thread's
    // events in trace order, as go_counted_size needs (its tiny block is per thread).
    std::vector<GoTinyBlock> blocks(trace.thread_count);
    auto counted = std::make_shared<const CountedStreams>(CountedStreams::per_thread(
        index, [&](std::uint64_t i) { return go_counted_size(trace, i, config_.tiny, blocks); }));
    return skip_ahead_runs([&trace, &index, config = config_, counted] {
      return std::make_unique<SkipAheadRun<GoSampler>>(trace, index, GoSampler(config, counted));
    });
  }

  // Registers: bytes, count, then raw (bytes, count) twice (one pair per merged
  // estimator); with periods k, raw (bytes, count) of each span twice more.
  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const std::size_t k = config_.periods;
    const RegisterRows<> rows(out, observations.size(), k > 1 ? kSpans + 4 * k : kSpans);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double u = observations[o].weight;
      const double scale = weight_scale(u);
      const auto registers = rows[o];
      std::fill(registers.begin(), registers.end(), 0.0);
      registers[kBytes] = u * scale;
      registers[kCount] = scale;
      registers[kRawBytes] = registers[kRawBytesForCount] = u;
      registers[kRawCount] = registers[kRawCountForCount] = 1.0;
      if (k > 1) {
        const std::size_t span = period_of(trace, observations[o].event);
        registers[kSpans + 2 * span] = registers[kSpans + 2 * k + 2 * span] = u;
        registers[kSpans + 1 + 2 * span] = registers[kSpans + 1 + 2 * k + 2 * span] = 1.0;
      }
    }
  }

  double finalize(std::size_t estimator, std::span<const double> registers) const override {
    if (estimator < 2) return registers[0];
    if (estimator < 4) {
      const auto [count, bytes] = scale_heap_sample(registers[1], registers[0], config_.rate);
      return estimator == 2 ? bytes : count;
    }
    double total = 0;
    for (std::size_t span = 0; span < config_.periods; ++span) {
      const auto [count, bytes] = scale_heap_sample(registers[2 * span + 1], registers[2 * span], config_.rate);
      total += estimator == 4 ? bytes : count;
    }
    return total;
  }

  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    const std::uint64_t s = trace.requested[i];
    if (config_.tiny && s < kGoTinySize) return s;  // inside a 16-byte block (0 for size 0)
    return s == 0 ? 0 : go_slot_size(s);
  }

  // Allocations are sampled independently (go.h); the tiny allocator decides
  // deterministically which allocation counts a block, so with tiny the theory is
  // still exact: an opener carries 16 bytes for the block, the others are never seen.
  EstimatorTheory theory(std::size_t estimator) const override {
    if (estimator >= 2) return {};
    return {[this, estimator](const Trace& trace, const EstimatorTheory::BlockVisitor& visit) {
              std::vector<GoTinyBlock> blocks(trace.thread_count);
              visit_in_blocks(
                  trace.size(),
                  [&](std::size_t i) {
                    return theory_of(estimator, trace, i, go_counted_size(trace, i, config_.tiny, blocks));
                  },
                  visit);
            },
            {}};
  }

 private:
  // Allocation i's theory when the runtime counts `counted` bytes for it.
  AllocationTheory theory_of(std::size_t estimator, const Trace& trace, std::size_t i, std::uint64_t counted) const {
    const double u = static_cast<double>(counted);
    const double truth = estimator == 0 ? static_cast<double>(allocated_size(trace, i)) : 1.0;
    if (u == 0) return {-truth, 0.0, 0.0};  // the runtime never counts a zero-byte slot, at any rate
    const double scale = weight_scale(u);
    const double weight = estimator == 0 ? u * scale : scale;
    const bool always = config_.rate == 1 || (config_.bypass && u >= config_.rate);
    const double mean = always ? 0.0 : std::min(config_.rate, kGoMaxMean);
    return weighted_inclusion_theory(u, mean, weight, truth);
  }

  // Which of the k equal spans of the trace's time allocation i falls in.
  std::size_t period_of(const Trace& trace, std::uint64_t i) const {
    const double first = static_cast<double>(trace.time.front());
    const double length = static_cast<double>(trace.time.back()) - first + 1;
    const auto span = static_cast<std::size_t>((static_cast<double>(trace.time[i]) - first) / length *
                                               static_cast<double>(config_.periods));
    return std::min<std::size_t>(span, config_.periods - 1);
  }

  double weight_scale(double u) const {
    return config_.rate <= 1 ? 1.0 : exponential_unsampling_scale(u, config_.rate);
  }

  GoConfig config_;
  std::vector<EstimatorSpec> estimators_;
};

}  // namespace

SchemeDescriptor go_scheme() {
  return {
      .name = "go",
      .summary = "Go 1.19 runtime.MemProfileRate: per-P countdown of floor(~Exp(R))+1 bytes over "
                 "slot sizes, sampled when the slot reaches it, leftover discarded; pprof "
                 "scaleHeapSample 1/(1-exp(-u/R)) per (stack, size) record.",
      .source = "golang/go runtime/malloc.go, mprof.go, sizeclasses.go, fastlog2.go, "
                "pprof/protomem.go (Go 1.19)",
      .parameters = {{"rate", "integer", static_cast<std::uint64_t>(kGoDefaults.rate),
                      "runtime.MemProfileRate R in bytes (1: every allocation)"},
                     {"faithful", "boolean", kGoDefaults.faithful,
                      "draw with the runtime's wyrand fastrand, 26-bit q and table fastlog2 (false: an "
                      "ideal exponential, floor + 1)"},
                     {"tiny", "boolean", kGoDefaults.tiny,
                      "treat 1..15-byte allocations as pointer-free (noscan): the tiny allocator counts "
                      "one 16-byte block per opening allocation and nothing for the ones that fit"},
                     {"bypass", "string", kGoDefaults.bypass ? "rate" : "none",
                      "\"none\" (Go >= 1.12); \"rate\": Go <= 1.11 always sampled u >= R and pprof "
                      "still scaled it (issue 26618)"},
                     {"periods", "integer", kGoDefaults.periods,
                      "k > 1 adds the delta-then-scale estimators over k equal time spans of the trace"}},
      .variants = {"Counted size: the slot (size class, or whole 8 KiB pages above 32 KiB), which is "
                   "also the record's size; size 0 is never counted.",
                   "Trigger: Go 1.19 tests u < nextSample (decrement) else sample; newer Go subtracts "
                   "first and samples when the int64 counter goes negative, a one-byte shift.",
                   "faithful=true: per-P wyrand state seeded from the thread's stream (the runtime "
                   "seeds per M from the clock), q = fastrandn(2^26) + 1, int32(min(0, fastlog2(q) - "
                   "26) * (-ln 2 R)) + 1 with R clamped to 0x7000000.",
                   "bytes and count are the per-record pprof scaling without int64 truncation; "
                   "bytes_merged / count_merged apply scaleHeapSample with truncation to the whole "
                   "group (exact when the group is one (stack, size) record).",
                   "Not modelled: GC cycles (in-use profiles publish the last completed cycle) and the "
                   "legacy text format's heap/2R header."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        GoConfig config;
        const JsonValue rate = params["rate"];
        if (positive_byte_count(rate) > 0x7FFFFFFFu) rate.fail("must be at most 2^31 - 1 (MemProfileRate is an int)");
        config.rate = static_cast<double>(positive_byte_count(rate));
        config.faithful = params["faithful"].boolean();
        config.tiny = params["tiny"].boolean();
        const JsonValue periods = params["periods"];
        if (periods.positive_uint() > 1000) periods.fail("must be at most 1000");
        config.periods = static_cast<std::uint32_t>(periods.positive_uint());
        const JsonValue bypass = params["bypass"];
        if (bypass.string() != "none" && bypass.string() != "rate") {
          bypass.fail("must be \"none\" or \"rate\", got \"" + bypass.string() + "\"");
        }
        config.bypass = bypass.string() == "rate";
        return std::make_unique<GoScheme>(config);
      },
      .rate = SchemeRate{},
      .family = SamplingFamily::per_allocation_exponential,
      .skip_ahead = true,
      .profile_formats = {"pprof", "go heap text"},
      .conformance = {go_driver()},
      .estimator_legends = {{"bytes_merged", "bytes, merged per record then scaled (int64)"},
                            {"count_merged", "count, merged per record then scaled (int64)"},
                            {"bytes_delta_then_scale", "bytes, each time span's delta scaled then summed"},
                            {"count_delta_then_scale", "count, each time span's delta scaled then summed"}},
  };
}

}  // namespace allocsim
