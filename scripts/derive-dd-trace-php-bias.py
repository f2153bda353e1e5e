#!/usr/bin/env python3
# The derived values of scenarios/figures/dd-trace-php-stride-bias.json and of
# tests/dd_trace_php_test.cpp (RenewalSumAtTheDefaultDistance), independently of the C++
# ddtrace_php_samples_expected: E[samples] over n = 400 allocations of s bytes from a fresh
# Poisson(D) countdown (a renewal sum, K = max(1, ceil(N/s))), and the relative bias of the
# upscaled bytes, E[samples] / (n (1 - e^(-s/D))) - 1. The Poisson CDF is a running sum of
# the pmf in log space over D +- 45 sd. Usage: scripts/derive-dd-trace-php-bias.py [D]
import math, sys
D = int(sys.argv[1]) if len(sys.argv) > 1 else 4194304
n = 400
sd = math.sqrt(D)
lo = max(0, int(D - 45 * sd)); hi = int(D + 45 * sd)
cum = []; acc = 0.0
for k in range(lo, hi + 1):
    acc += math.exp(-D + k * math.log(D) - math.lgamma(k + 1))
    cum.append(acc)
def cdf(x):  # P(N <= x)
    if x < lo: return 0.0
    if x > hi: return 1.0
    return cum[x - lo]
def expected_samples(s):
    pk = [0.0]; below = 0.0; k = 1
    while True:
        c = cdf(k * s); pk.append(c - below); below = c
        if c >= 1.0 - 1e-17 and k * s > hi: break
        k += 1
    u = [1.0] + [0.0] * n; total = 0.0
    for m in range(1, n + 1):
        u[m] = sum(pk[j] * u[m - j] for j in range(1, min(len(pk), m + 1)))
        total += u[m]
    return total
ratios = [0.1, 0.2, 0.25, 0.3, 0.34, 0.4, 0.45, 0.49, 0.51, 0.6, 0.7, 0.8, 0.9, 0.99, 1.01, 1.2, 1.5, 1.8, 1.99, 2.01]
print("pmf mass summed (1 up to rounding):", cum[-1])
for r in ratios:
    s = int(round(r * D))
    C = expected_samples(s)
    pi = -math.expm1(-s / D)
    print(s, r, "%.10f" % C, "%.6f" % (C / (n * pi) - 1))
