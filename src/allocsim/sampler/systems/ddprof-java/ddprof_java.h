#pragma once
// `ddprof-java`: the allocation sampler of Datadog's Java profiler (DataDog/java-profiler
// at d034fca, ddprof-lib/src/main/cpp/objectSampler.cpp ObjectSampler::check,
// recordAllocation and updateConfiguration; objectSampler.h _target_samples_per_window
// and CONFIG_UPDATE_CHECK_PERIOD_SECS; pidController.h/.cpp PidController; the
// 256 KiB default of profiling.ddprof.alloc.interval in DataDog/dd-trace-java
// ProfilingConfig.java; landscape-2026.md §1 item (4)). Not the `ddprof` scheme:
// that is Datadog's native allocation tracker (DataDog/ddprof, an accumulator
// sampler in an LD_PRELOAD library); this one rides on HotSpot's JVMTI sampler and
// shares neither code nor mechanism with it.
//
// Sampling: HotSpot's per-thread exponential byte countdown (the `jvm` scheme, jvm.h,
// without its TLAB paths): each thread's _bytes_until_sample is drawn as
// floor(Exp(T)) + 1 with the process-wide interval T *at the moment of the draw*,
// i.e. at the thread's previous sample (or its start); an object of u bytes (rounded
// up to 8) holding the sample point is reported to the agent's SampledObjectAlloc.
// SetHeapSamplingInterval changes T for later draws only: a thread's pending
// countdown keeps the interval it was drawn with. The draw after a sample comes first
// (threadHeapSampler.cpp check_for_sampling calls pick_next_sample when the object is
// sampled; the SampledObjectAlloc callback is posted afterwards, when the allocation's
// JvmtiSampledObjectAllocEventCollector goes out of scope), so an update the callback
// makes reaches that thread's countdown only at its next sample.
//
// Interval T: check() starts it at max(interval, 256 KiB) (`floor` here); the agent
// retunes it with a PID controller on the wall clock. Every sample increments a
// process-wide count c; when c is a multiple of 100 (_target_samples_per_window) and
// more than 1 s (time_diff > 1e9 ns, strictly) has passed since the last update, with
// W the window's length in ns:
//   e       = 100 - c * (1e9 / W)               (target minus samples per second)
//   s_avg'  = a e + (1 - a) s_avg,  a = cos(2 pi f) - 1 + sqrt(cos^2 - 4 cos + 3),
//             f = 1 s / 15 s as a float (a = 0.338)
//   signal  = 31 e + 511 I + 3 (s_avg' - s_avg),  then I += e   (I: the sum of the
//             previous errors; the gains are Kp, Ki x 1 s, Kd / 1 s)
//   T      <- clamp(T - int64(signal), interval, INT32_MAX),  c <- 0.
// The clamp is at the configured `interval`, not at the 256 KiB floor: a configured
// interval below 256 KiB starts at 256 KiB and may then fall to the configured one.
// T - signal with the integral inside the signal makes T the double integral of the
// error: the loop overshoots and rings; its integral is never clamped (it winds up
// while T sits at the clamp, e.g. at every rate below 100 T_min bytes/s).
//
// Weight (recordAllocation, as a float): w = 1 / (1 - e^(-u/T)) with T the interval
// current when the callback runs (1 when u = 0 or T = 0); the backend's bytes are
// u w. The draw of the countdown that produced this sample used the interval current
// at the thread's previous sample, T_d. Horvitz-Thompson with the drawn interval,
// sum u / (1 - e^(-u/T_d)), is unbiased whatever T does (each object is included
// with probability 1 - e^(-u/T_d) given the past: a memoryless countdown); the
// profiler's weight differs from it only in the first sample of each thread after T
// changes, so for a thread allocating objects of one size u the bias of its bytes
// telescopes:
//   E[sum u w] - bytes = E[v(T_last)] - v(T_0),   v(T) = u / (1 - e^(-u/T)) ~ T + u/2,
// T_last the interval at the thread's last sample (datadog_java_thread_bias below).
// Per site: all of a thread's excess lands on the sites sampled first after each
// change; a site allocating in a burst while T climbs takes it.
//
// Observation: samples 1, offset = T_d (the interval the countdown was drawn with,
// for the `bytes_drawn` reference; JVMTI reports no offset), weight = T at the
// callback. Estimators: bytes = u w and count = w (what the profile carries),
// count_raw = 1 per sample, bytes_drawn = u / (1 - e^(-u/T_d)) (unbiased reference:
// the weight had the agent used the interval of the draw).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/countdown_discard.h"
#include "allocsim/sampler/families/wall_clock.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/jvm/jvm.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline constexpr std::uint64_t kDatadogJavaDefaultInterval = 256 * 1024;  // dd-trace-java ProfilingConfig
inline constexpr std::uint64_t kDatadogJavaFloor = 256 * 1024;            // ObjectSampler::check
inline constexpr std::uint64_t kDatadogJavaTarget = 100;                  // _target_samples_per_window
// 512 MiB a second: a busy JVM service (an assumption, not a shipped value).
inline constexpr std::uint64_t kDatadogJavaDefaultAllocRate = 512ull << 20;
inline constexpr std::int64_t kDatadogJavaMaxInterval = std::numeric_limits<std::int32_t>::max();

struct DatadogJavaConfig {
  std::uint64_t interval = kDatadogJavaDefaultInterval;  // args._memory: the configured one, the clamp
  std::uint64_t floor = kDatadogJavaFloor;               // check(): T starts at max(interval, floor)
  std::uint64_t target = kDatadogJavaTarget;             // samples per 1 s window
  bool rate_limiting = true;                             // off: DDPROF_TEST_DISABLE_RATE_LIMIT=1
  WallClockSettings clock;
};

// PidController with ObjectSampler::updateConfiguration's constants (1 s window).
class DatadogJavaPid {
 public:
  static constexpr double kProportional = 31, kIntegral = 511, kDerivative = 3;
  static constexpr double kCutoffSeconds = 15;

  explicit DatadogJavaPid(std::uint64_t target_per_second) : target_(target_per_second) {}

  // computeAlpha(float cutoff) for the 1 s window.
  static double alpha() {
    const float cutoff = static_cast<float>(1 / kCutoffSeconds);
    const double c = std::cos(2 * M_PI * static_cast<double>(cutoff));
    return c - 1 + std::sqrt(c * c - 4 * c + 3);
  }

  // PidController::compute: the signal for `input` samples in a window, scaled to 1 s
  // by `coefficient`.
  double compute(std::uint64_t input, double coefficient) {
    const double error = static_cast<double>(target_) - static_cast<double>(input) * coefficient;
    const double a = alpha();
    const double average = a * error + (1 - a) * average_error_;
    const double derivative = average - average_error_;
    const double signal = kProportional * error + kIntegral * integral_ + kDerivative * derivative;
    integral_ += error;
    average_error_ = average;
    return signal;
  }
  double integral() const { return integral_; }
  double average_error() const { return average_error_; }

 private:
  std::uint64_t target_;
  double average_error_ = 0;
  double integral_ = 0;
};

// The agent's interval: its start, the sample count and the updates on the wall clock.
class DatadogJavaInterval {
 public:
  static constexpr std::uint64_t kPeriodNs = 1'000'000'000;  // CONFIG_UPDATE_CHECK_PERIOD_SECS

  // check() and start() at time start_ns.
  DatadogJavaInterval(const DatadogJavaConfig& config, std::uint64_t start_ns)
      : configured_(static_cast<std::int64_t>(config.interval)),
        interval_(static_cast<std::int64_t>(std::max(config.interval, config.floor))),
        window_(config.target),
        rate_limiting_(config.rate_limiting),
        last_update_ns_(start_ns),
        pid_(config.target) {}

  std::int64_t interval() const { return interval_; }
  std::uint64_t updates() const { return updates_; }

  // recordAllocation's rate limiting, after a sample's weight was taken, at now_ns.
  void on_sample(std::uint64_t now_ns) {
    if (!rate_limiting_ || window_ == 0) return;
    const std::uint64_t current = ++count_;
    if (current % window_ != 0) return;
    const std::uint64_t diff = now_ns - last_update_ns_;
    if (diff <= kPeriodNs) return;
    last_update_ns_ = now_ns;
    count_ -= current;
    update(current, static_cast<double>(kPeriodNs) / static_cast<double>(diff));
  }

  // updateConfiguration.
  void update(std::uint64_t events, double coefficient) {
    const auto adjustment = static_cast<std::int64_t>(pid_.compute(events, coefficient));
    std::int64_t next = interval_ - adjustment;
    next = std::min(std::max(next, configured_), kDatadogJavaMaxInterval);
    interval_ = next;
    ++updates_;
  }

 private:
  std::int64_t configured_;
  std::int64_t interval_;
  std::uint64_t window_;
  bool rate_limiting_;
  std::uint64_t last_update_ns_;
  std::uint64_t count_ = 0;
  std::uint64_t updates_ = 0;
  DatadogJavaPid pid_;
};

class DatadogJavaSampler {
 public:
  explicit DatadogJavaSampler(const DatadogJavaConfig& config) : config_(config) {}

  // Streaming only (one process-wide interval over time).
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    DatadogJavaInterval agent(config_, 0);
    Countdown<Stream> countdown{trace, WallClock(config_.clock, trace), agent, lanes, out, agent.interval(), 0, {}};
    per_thread_first_success(trace, failures_, countdown);
  }

 private:
  // HotSpot's per-thread countdown (jvm.h) with the agent's callback in record.
  template <class Stream>
  struct Countdown {
    const Trace& trace;
    WallClock clock;
    DatadogJavaInterval& agent;
    std::span<Stream> lanes;
    std::vector<Observation>& out;
    std::int64_t draw_interval;  // the interval the next redraw uses
    std::uint64_t now = 0;

    std::uint64_t units(std::size_t i) {
      now = clock.at(i);
      const std::uint64_t u = jvm_object_size(trace.requested[i]);
      return draw_interval == 0 && u == 0 ? 1 : u;
    }
    // The sample: HotSpot has drawn the next countdown with the interval before the
    // callback; the callback weighs with the current interval, then may retune it.
    void record(std::size_t i, std::uint64_t /*u*/, std::uint64_t /*offset*/) {
      const std::int64_t current = agent.interval();
      out.push_back({i, 1, static_cast<std::uint64_t>(drawn_with(trace.thread[i])), static_cast<double>(current)});
      draw_interval = current;
      agent.on_sample(now);
    }
    std::uint64_t redraw(std::size_t t) {
      if (drawn.size() <= t) drawn.resize(trace.thread_count, 0);
      drawn[t] = draw_interval;
      const std::uint64_t failures = draw_interval == 0
                                         ? 0
                                         : static_cast<std::uint64_t>(exponential_from_uniform(
                                               lanes[t].next_uniform(), static_cast<double>(draw_interval)));
      draw_interval = agent.interval();
      return failures;
    }
    std::int64_t drawn_with(std::size_t t) const { return drawn[t]; }
    std::vector<std::int64_t> drawn;  // per thread: the interval of its pending countdown
  };

  DatadogJavaConfig config_;
  std::vector<std::uint64_t> failures_;
};

// Weight of a sample of u bytes at interval T (the float of recordAllocation).
inline double datadog_java_weight(double u, double interval) {
  if (u == 0 || interval == 0) return 1;
  return static_cast<double>(static_cast<float>(1 / -std::expm1(-u / interval)));
}

// v(T) = u / (1 - e^(-u/T)) (u when T = 0): a sample's bytes at interval T, unrounded.
inline double datadog_java_sample_bytes(double u, double interval) {
  return interval == 0 ? u : u / -std::expm1(-u / interval);
}

// The expected excess of a thread's reported bytes over its allocated bytes when all
// its objects have u bytes: v(T_last) - v(T_0) (header), for its first and last
// sampling intervals.
inline double datadog_java_thread_bias(double u, double first_interval, double last_interval) {
  return datadog_java_sample_bytes(u, last_interval) - datadog_java_sample_bytes(u, first_interval);
}

SchemeDescriptor ddprof_java_scheme();

}  // namespace allocsim
