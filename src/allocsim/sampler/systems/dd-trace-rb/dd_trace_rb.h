#pragma once
// `dd-trace-rb`: the allocation profiler of Datadog's Ruby profiler (DataDog/dd-trace-rb
// at cf0d441, ext/datadog_profiling_native_extension/collectors_discrete_dynamic_sampler.c
// and collectors_cpu_and_wall_time_worker.c on_newobj_event / rescued_sample_allocation;
// collectors_thread_context.c thread_context_collector_sample_allocation and
// thread_context_collector_sample_skipped_allocation_samples; the 2.0 % setting in
// lib/datadog/core/configuration/settings.rb; landscape-2026.md §1 item (3)).
//
// Events: every object allocation (RUBY_INTERNAL_EVENT_NEWOBJ), one process-wide
// discrete_dynamic_sampler. Systematic sampling, no coin:
//   should_sample: e = ++events_since_last_sample; sampled iff interval k > 0 and e >= k.
// A sample has weight w = e (the events since the previous sample, this one included);
// the site gets alloc-samples = min(w, 10 000) (MAX_ALLOC_WEIGHT) and
// alloc-samples-unscaled = 1; the excess w - 10 000 goes to a placeholder stack,
// "(Skipped Samples)", not to any site. Objects only: no bytes are reported for
// allocations (heap-live-size, size x weight, is the experimental heap profile).
// The sample itself takes wall time (a stack walk): sample_ns here, measured by the
// real sampler between before_sample and after_sample.
//
// Retuning (discrete_dynamic_sampler_readjust), checked after every sample and on every
// skipped event: when 1 s has passed since the last readjustment or 100 samples were
// taken in it. With W the window's wall time, n its events, m its samples, S its
// sampling time, a = 0.6 min(W / 1 s, 1) (the first window: a = 1):
//   events_per_ns   <- (1 - a) events_per_ns + a n / W
//   sampling_time   <- (1 - a) sampling_time + a min(S / m, 10 ms)   (only when m > 0;
//                      truncated to integer ns, as the C `long`)
//   adjustment      <- (1 - a) adjustment - a min(c, max(0, S - W c / 100) 100 / W)
//   c'              = max(0, c + adjustment)   (percent; c = the target)
//   p               = min(1, (c'/100) / (events_per_ns sampling_time (1 - c'/100))),
//   k               = ceil(1 / p)              (0, i.e. off, when p = 0)
// The target c is half of overhead_target_percentage when allocation profiling is on
// (2.0 by default: c = 1 %). Reset at the start: k = 1 and the first event is sampled.
// Start-up: with k = 1 the first window is 100 back-to-back samples, a share x/(1 + x) of
// its wall time sampling (x = E s); from x >= 2c/(100 - 2c) (0.02: 2000 objects/s at
// 10 us) the adjustment is -c, the target 0, p = 0 and k = 0 (off) until
// the next window closes 1 s later; the first sample after that weighs the whole
// second's events, and all but 10 000 of them go to Skipped Samples.
// Steady state at a constant rate of E objects per second of program time, x = E s:
// the sampling fraction f = x / (k + x) settles where the adjustment offsets the
// overshoot, c' = 2c - f with f = c'/(1 - c'), so k = x (1 - 2c') / c' (~98.5 x at
// c = 1 %); datadog_ruby_steady_interval below.
//
// Estimators (what the pprof carries):
//   count     = min(w, 10 000) per sample: "alloc-samples" at the object's site.
//               Per site, each event between two samples goes to the later sample's
//               site: unbiased for any site at a constant k under a uniform phase, biased
//               when k moves (a site allocating in bursts while the process's rate
//               changes: the events since the last sample, drawn at the old k, land on
//               the first site sampled at the new one) and low by 1 - 10 000 / k when
//               k > 10 000 (E s > ~102: 10 M objects/s at 10 us a sample);
//   count_raw = 1 per sample: "alloc-samples-unscaled";
//   skipped   = w - min(w, 10 000): the "(Skipped Samples)" placeholder's value; allocsim
//               credits it to the triggering site's group so that its total over the
//               groups is the placeholder's, but the real profile shows it under no site.
//   count_unclamped = w = count + skipped: the events up to the last sample, all counted
//               (alloc-samples as it would be without the clamp).
// The trace's tail after the last sample is never weighed (the real profiler carries it
// into the next sample, in the next profile). Inclusion is deterministic given the
// clock; the only randomness is the duration of each sample.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/sampler/families/wall_clock.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline constexpr double kDatadogRubyDefaultOverheadTarget = 2.0;  // percent, settings.rb
inline constexpr std::uint64_t kDatadogRubyMaxWeight = 10'000;    // MAX_ALLOC_WEIGHT
inline constexpr std::uint64_t kDatadogRubyDefaultSampleNs = 10'000;
// 1 M objects a second of 40 bytes (a Ruby RVALUE slot): a busy Rails process.
inline constexpr std::uint64_t kDatadogRubyDefaultAllocRate = 40'000'000;

struct DatadogRubyConfig {
  double overhead_target = kDatadogRubyDefaultOverheadTarget;  // the setting; the sampler gets half
  std::uint64_t max_weight = kDatadogRubyMaxWeight;
  std::uint64_t sample_ns = kDatadogRubyDefaultSampleNs;  // mean wall time of one sample
  double sample_jitter = 0.5;  // a sample takes sample_ns (1 - j + 2 j U), U uniform on [0, 1)
  WallClockSettings clock;
};

// discrete_dynamic_sampler, its fields and arithmetic as in the C (doubles and longs).
class DatadogRubyDynamicSampler {
 public:
  static constexpr std::int64_t kWindowNs = 1'000'000'000;  // ADJUSTMENT_WINDOW_NS
  static constexpr std::uint64_t kWindowSamples = 100;      // ADJUSTMENT_WINDOW_SAMPLES
  static constexpr double kSmoothing = 0.6;                 // EMA_SMOOTHING_FACTOR

  // discrete_dynamic_sampler_set_overhead_target_percentage + reset at now_ns.
  DatadogRubyDynamicSampler(double target_overhead, std::int64_t now_ns)
      : target_overhead_(target_overhead),
        max_sampling_time_ns_(static_cast<std::int64_t>(static_cast<double>(kWindowNs) * target_overhead / 100.)),
        last_readjust_time_ns_(now_ns) {}

  bool should_sample() {
    ++events_since_last_sample_;
    ++events_since_last_readjustment_;
    return interval_ > 0 && events_since_last_sample_ >= interval_;
  }
  std::uint64_t events_since_last_sample() const { return events_since_last_sample_; }

  // A skipped event at now_ns: readjust if due.
  void skipped(std::int64_t now_ns) {
    if (should_readjust(now_ns)) readjust(now_ns);
  }
  // after_sample: the sample took sampling_ns and ended at now_ns.
  void after_sample(std::int64_t sampling_ns, std::int64_t now_ns) {
    ++samples_since_last_readjustment_;
    sampling_time_since_last_readjustment_ns_ += sampling_ns;
    events_since_last_sample_ = 0;
    if (should_readjust(now_ns)) readjust(now_ns);
  }

  std::uint64_t interval() const { return interval_; }
  double probability() const { return probability_; }
  double events_per_ns() const { return events_per_ns_; }
  std::int64_t sampling_time_ns() const { return sampling_time_ns_; }
  double target_overhead_adjustment() const { return adjustment_; }

 private:
  bool should_readjust(std::int64_t now_ns) const {
    return now_ns - last_readjust_time_ns_ >= kWindowNs || samples_since_last_readjustment_ >= kWindowSamples;
  }

  double ewma(double latest, double average, std::int64_t window_ns, bool first) const {
    if (first) return latest;
    const double alpha = kSmoothing * std::min(static_cast<double>(window_ns) / static_cast<double>(kWindowNs), 1.0);
    return (1 - alpha) * average + alpha * latest;
  }

  void readjust(std::int64_t now_ns) {
    const std::int64_t window_ns = now_ns - last_readjust_time_ns_;
    if (window_ns <= 0) return;
    const bool first = !completed_window_;
    events_per_ns_ = ewma(static_cast<double>(events_since_last_readjustment_) / static_cast<double>(window_ns),
                          events_per_ns_, window_ns, first);
    if (samples_since_last_readjustment_ > 0) {
      std::int64_t average =
          sampling_time_since_last_readjustment_ns_ / static_cast<std::int64_t>(samples_since_last_readjustment_);
      average = std::min(average, max_sampling_time_ns_);
      sampling_time_ns_ = static_cast<std::int64_t>(
          ewma(static_cast<double>(average), static_cast<double>(sampling_time_ns_), window_ns, first));
    }
    const auto target_ns = static_cast<std::int64_t>(static_cast<double>(window_ns) * (target_overhead_ / 100.));
    const std::int64_t overshoot_ns = std::max<std::int64_t>(0, sampling_time_since_last_readjustment_ns_ - target_ns);
    const double last_adjustment =
        -std::min(target_overhead_, static_cast<double>(overshoot_ns) * 100. / static_cast<double>(window_ns));
    adjustment_ = ewma(last_adjustment, adjustment_, window_ns, first);
    const double target = std::max(0.0, target_overhead_ + adjustment_);
    const double max_overhead = target / 100.;
    const double average_overhead = events_per_ns_ * static_cast<double>(sampling_time_ns_) * (1 - max_overhead);
    if (max_overhead == 0) {
      probability_ = 0;
    } else {
      probability_ = average_overhead == 0 ? 1. : std::min(1., max_overhead / average_overhead);
    }
    const double interval = probability_ == 0 ? 0 : std::ceil(1.0 / probability_);
    interval_ = interval > 4294967295.0 ? 0 : static_cast<std::uint64_t>(interval);
    events_since_last_readjustment_ = 0;
    samples_since_last_readjustment_ = 0;
    sampling_time_since_last_readjustment_ns_ = 0;
    last_readjust_time_ns_ = now_ns;
    completed_window_ = true;
  }

  double target_overhead_;  // percent
  std::int64_t max_sampling_time_ns_;
  std::int64_t last_readjust_time_ns_;
  double events_per_ns_ = 0;
  std::int64_t sampling_time_ns_ = 0;
  double probability_ = 1.0;  // reset: BASE_SAMPLING_INTERVAL 1
  std::uint64_t interval_ = 1;
  std::uint64_t events_since_last_sample_ = 0;  // BASE_SAMPLING_INTERVAL - 1
  bool completed_window_ = false;
  std::uint64_t events_since_last_readjustment_ = 0;
  std::uint64_t samples_since_last_readjustment_ = 0;
  std::int64_t sampling_time_since_last_readjustment_ns_ = 0;
  double adjustment_ = 0;  // target_overhead_adjustment, percent, <= 0
};

class DatadogRubySampler {
 public:
  explicit DatadogRubySampler(const DatadogRubyConfig& config) : config_(config) {}

  // Observation: samples 1, offset 0, weight w (unclamped: weigh clamps). The wall clock
  // is the program's clock plus the time spent sampling so far (the program is stopped
  // while a sample is taken; no allocation happens during one). Durations from lane 0.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) const {
    if (lanes.empty()) return;
    Stream& lane = lanes[0];
    WallClock clock(config_.clock, trace);
    // A monotonic clock is never 0 (the C treats last_readjust_time_ns == 0 as a full
    // window): the trace starts 1 s after its origin.
    constexpr std::int64_t kOrigin = DatadogRubyDynamicSampler::kWindowNs;
    DatadogRubyDynamicSampler sampler(config_.overhead_target / 2, kOrigin);
    std::int64_t sampling_so_far = 0;
    const double mean = static_cast<double>(config_.sample_ns);
    const std::size_t n = trace.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t now = kOrigin + static_cast<std::int64_t>(clock.at(i)) + sampling_so_far;
      if (!sampler.should_sample()) {
        sampler.skipped(now);
        continue;
      }
      out.push_back({i, 1, 0, static_cast<double>(sampler.events_since_last_sample())});
      const double u = static_cast<double>(lane.next_u64() >> 11) * 0x1p-53;
      const auto took = static_cast<std::int64_t>(mean * (1 - config_.sample_jitter + 2 * config_.sample_jitter * u));
      sampling_so_far += took;
      sampler.after_sample(took, now + took);
    }
  }

 private:
  DatadogRubyConfig config_;
};

// The steady interval k at a constant E objects per program-second with samples of
// sample_ns (x = E s) and the allocation sampler's target c percent (continuous, no
// ceil): c' solves c' (1 + 1/(1 - c')) = 2 c / 100 and k = x (1 - 2 c') / c'.
double datadog_ruby_steady_interval(double objects_per_second, double sample_ns, double target_percent);

SchemeDescriptor dd_trace_rb_scheme();

}  // namespace allocsim
