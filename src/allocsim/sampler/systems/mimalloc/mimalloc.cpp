#include "allocsim/sampler/systems/mimalloc/mimalloc.h"

#include <cmath>
#include <string>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/families/exponential_inclusion.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

namespace allocsim {
namespace {

class MimallocScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytesRaw, kCountRaw, kBytesHt, kRegisters };

  explicit MimallocScheme(const MimallocSettings& settings) : settings_(settings) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes_raw", Quantity::requested_bytes,
         "s per sample, not scaled: on_alloc's alloc_bytes, what the dump holds (biased: the sampled fraction)"},
        {"count_raw", Quantity::count, "1 per sample: on_alloc's alloc_count"},
        {"bytes_ht", Quantity::requested_bytes,
         "s / (1 - exp(-s/T)) per sample: a consumer unsampling by the proto's period (biased: the thresholds "
         "are not Exp(T), the countdown restarts at min(old, new), small blocks are candidates once per "
         "refill)"},
    };
    return specs;
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, settings = settings_] {
      return std::make_unique<SamplerRun<MimallocBatchSampler<MimallocDraw>>>(
          trace, MimallocBatchSampler<MimallocDraw>(settings, MimallocDraw{!settings.drawn_start}));
    });
  }

  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kBytesHt);
    const auto rate = static_cast<double>(settings_.rate);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double s = static_cast<double>(parked_size(rows[o], kBytesHt));
      const auto registers = rows[o];
      registers[kBytesRaw] = s;
      registers[kCountRaw] = 1.0;
      registers[kBytesHt] = s * exponential_unsampling_scale(s, rate);
    }
  }

 private:
  MimallocSettings settings_;
};

MimallocReset read_reset(const JsonValue& value) {
  const std::string reset = value.string();
  if (reset == "min") return MimallocReset::min;
  if (reset == "new") return MimallocReset::fresh;
  value.fail("must be \"min\" or \"new\"");
  return MimallocReset::min;
}

}  // namespace

// The parameters the built-in profiler and Bun share (Bun's defaults differ).
std::vector<ParameterInfo> mimalloc_batch_parameters(const char* reset_default, const char* reset_note) {
  return {
      {"batch", "integer", kMimallocBatchBytes,
       "bytes of blocks one page refill hands out (64 KiB): blocks of b bytes are counted floor(batch/b) at a "
       "time, at the refill; b > batch/2 (or batch 0) counts each allocation alone"},
      {"reset", "string", reset_default,
       std::string("the countdown after a sample: \"min\" = min(old threshold, new) with the credit counted from "
                   "the new one (mimalloc f72b7a0, _mi_theap_set_profile_sample_rate's clamp), \"new\" = the new "
                   "threshold (the clamp fixed); ") +
           reset_note},
      {"drawn_start", "boolean", false,
       "every thread starts as after a sample, from drawn thresholds (false: as mimalloc starts them)"},
  };
}

MimallocSettings read_mimalloc_settings(SchemeParameters& params) {
  MimallocSettings settings;
  const JsonValue rate = params["rate"];
  settings.rate = byte_count(rate);
  if (settings.rate == 0 || settings.rate > (std::uint64_t{1} << 40)) rate.fail("must be 1 .. 2^40 bytes");
  settings.batch = byte_count(params["batch"]);
  settings.reset = read_reset(params["reset"]);
  settings.drawn_start = params["drawn_start"].boolean();
  return settings;
}

SchemeDescriptor mimalloc_scheme() {
  std::vector<ParameterInfo> parameters = {
      {"rate",
       "integer",
       kMimallocProfileRate,
       "T: mean threshold in bytes (MIMALLOC_PROFILE_SAMPLE_RATE, mi_option_profile_sample_rate, 16 KiB); "
       "alias \"sample_rate\"",
       {"sample_rate"}},
  };
  for (ParameterInfo& p : mimalloc_batch_parameters("min", "the built-in profiler runs upstream's code"))
    parameters.push_back(std::move(p));
  return {
      .name = "mimalloc",
      .summary = "mimalloc's built-in pprof heap profiler (MIMALLOC_PROFILE): a per-thread countdown charged in "
                 "page-refill batches (up to 64 KiB of blocks), thresholds ~Exp(T) from a clz/Q8 log capped at "
                 "32T, T = 16 KiB; each sample records its raw requested size and 1, unscaled.",
      .source = "microsoft/mimalloc 01b5325 src/profile/pprof.c (mi_exp_sample, on_alloc), f72b7a0 "
                "src/profile/sample-profile.c (_mi_theap_malloc_sampled, _mi_theap_set_profile_sample_rate), "
                "src/alloc/page.c (mi_theap_adjust_sample_countdown), 215439a include/mimalloc-profile.h",
      .parameters = std::move(parameters),
      .variants = {"Batches: one page per size class and thread, floor(batch/b) blocks a refill; frees that "
                   "refill a page from its own free list, padding, and the oversized sampled block are not "
                   "modelled (mimalloc_pages.h).",
                   "Block sizes are mimalloc's bins (8, 16, 32, 48, 64, 80, 96, 112, 128, 160, ...): the "
                   "countdown is charged the block size, the sample records the requested size.",
                   "The random bits are the replication's stream (_mi_theap_random_next is a per-thread "
                   "ChaCha-based generator).",
                   "The raw sums are what the dump holds; bytes_ht is what a consumer unsampling by the "
                   "proto's period would compute, not something mimalloc writes."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        return std::make_unique<MimallocScheme>(read_mimalloc_settings(params));
      },
      .rate = SchemeRate{},
  };
}

}  // namespace allocsim
