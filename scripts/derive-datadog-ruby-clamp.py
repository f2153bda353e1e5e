#!/usr/bin/env python3
# The derived values of scenarios/figures/datadog-ruby-clamp.json, independently of the C++
# (sampler/systems/dd-trace-rb/): dd-trace-rb's allocation sampler (DataDog/dd-trace-rb
# cf0d441, collectors_discrete_dynamic_sampler.c; the weight and its 10 000 clamp in
# collectors_cpu_and_wall_time_worker.c rescued_sample_allocation) replayed on N objects of
# one site, evenly paced at E objects per second of program time (the figure: N = 10 E objects
# of 10 bytes at alloc_rate 10 E bytes a second, so 10 s), each sample taking exactly s ns of
# wall time (sample_jitter 0: nothing is random, the replay is the expectation; the figure's
# Monte Carlo draws each sample's time within +-50 % and lands within its tolerance).
#
# The sampler (target c = 1 %, half of the 2 % setting) starts reset: k = 1, so the first
# 100 events are all sampled; that window's sampling time is ~all of its wall time, the
# overshoot adjustment falls to -c, the target to 0 and sampling stops (k = 0) until 1 s
# later, when the EWMA (alpha 0.6) lets it restart. The first sample then weighs every
# event of that second: min(w, 10 000) goes to the site, the rest to "(Skipped Samples)".
# In the steady state k = x (1 - 2c')/c', x = E s, c' (1 + 1/(1 - c')) = 2c (~98.5 x), so
# k > 10 000 when E s > ~102 and the site then keeps 10 000/k of its events.
# Printed per point: the relative bias of count (alloc-samples) and of count + skipped,
# and the steady-state k of the closed form.
# Usage: scripts/derive-datadog-ruby-clamp.py [--objects N (default 10 E)] [--sample-ns S,...] [objects per second ...]
import math
import sys

SECONDS = 10  # N = SECONDS E objects, unless --objects
SIZE = 10  # bytes each: alloc_rate = SIZE E (the sampler counts objects; sizes only pace the clock)
WINDOW_NS, WINDOW_SAMPLES, SMOOTHING = 10**9, 100, 0.6
MAX_WEIGHT = 10_000
TARGET = 1.0  # percent
ORIGIN = WINDOW_NS  # the model's monotonic clock at the trace's start


def trunc(v):
    return int(math.trunc(v))


class Sampler:
    def __init__(self, now):
        self.target = TARGET
        self.max_sampling = trunc(WINDOW_NS * TARGET / 100.0)
        self.last_readjust = now
        self.events_per_ns = 0.0
        self.sampling_time = 0
        self.probability = 1.0
        self.interval = 1
        self.since_sample = 0
        self.completed = False
        self.events_window = 0
        self.samples_window = 0
        self.sampling_window = 0
        self.adjustment = 0.0

    def ewma(self, latest, avg, window, first):
        if first:
            return latest
        alpha = SMOOTHING * min(window / WINDOW_NS, 1.0)
        return (1 - alpha) * avg + alpha * latest

    def readjust(self, now):
        window = now - self.last_readjust
        if window <= 0:
            return
        first = not self.completed
        self.events_per_ns = self.ewma(self.events_window / window, self.events_per_ns, window, first)
        if self.samples_window > 0:
            avg = min(self.sampling_window // self.samples_window, self.max_sampling)
            self.sampling_time = trunc(self.ewma(float(avg), float(self.sampling_time), window, first))
        target_ns = trunc(window * (self.target / 100.0))
        overshoot = max(0, self.sampling_window - target_ns)
        last = -min(self.target, overshoot * 100.0 / window)
        self.adjustment = self.ewma(last, self.adjustment, window, first)
        target = max(0.0, self.target + self.adjustment)
        max_overhead = target / 100.0
        avg_overhead = self.events_per_ns * self.sampling_time * (1 - max_overhead)
        if max_overhead == 0:
            self.probability = 0.0
        else:
            self.probability = 1.0 if avg_overhead == 0 else min(1.0, max_overhead / avg_overhead)
        interval = 0 if self.probability == 0 else math.ceil(1.0 / self.probability)
        self.interval = 0 if interval > 4294967295 else interval
        self.events_window = self.samples_window = self.sampling_window = 0
        self.last_readjust = now
        self.completed = True


def replay(rate, sample_ns, N):
    """(sum of min(w, 10 000), sum of w) over the samples of N objects at `rate` objects/s."""
    bytes_per_second = SIZE * rate

    def program_ns(i):  # the wall clock's "rate" source: floor(R_i 1e9 / alloc_rate)
        return i * SIZE * 10**9 // bytes_per_second

    def first_event_at(t):  # smallest i with program_ns(i) >= t
        if t <= 0:
            return 0
        return -(-t * bytes_per_second // (SIZE * 10**9))

    s = Sampler(ORIGIN)
    sampled_ns = 0
    kept = total = 0
    i = 0  # the next event
    while i < N:
        # The next event that would be sampled (events_since reaches k) ...
        k = s.interval
        i_sample = i + max(0, k - s.since_sample - 1) if k > 0 else N
        # ... and the first skipped one at or past the readjustment time.
        i_readjust = max(i, first_event_at(s.last_readjust + WINDOW_NS - ORIGIN - sampled_ns))
        if i_sample <= i_readjust and i_sample < N:
            step = i_sample - i + 1
            s.since_sample += step
            s.events_window += step
            w = s.since_sample
            kept += min(w, MAX_WEIGHT)
            total += w
            now = ORIGIN + program_ns(i_sample) + sampled_ns
            sampled_ns += sample_ns
            s.samples_window += 1
            s.sampling_window += sample_ns
            s.since_sample = 0
            end = now + sample_ns
            if end - s.last_readjust >= WINDOW_NS or s.samples_window >= WINDOW_SAMPLES:
                s.readjust(end)
            i = i_sample + 1
        elif i_readjust < N:
            step = i_readjust - i + 1
            s.since_sample += step
            s.events_window += step
            s.readjust(ORIGIN + program_ns(i_readjust) + sampled_ns)
            i = i_readjust + 1
        else:
            break
    return kept, total


def steady_interval(rate, sample_ns, target=TARGET):
    c = target / 100
    lo, hi = 0.0, c
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid * (1 + 1 / (1 - mid)) < 2 * c:
            lo = mid
        else:
            hi = mid
    cp = (lo + hi) / 2
    return max(1.0, rate * sample_ns * 1e-9 * (1 - 2 * cp) / cp)


def main():
    objects = None
    args = sys.argv[1:]
    sample_times = (10_000, 1_000_000)
    while args and args[0].startswith("--"):
        if args[0] == "--objects":
            objects = int(args[1])
        elif args[0] == "--sample-ns":
            sample_times = tuple(int(v) for v in args[1].split(","))
        else:
            sys.exit(f"unknown option {args[0]}")
        args = args[2:]
    rates = [int(a) for a in args] or [10**4, 2 * 10**4, 5 * 10**4, 10**5, 2 * 10**5, 5 * 10**5]
    for sample_ns in sample_times:
        for rate in rates:
            n = objects or SECONDS * rate
            kept, total = replay(rate, sample_ns, n)
            print(f"s {sample_ns} ns, E {rate}/s, N {n}: count {kept / n - 1:+.9f}, count+skipped {total / n - 1:+.9f}, "
                  f"steady k {steady_interval(rate, sample_ns):.1f}")


if __name__ == "__main__":
    main()
