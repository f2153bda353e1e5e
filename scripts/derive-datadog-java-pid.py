#!/usr/bin/env python3
# The derived values of scenarios/figures/datadog-java-pid.json, independently of the C++
# (sampler/systems/ddprof-java/): Datadog's Java profiler (DataDog/java-profiler d034fca,
# objectSampler.cpp recordAllocation / updateConfiguration, pidController.cpp) on
# HotSpot's per-thread exponential countdown, replayed sample by sample.
#
# Trace: N objects of S bytes, threads in round robin (object j on thread j mod P), evenly
# paced at A bytes a second (object j starts at floor(j S 1e9 / A) ns). Each thread's
# countdown holds floor(Exp(T_d)) failures, T_d the interval at the thread's previous sample
# (or the start); the object holding the next sampled byte is sampled, the countdown
# restarts after it. At each sample the agent weighs with the current T, counts the
# sample, and on every 100th sample more than 1 s after the last update runs the PID:
#   e = 100 - c 1e9 / W, avg' = a e + (1 - a) avg, signal = 31 e + 511 I + 3 (avg' - avg),
#   I += e, T = clamp(T - int(signal), configured, 2^31 - 1).
# The profile's bytes exceed the allocated bytes, in expectation, by
#   sum over threads of v(T_last) - v(T_0),  v(T) = S / (1 - exp(-S/T))
# (the weight of each thread's first sample after a change uses the new T, its draw the
# old one; the sum telescopes: sampler/systems/ddprof-java/ddprof_java.h). Its mean over
# replications has a small SE (only T is random), printed with it, and the mean samples
# per second of the recording and the mean number of samples, with its SE.
# --fluid SECONDS: the PID on expected samples at a steady rate instead (no noise): the
# samples per second over that long, and the range of T (it rings: a limit cycle).
# Usage: scripts/derive-datadog-java-pid.py [--replications R] [--fluid SECONDS] [bytes per second ...]
import heapq
import math
import random
import struct
import sys

N, S, P = 1 << 20, 8192, 16
CONFIGURED = FLOOR = 256 * 1024
TARGET, PERIOD_NS = 100, 10**9
KP, KI, KD = 31.0, 511.0, 3.0
INT32_MAX = 2**31 - 1


def alpha():
    f = struct.unpack("f", struct.pack("f", 1 / 15.0))[0]
    c = math.cos(2 * math.pi * f)
    return c - 1 + math.sqrt(c * c - 4 * c + 3)


def v(t):
    return S if t == 0 else S / -math.expm1(-S / t)


def replay(rate, rng):
    a = alpha()
    interval = max(CONFIGURED, FLOOR)
    integral = avg = 0.0
    count = 0
    last_update = 0
    per_thread = N // P  # objects per thread (N a multiple of P)
    heap = []  # (global index of the thread's next sampled object, thread)
    drawn = [interval] * P

    def schedule(t, start):  # start: the thread's object index where the countdown begins
        k = start + int(rng.expovariate(1.0 / drawn[t])) // S
        if k < per_thread:
            heapq.heappush(heap, (k * P + t, t))

    for t in range(P):
        schedule(t, 0)
    last = [None] * P
    samples = 0
    while heap:
        j, t = heapq.heappop(heap)
        now = j * S * 10**9 // rate
        samples += 1
        last[t] = interval  # the callback's weight
        drawn[t] = interval  # HotSpot drew the next countdown before the callback
        count += 1
        if count % TARGET == 0 and now - last_update > PERIOD_NS:
            coefficient = PERIOD_NS / (now - last_update)
            last_update = now
            e = TARGET - count * coefficient
            count = 0
            new_avg = a * e + (1 - a) * avg
            signal = KP * e + KI * integral + KD * (new_avg - avg)
            integral += e
            avg = new_avg
            interval = min(max(interval - int(signal), CONFIGURED), INT32_MAX)
        schedule(t, j // P + 1)
    excess = sum(v(l) - v(max(CONFIGURED, FLOOR)) for l in last if l is not None)
    return excess, samples


def fluid(rate, seconds):
    """The PID on expected samples (sample k at k T / A s of a steady A bytes/s, no noise):
    its samples per second over `seconds`, and the range of T over the second half."""
    a = alpha()
    interval, integral, avg, count, samples, t, last_update = max(CONFIGURED, FLOOR), 0.0, 0.0, 0, 0, 0.0, 0.0
    intervals = []
    while t < seconds:
        t += interval / rate
        count += 1
        samples += 1
        if count % TARGET == 0 and t - last_update > 1:
            e = TARGET - count / (t - last_update)
            last_update, count = t, 0
            new_avg = a * e + (1 - a) * avg
            signal = KP * e + KI * integral + KD * (new_avg - avg)
            integral, avg = integral + e, new_avg
            interval = min(max(interval - int(signal), CONFIGURED), INT32_MAX)
            intervals.append(interval)
    half = intervals[len(intervals) // 2 :] or [interval]
    return samples / seconds, min(half), max(half)


def main(argv):
    replications = 100
    rates = []
    it = iter(argv)
    for arg in it:
        if arg == "--replications":
            replications = int(next(it))
        elif arg == "--fluid":
            seconds = float(next(it))
            for rate in [64 << 20, 512 << 20, 2 << 30]:
                per_second, low, high = fluid(rate, seconds)
                print(f"fluid {rate >> 20} MiB/s over {seconds:g} s: {per_second:.1f} samples/s, T in [{low}, {high}]")
            return
        else:
            rates.append(int(arg))
    if not rates:
        rates = [16 << 20, 64 << 20, 256 << 20, 1 << 30, 2 << 30]
    truth = N * S
    print(f"# N {N} objects of {S} B on {P} threads, {replications} replications per rate")
    print("# bytes/s  seconds  rel_bias_bytes  se  samples_per_s  samples  se")
    for rate in rates:
        rng = random.Random(rate)
        xs, ss = [], []
        for _ in range(replications):
            excess, samples = replay(rate, rng)
            xs.append(excess / truth)
            ss.append(samples)
        m = sum(xs) / len(xs)
        se = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))
        seconds = truth / rate
        ms = sum(ss) / len(ss)
        se_s = math.sqrt(sum((x - ms) ** 2 for x in ss) / (len(ss) - 1) / len(ss))
        print(f"{rate} {seconds:.1f} {m:.6f} {se:.6f} {ms / seconds:.2f} {ms:.1f} {se_s:.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
