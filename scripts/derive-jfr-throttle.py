#!/usr/bin/env python3
# The derived values of scenarios/figures/jfr-throttle-rate.json, independently of the C++
# (sampler/systems/jfr/): the expected number of jdk.ObjectAllocationSample events JDK 17's
# throttle (jfrAdaptiveSampler.cpp, jfrEventThrottler.cpp at 150/s) lets through for one
# thread whose TLAB refills are evenly spaced, over a 20 s recording.
#
# The trace: N = v allocations of 20 requested bytes (24 on the heap), the program allocating
# v requested bytes a second (so 20 s), TLABs of 624 bytes (648 with the object: 72 usable,
# 3 objects). Refill j is at allocation 3j, at t_j = floor(60 j 1e9 / v) ns: e = v / 60
# refills a second. Refill 0 has a = 0 (no event), refill 1 initializes L (no event), refills
# j >= 2 each try the throttle once. The windows' populations follow from the times alone
# (a try at or past the window's end is rejected and opens the next window, ending 200 ms
# later), so only k is random: k = 1 when the truncated EWMA is <= n, else geometric with
# p = n / EWMA; a window accepts min(n, floor(P / k)); its shortfall is carried to the next
# window except at every 5th rotation. The expectation is a sum over the distribution of n,
# window by window (continuous u: the 2^-26 grid of JfrPRNG moves it by < 1e-6).
# Usage: scripts/derive-jfr-throttle.py [refills per second ...]
import sys

SECONDS = 20
POINTS, WINDOW_NS, ALPHA, CARRY = 30, 200_000_000, 1.0 / 25, 5


def windows(e):
    v = 60 * e
    n_alloc = v * SECONDS // 20
    refills = (n_alloc + 2) // 3
    times = [60 * j * 10**9 // v for j in range(2, refills)]
    populations, end, count = [], WINDOW_NS, 0
    for t in times:
        if t >= end:
            populations.append(count)
            count, end = 0, t + WINDOW_NS
        else:
            count += 1
    populations.append(count)  # the last window, never expired
    return populations, len(times)


def accepted_distribution(n, P, pophat):
    """[(accepted, probability)] for a window of n points and P events."""
    if pophat <= n:
        return [(min(n, P), 1.0)]
    q = 1.0 - n / pophat
    out, k = [], 1
    while k <= P:
        a = P // k
        k_hi = P // a  # the last k with the same floor(P / k)
        prob = q ** (k - 1) - q**k_hi
        out.append((min(n, a), prob))
        k = k_hi + 1
    out.append((0, q**P))
    return out


def expected_samples(e):
    populations, tries = windows(e)
    dist = {POINTS: 1.0}
    average, carry_count, expected = 0.0, 1, 0.0
    pophat = 0  # the first window's k is 1
    for w, P in enumerate(populations):
        nxt = {}
        for n, pr in dist.items():
            for a, pa in accepted_distribution(n, P, pophat):
                expected += pr * pa * a
                nxt[n - a] = nxt.get(n - a, 0.0) + pr * pa
        # rotation: the debt, then the EWMA of this window's population
        if carry_count == CARRY:
            carry_count = 1
            dist = {POINTS: sum(nxt.values())}
        else:
            carry_count += 1
            dist = {}
            for d, pr in nxt.items():
                dist[POINTS + d] = dist.get(POINTS + d, 0.0) + pr
        average = ALPHA * P + (1 - ALPHA) * average
        pophat = int(average)
    return expected, tries, len(populations)


rates = [int(x) for x in sys.argv[1:]] or [2, 4, 5, 6, 8, 10, 15, 20, 30, 50, 75, 100, 125, 150, 175, 200, 300,
                                           500, 1000, 3000, 10000]
print("refills/s  alloc_rate  tries  windows  E[samples]  E[samples]/s")
for e in rates:
    expected, tries, n_windows = expected_samples(e)
    print(f"{e} {60 * e} {tries} {n_windows} {expected:.6f} {expected / SECONDS:.6f}")
