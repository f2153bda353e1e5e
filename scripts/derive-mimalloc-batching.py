#!/usr/bin/env python3
# The derived values of scenarios/figures/mimalloc-batching.json, independently of the C++
# (sampler/systems/mimalloc/), and the scenario itself (printed to stdout).
#
# mimalloc's built-in profiler (microsoft/mimalloc 01b5325 src/profile/pprof.c; the
# countdown in f72b7a0 src/profile/sample-profile.c and src/alloc/page.c) on one site of
# N allocations of s bytes (s a mimalloc bin), one thread, T = 16 KiB, 64 KiB batches:
#   thresholds X = mi_exp_sample(T): lz + frac/256 in Q8, * 177/256, * T / 256, + 1, cap 32T;
#   after a sample the countdown is M = min(X_prev, X_new) (the clamp in
#   _mi_theap_set_profile_sample_rate);
#   s <= 32 KiB: K = 64 KiB / s blocks a refill, the sample falls on refill
#     floor(M / (K s)) + 1 after the last one: mean gap mu = K (E floor(M/(K s)) + 1)
#     allocations, E floor(M/u) = sum_j P(X >= j u)^2;
#   s > 32 KiB: each allocation a candidate: mu = E floor(M/s) + 1;
#   start: mi_profiler_start sets the main thread's rate to 1, so its first two candidate
#     allocations are sampled (allocation 0 and allocation K, or 1 unbatched), and the
#     stationary cycles run from there: E[samples] = 2 + (N - K - 1)/mu, within one sample (the
#     run's end cuts a cycle).
# Estimators: bytes_raw (s per sample, what the dump holds): relative bias samples/N - 1;
# bytes_ht (s / (1 - e^(-s/T)) per sample, a consumer unsampling by the proto's period):
# samples/N / (1 - e^(-s/T)) - 1. Tolerance: one sample either way.
# Usage: scripts/derive-mimalloc-batching.py > scenarios/figures/mimalloc-batching.json
import bisect
import json
import math

T = 16384
BATCH = 65536
N = 1 << 18
SIZES = [16, 64, 256, 1024, 4096, 16384, 32768, 65536, 262144]


def exp_sample(lz, frac):
    bits_q8 = (lz << 8) | frac
    ln_q8 = (bits_q8 * 177) >> 8
    return min(((ln_q8 * T) >> 8) + 1, 32 * T)


# The law: (lz, frac) with probability 2^-(lz+1)/256 (lz = 63, p = 2^-63, folded into 62).
atoms = {}
for lz in range(63):
    p = 2.0 ** -(lz + 1) / 256 * (2 if lz == 62 else 1)
    for frac in range(256):
        v = exp_sample(lz, frac if lz < 56 else 0)
        atoms[v] = atoms.get(v, 0.0) + p
values = sorted(atoms)
tail = [0.0] * (len(values) + 1)  # tail[i] = P(X >= values[i])
for i in range(len(values) - 1, -1, -1):
    tail[i] = tail[i + 1] + atoms[values[i]]


def survival(x):  # P(X >= x)
    return tail[bisect.bisect_left(values, x)]


def mean_floor_min(u):  # E floor(min(X, X') / u)
    total, j = 0.0, 1
    while j * u <= 32 * T:
        total += survival(j * u) ** 2
        j += 1
    return total


points = []
for s in SIZES:
    k = BATCH // s
    if k >= 2:
        mu = k * (mean_floor_min(k * s) + 1)
        start = k
    else:
        mu = mean_floor_min(s) + 1
        start = 1
    samples = 2 + (N - start - 1) / mu
    scale = 1 / -math.expm1(-s / T)
    points.append((s, k, mu, samples, samples / N - 1, samples / N * scale - 1, 1 / N, scale / N))

mean_x = sum(v * p for v, p in atoms.items())
points_by = {p[0]: p for p in points}
scenario = {
    "$schema": "../../schema/scenario.schema.json",
    "name": "mimalloc-batching",
    "description": (
        "mimalloc's built-in heap profiler (MIMALLOC_PROFILE, T = 16 KiB) on one site of 2^18 allocations of s "
        "bytes, one thread. The countdown is charged when a page's free list runs dry, by the blocks it handed "
        "out (64 KiB a refill: K = 64 KiB/s blocks), and only the refilling allocation is a candidate; blocks "
        "over 32 KiB are counted one by one. After a sample the countdown restarts at min(previous threshold, "
        "new one) (_mi_theap_set_profile_sample_rate's clamp): mean %.0f bytes, not E[X] = %.0f. The dump holds "
        "raw sampled sizes (bytes_raw): its relative bias is the sampled fraction minus 1, %.2f %% for 64-byte "
        "objects. Unsampling by the period (bytes_ht, s/(1 - e^(-s/T)) as Go and gperftools do) is still off "
        "for every block that is batched: a refill is sampled at most once, and with a mean restart of "
        "%.0f bytes against 64 KiB batches nearly every refill is, so a small site gets one sample per 64 KiB "
        "where its bytes call for 64 KiB/T ~ 4 (%.1f %% at 64 bytes); blocks over 32 KiB, each a candidate, "
        "come out near right (%+.2f %% at 64 KiB). Marks and expectations: "
        "scripts/derive-mimalloc-batching.py (the closed form, one sample of tolerance for the run's end)."
        % (mean_floor_min(1), mean_x, 100 * points_by[64][4], mean_floor_min(1), 100 * points_by[64][5], 100 * points_by[65536][5])
    ),
    "seed": 2031,
    "replications": 40,
    "trace": {"allocations": N, "sizes": {"distribution": "constant", "size": "$s"}},
    "sweep": {"s": SIZES},
    "schemes": [{"scheme": "mimalloc"}],
    "estimators": ["bytes_raw", "bytes_ht"],
    "charts": [
        {
            "name": "batching",
            "title": "mimalloc's heap profiler (T = 16 KiB): one site's bytes against its object size",
            "where": {"group_kind": "total"},
            "x": "s",
            "logx": True,
            "x_label": "object size s (bytes; blocks up to 32 KiB counted 64 KiB at a time)",
            "y": "bias",
            "y_divide_by": "truth",
            "y_unit": "percent",
            "y_label": "relative bias of the site's bytes",
            "series": ["estimator"],
            "legend": "top left",
            "references": [
                dict(
                    {"x": s, "y": round(raw, 6)},
                    **({"label": "derived (closed form)", "label_offset": [1, 1.5]} if s == 64 else {}),
                )
                for (s, k, mu, n, raw, ht, t1, t2) in points
            ]
            + [{"x": s, "y": round(ht, 6)} for (s, k, mu, n, raw, ht, t1, t2) in points],
        }
    ],
    "expectations": [],
}
for s, k, mu, n, raw, ht, t1, t2 in points:
    for estimator, value, tol in (("bytes_raw", raw, t1), ("bytes_ht", ht, t2)):
        scenario["expectations"].append(
            {
                "name": "s = %d (K = %d, mean gap %.1f allocations, %.1f samples a run): %s %+.2f %% (derived)"
                % (s, max(k, 1), mu, n, estimator, 100 * value),
                "where": {"s": s, "estimator": estimator, "group_kind": "total"},
                "metric": "rel_bias",
                "equals": round(value, 9),
                "sigmas": 5,
                "tolerance": float("%.3g" % (tol * 1.000001)),
            }
        )
print(json.dumps(scenario, indent=2))
