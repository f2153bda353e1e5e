#!/usr/bin/env python3
# The derived values of scenarios/figures/scalene-free-trigger.json, independently of the
# C++ model: Scalene's ThresholdSampler (thresholdsampler.hpp) replayed by hand on the loop
# "line A allocates a bytes and frees them, line B allocates b bytes and keeps them", k
# times, window W. Prints, for each a, the share of B's net growth (k b) that Scalene's
# records attribute to B (B's malloc records less its free records, over k b), and the
# asymptotic closed form of scalene.h: with m = ceil(W/b), r = W - (m-1) b,
#   1 if a < r;  (m b - a) / ((2m - 1) b) if r <= a <= b - r;  0 otherwise.
# Usage: scripts/derive-scalene-attribution.py [k b W]
import sys
k, b, W = (int(x) for x in sys.argv[1:4]) if len(sys.argv) > 3 else (20000, 40000, 1048576)
A_SIZES = [1024, 4096, 8192, 8576, 12288, 16384, 24576, 31424, 31488, 40000, 65536, 262144, 1048576, 4194304]

def replay(a):
    inc = dec = 0
    net = {"A": 0, "B": 0}
    def malloc(line, s):
        nonlocal inc, dec
        inc += s
        if inc >= dec + W:
            net[line] += inc - dec; inc = dec = 0
    def free(line, s):
        nonlocal inc, dec
        dec += s
        if dec >= inc + W:
            net[line] -= dec - inc; inc = dec = 0
    for _ in range(k):
        malloc("A", a); free("A", a); malloc("B", b)
    return net

def closed_form(a):
    m = -(-W // b); r = W - (m - 1) * b
    if a < r: return 1.0
    if a <= b - r: return (m * b - a) / ((2 * m - 1) * b)
    return 0.0

for a in A_SIZES:
    net = replay(a)
    print(f"a={a} share_B={net['B'] / (k * b):.9f} net_A={net['A']} net_B={net['B']} closed_form={closed_form(a):.9f}")
