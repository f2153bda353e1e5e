#pragma once
// JFR's event throttler (OpenJDK 17, the one instance that throttles
// jdk.ObjectAllocationSample): a process-wide adaptive sampler that keeps a
// "rate/s" setting as a maximal event rate. Ported line by line from
//   src/hotspot/share/jfr/recorder/service/jfrEventThrottler.cpp (the parameters) and
//   src/hotspot/share/jfr/support/jfrAdaptiveSampler.cpp (the windows),
// JDK 16/17 text (Copyright 2020; read at stefank/jdk 73bee23, whose algorithm is the
// same; openjdk/jdk mainline 0294046 later made the projected population a double
// where 17 truncates it to size_t, kept here as 17 has it).
//
// Parameters (JfrEventThrottler::update_params, period 1000 ms): a rate r <= 9
// (low_rate_upper_bound) is one window of 1000 ms with r sample points; otherwise
// window_divisor 5 gives windows of 200 ms with r / 5 points (30 at 150/s). The EWMA
// lookback is 25 windows (default_window_lookback_count) when a window is <= 1 s.
//
// Windows (JfrAdaptiveSampler): two, alternating. sample(t): if t >= the active
// window's end it is expired: the event is REJECTED, not counted, and the window
// rotates (window ends are not on a grid: the next one ends 200 ms after this event).
// Otherwise ordinal = ++measured, accepted iff ordinal <= projected_population and
// ordinal % k == 0. Rotation (set_rate) for the next window:
//   n = points + amortize_debt(expired), where the expired window's accumulated debt
//     is (its sample size) - (its projected sample size) <= 0 and is carried (negated)
//     except every carry_limit = 1000 / window_ms-th rotation (5 at 200 ms), which
//     returns 0: a shortfall is made up within the second, then forgotten;
//   EWMA: avg = alpha * measured(expired) + (1 - alpha) avg, alpha = 1 / lookback,
//     avg starting at 0; the projected population is (size_t) avg;
//   k = 1 if that population <= n, else ceil(ln(1 - u) / ln(1 - p)), p = n / pop,
//     u = JfrPRNG::next_uniform (top 26 bits of a 48-bit LCG over 2^26; u = 0 -> 0.01);
//   projected_population = n k: at most n events are accepted, the first n
//     multiples of k (so with a small k, all early in the window);
//   n = 0 (throttle 0/s) accepts nothing and leaves k and the EWMA as they were.
// Start (JfrEventThrottler::configure -> reconfigure at recording start, here t = 0):
// one rotation of the empty window 0 with reconfigure: avg = 0, the carry count at
// its limit, so the first window has n = points, k = 1 (the EWMA is still 0) and
// accepts the first `points` events before t = 200 ms.
// Not modelled: "off" (throttle -2, accept all), the per-minute/hour/day rates, races
// between threads rotating the window (one thread of control here).
#include <cmath>
#include <cstdint>

namespace allocsim {

struct JfrThrottleParams {
  std::uint64_t points = 0;       // sample_points_per_window
  std::uint64_t window_ns = 0;    // window_duration_ms, in ns
  std::uint64_t lookback = 0;     // window_lookback_count
  std::uint64_t carry_limit = 0;  // compute_accumulated_debt_carry_limit
  std::uint64_t window_ms() const { return window_ns / 1'000'000; }
};

// JfrEventThrottler's parameters for "rate/s" (period 1000 ms).
inline JfrThrottleParams jfr_throttle_params(std::uint64_t events_per_second) {
  JfrThrottleParams params;
  std::uint64_t window_ms = 1000;
  if (events_per_second <= 9) {
    params.points = events_per_second;
  } else {
    params.points = events_per_second / 5;
    window_ms = 1000 / 5;
  }
  params.window_ns = window_ms * 1'000'000;
  params.lookback = 25;
  params.carry_limit = window_ms >= 1000 ? 1 : 1000 / window_ms;
  return params;
}

// next_geometric: u in [0, 1), 0 clamped to 0.01.
inline std::uint64_t jfr_next_geometric(double p, double u) {
  if (u == 0.0) u = 0.01;
  if (u == 1.0) u = 0.99;
  return static_cast<std::uint64_t>(std::ceil(std::log(1.0 - u) / std::log(1.0 - p)));
}

// JfrPRNG::next_uniform's grid: 26 random bits over 2^26.
inline double jfr_uniform_from_bits(std::uint64_t bits) { return static_cast<double>(bits >> 38) / 67108864.0; }

class JfrThrottle {
 public:
  struct Window {
    std::uint64_t end_ns = 0;
    std::uint64_t interval = 1;              // _sampling_interval (k)
    std::uint64_t projected_population = 0;  // _projected_population_size (n k)
    std::uint64_t measured = 0;              // _measured_population_size

    std::uint64_t max_sample_size() const { return projected_population / interval; }
    std::uint64_t sample_size() const {
      return measured > projected_population ? max_sample_size() : measured / interval;
    }
  };

  // The recording starts at t = 0: the reconfiguring rotation. `uniform` gives u.
  template <class Uniform>
  JfrThrottle(const JfrThrottleParams& params, Uniform&& uniform) : params_(params) {
    alpha_ = params.lookback <= 1 ? 1.0 : 1.0 / static_cast<double>(params.lookback);
    carry_count_ = params.carry_limit;
    rotate(0, uniform);
  }

  // JfrAdaptiveSampler::sample(timestamp): whether the event at t_ns is accepted.
  template <class Uniform>
  bool sample(std::uint64_t t_ns, Uniform&& uniform) {
    Window& window = windows_[active_];
    if (t_ns >= window.end_ns) {
      rotate(t_ns, uniform);
      return false;
    }
    const std::uint64_t ordinal = ++window.measured;
    return ordinal <= window.projected_population && ordinal % window.interval == 0;
  }

  const Window& active() const { return windows_[active_]; }
  double average_population() const { return average_; }
  std::uint64_t rotations() const { return rotations_; }

 private:
  // set_rate + initialize for the next window; the event at t_ns opens it.
  template <class Uniform>
  void rotate(std::uint64_t t_ns, Uniform& uniform) {
    const Window& expired = windows_[active_];
    Window& next = windows_[1 - active_];
    const std::uint64_t n = params_.points + amortize_debt(expired);
    if (n == 0) {
      next.projected_population = 0;
    } else {
      next.interval = sampling_interval(static_cast<double>(n), expired, uniform);
      next.projected_population = n * next.interval;
    }
    next.measured = 0;
    next.end_ns = t_ns + params_.window_ns;
    active_ = 1 - active_;
    ++rotations_;
  }

  // accumulated_debt = (points - max_sample_size) + (sample_size - points).
  std::uint64_t amortize_debt(const Window& expired) {
    const std::int64_t debt =
        expired.projected_population == 0
            ? 0
            : static_cast<std::int64_t>(expired.sample_size()) - static_cast<std::int64_t>(expired.max_sample_size());
    if (carry_count_ == params_.carry_limit) {
      carry_count_ = 1;
      return 0;
    }
    ++carry_count_;
    return static_cast<std::uint64_t>(-debt);
  }

  // derive_sampling_interval, with project_population_size's truncation to size_t.
  template <class Uniform>
  std::uint64_t sampling_interval(double n, const Window& expired, Uniform& uniform) {
    average_ = alpha_ * static_cast<double>(expired.measured) + (1 - alpha_) * average_;
    const auto population = static_cast<std::uint64_t>(average_);
    if (static_cast<double>(population) <= n) return 1;
    return jfr_next_geometric(n / static_cast<double>(population), uniform());
  }

  JfrThrottleParams params_;
  Window windows_[2];
  int active_ = 0;
  double alpha_ = 1;
  double average_ = 0;  // _avg_population_size
  std::uint64_t carry_count_ = 0;
  std::uint64_t rotations_ = 0;
};

}  // namespace allocsim
