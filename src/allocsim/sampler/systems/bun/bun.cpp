#include "allocsim/sampler/systems/bun/bun.h"

#include <algorithm>
#include <string>

#include "allocsim/json/byte_size.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"

namespace allocsim {
namespace {

class BunScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytesSinceLast, kObjectsSinceLast, kRegisters };

  explicit BunScheme(const MimallocSettings& settings) : settings_(settings) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes_since_last", Quantity::requested_bytes,
         "bytes_since_last_sample per sample: the bytes the thread's countdown was charged since its previous "
         "sample, at block sizes, plus the request (Bun's alloc_space; biased per site, and twice the total "
         "under mimalloc's min reset)"},
        {"objects_since_last", Quantity::count, "max(1, bytes_since_last_sample / s) per sample (Bun's alloc_objects)"},
    };
    return specs;
  }

  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    return streaming_runs([&trace, settings = settings_] {
      return std::make_unique<SamplerRun<MimallocBatchSampler<BunDraw>>>(
          trace, MimallocBatchSampler<BunDraw>(settings, BunDraw{}));
    });
  }

  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kObjectsSinceLast);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double s = static_cast<double>(parked_size(rows[o], kObjectsSinceLast));
      const double credit = observations[o].weight;
      const auto registers = rows[o];
      registers[kBytesSinceLast] = credit;
      registers[kObjectsSinceLast] = s > 0 ? std::max(1.0, std::floor(credit / s)) : 1.0;
    }
  }

 private:
  MimallocSettings settings_;
};

}  // namespace

SchemeDescriptor bun_scheme() {
  std::vector<ParameterInfo> parameters = {
      {"rate",
       "integer",
       kBunDefaultInterval,
       "T: sampleInterval in bytes (--pprof-heap-interval; DEFAULT_SAMPLE_INTERVAL 512 KiB); alias "
       "\"sample_interval\"",
       {"sample_interval"}},
      {"min_interval", "integer", kBunMinInterval,
       "MIN_SAMPLE_INTERVAL: a smaller T is raised to it (64 KiB, one batch); 0: no floor"},
  };
  for (ParameterInfo& p :
       mimalloc_batch_parameters("new", "Bun runs oven-sh/mimalloc with fixes to the hooks allocsim has not read"))
    parameters.push_back(std::move(p));
  return {
      .name = "bun",
      .summary = "Bun.pprof.heap (oven-sh/bun PR #42626): mimalloc's per-thread countdown charged in page-refill "
                 "batches (up to 64 KiB of blocks), next interval clamp(trunc(-ln U T), 1, 16T), T = 512 KiB "
                 "(at least 64 KiB); a sample credits its stack with the bytes since the thread's last sample "
                 "and max(1, those / s) objects.",
      .source = "oven-sh/bun PR #42626 (Bun.pprof.heap: DEFAULT_SAMPLE_INTERVAL, MIN_SAMPLE_INTERVAL, "
                "next_interval, the bucket update); the hooks of microsoft/mimalloc f72b7a0 "
                "src/profile/sample-profile.c via oven-sh/mimalloc",
      .parameters = std::move(parameters),
      .variants = {"U is the replication's uniform on (0, 1], not Bun's xorshift64* state.",
                   "reset \"new\" by default: Bun's mimalloc fork fixes the hooks (oven-sh/mimalloc#40, #43, #44, "
                   "#45, #47), whose code allocsim has not read; \"min\" is upstream's countdown, with which every "
                   "credit also counts max(0, X' - X) bytes never allocated.",
                   "Batches, block sizes and what is not modelled: as the mimalloc scheme (mimalloc_pages.h).",
                   "A sampleInterval below min_interval is raised to it (\"at least 65536\"; whether Bun raises or "
                   "refuses it is not read)."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        MimallocSettings settings = read_mimalloc_settings(params);
        settings.rate = std::max(settings.rate, byte_count(params["min_interval"]));
        return std::make_unique<BunScheme>(settings);
      },
      .rate = SchemeRate{},
      .estimator_legends = {{"objects_since_last", "objects, bytes since the last sample / s (Bun)"}},
  };
}

}  // namespace allocsim
