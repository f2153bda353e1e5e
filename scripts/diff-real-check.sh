#!/usr/bin/env bash
# False-positive rate and power of `allocsim diff` on real profiles (issue 33). Builds
# the Go 1.19 and jemalloc 5.3 profile programs of traces/profiles/make (jemalloc with
# lg_prof_sample:16 and prof_unbias:false, raw counts; Go at MemProfileRate 65536), and
# for each system runs, PAIRS times (default 40):
#   null pair:  BASE and SAME, two independent runs of the same program (the truth is
#               identical, only the sampling differs): a pair where `allocsim diff
#               --json --alpha ALPHA` calls any entry changed is a false positive;
#   known change: BASE (the same run) and NEW, a run with MEDIUM_FACTOR 1.4 (the medium
#               site allocates 2800 blocks of 4096 B instead of 2000; nothing else
#               changes): power is the fraction of pairs where that site is called
#               changed, beside the pairs where another entry is as well.
# Usage: scripts/diff-real-check.sh [PAIRS] [ALPHA]   (after building; ALLOCSIM=path
# picks the binary, default build/bin/allocsim). Exits 1 when a system's false-positive
# pairs (of either kind) exceed their bound or its power falls below its bound, both
# printed with their derivation; each bound is crossed with probability <= 1e-4 when
# the test is as good as its model. Cost: about 5 s a pair (both systems; reading a
# jemalloc profile runs llvm-symbolizer on its mapped files): 3 min for 40 pairs, the
# numbers of docs/profiles.md; ./test.sh runs 12 (about 66 s), the fewest at which the
# power bound is at least 1 pair (with fewer its 1e-4 quantile is 0: no bound).
set -euo pipefail
pairs=${1:-40}
alpha=${2:-0.05}
factor=1.4
root=$(cd "$(dirname "$0")/.." && pwd)
allocsim=${ALLOCSIM:-$root/build/bin/allocsim}
make_dir="$root/traces/profiles/make"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$make_dir/build-programs.sh" "$work"

profile() {  # profile SYSTEM OUT [MEDIUM_FACTOR]
  case $1 in
    go) "$work/heap_go" 65536 "$2" "$work/cpu.pb.gz" ${3:+"$3"} ;;
    jemalloc) MALLOC_CONF=prof:true,prof_active:true,lg_prof_sample:16,prof_unbias:false \
      "$work/heap_jemalloc" "$2" ${3:+"$3"} ;;
  esac
}

# One line per diff: system, kind, entries, whether the medium site was called
# changed, how many other entries were, and those entries (two frames past the
# allocator's, ';'-joined, '|' between entries). The medium site: Go names it;
# jemalloc's frames may be addresses, so its record is the one of 4096-byte objects.
verdicts() {  # verdicts SYSTEM KIND BASE NEW
  "$allocsim" diff --json --alpha "$alpha" "$3" "$4" |
    /usr/bin/python3 -c 'import json, sys; d = json.load(sys.stdin)
medium = lambda e: "main.siteMedium" in e["stack"] if sys.argv[1] == "go" else abs(e["object_size"] - 4096) < 0.5
changed = [e for e in d["entries"] if e["verdict"] == "changed"]
others = [";".join([f for f in e["stack"].split(";") if not f.startswith("libjemalloc")][:2]) for e in changed if not medium(e)]
print(sys.argv[1], sys.argv[2], len(d["entries"]), sum(map(medium, changed)), len(others), "|".join(others))' "$1" "$2"
}

for system in go jemalloc; do
  ext=$([ $system = go ] && echo pb.gz || echo heap)
  for ((i = 0; i < pairs; ++i)); do
    profile $system "$work/base.$ext"
    profile $system "$work/same.$ext"
    profile $system "$work/new.$ext" $factor
    verdicts $system null "$work/base.$ext" "$work/same.$ext"
    verdicts $system change "$work/base.$ext" "$work/new.$ext"
  done
done > "$work/verdicts.txt"

/usr/bin/python3 - "$work/verdicts.txt" "$pairs" "$alpha" "$factor" <<'PY'
import math, sys
import numpy as np
from scipy.stats import binom

path, pairs, alpha, factor = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
rows = [line.rstrip("\n").split(" ", 5) for line in open(path)]
false_alarm = 1e-4  # each bound below is crossed with at most this probability


def power(n1, n2, q, level):
    """P(the two-sided exact conditional test rejects at `level`) when BASE's count is
    Binomial(n1, q) and NEW's Binomial(n2, q) (each object sampled independently with
    q = 1 - exp(-s/R)): the sum over both counts of their probabilities where the
    p-value, 2 min(P(X <= k1), P(X >= k1)) for X ~ Binomial(k1 + k2, 1/2) (equal
    exposures), is <= level (count_change.h)."""
    k1 = np.arange(binom.ppf(1e-12, n1, q), binom.isf(1e-12, n1, q) + 1)[:, None]
    k2 = np.arange(binom.ppf(1e-12, n2, q), binom.isf(1e-12, n2, q) + 1)[None, :]
    n = k1 + k2
    p = np.minimum(1, 2 * np.minimum(binom.cdf(k1, n, 0.5), binom.sf(k1 - 1, n, 0.5)))
    return float(np.sum(binom.pmf(k1, n1, q) * binom.pmf(k2, n2, q) * (p <= level)))


# A valid test makes a null pair falsely "changed" with probability <= alpha (Holm), so
# the count of such pairs is at most Binomial(pairs, alpha): more than its 1 - 1e-4
# quantile happens with probability <= 1e-4 unless the test is anti-conservative.
fp_bound = int(binom.ppf(1 - false_alarm, pairs, alpha))
q = -math.expm1(-4096 / 65536)  # the medium site's 4096-byte objects at R = 64 KiB
n1, n2 = 2000, int(2000 * factor + 0.5)
failed = []
print(f"diff on real profiles: {pairs} pairs per system, family-wise alpha {alpha}; "
      f"false-positive bound {fp_bound} pairs (Binomial({pairs}, {alpha}) 1 - {false_alarm:g} quantile, "
      f"P(more) = {binom.sf(fp_bound, pairs, alpha):.1e})")
print("| system | null pairs called changed | change pairs: medium changed | of them, nothing else | "
      "other entries changed | predicted power [alpha/m, alpha] | power bound | entries m |")
print("|---|---|---|---|---|---|---|---|")
for system in ("go", "jemalloc"):
    null = [r for r in rows if r[0] == system and r[1] == "null"]
    change = [r for r in rows if r[0] == system and r[1] == "change"]
    false_pairs = sum(int(r[3]) + int(r[4]) > 0 for r in null)
    hits = sum(int(r[3]) > 0 for r in change)
    exact = sum(int(r[3]) > 0 and int(r[4]) == 0 for r in change)
    others = sum(int(r[4]) > 0 for r in change)
    m = sorted(int(r[2]) for r in change)
    # Holm rejects the site whenever its p-value is <= alpha/m (every smaller p-value
    # passes its own step then), and never when it is > alpha: the site's power lies
    # between the two. The bound uses the lower one, pair by pair (m varies).
    low = sum(power(n1, n2, q, alpha / k) for k in m) / len(m)
    high = power(n1, n2, q, alpha)
    # Pairs where the site is called changed are at least Binomial(pairs, low): fewer
    # than its 1e-4 quantile happens with probability < 1e-4 if the model holds.
    # Below some number of pairs that quantile is 0, and the bound could not fail:
    # said so in its column rather than printed as ">= 0".
    power_bound = int(binom.ppf(false_alarm, pairs, low))
    needed = next(n for n in range(1, 1000) if binom.ppf(false_alarm, n, low) >= 1)
    shown = f">= {power_bound}" if power_bound > 0 else f"none below {needed} pairs"
    print(f"| {system} | {false_pairs} / {len(null)} | {hits} / {len(change)} ({hits / len(change):.3f}) | {exact} | "
          f"{others} | [{low:.3f}, {high:.3f}] | {shown} | {m[0]}..{m[-1]} |")
    if false_pairs > fp_bound:
        failed.append(f"{system}: {false_pairs} of {len(null)} null pairs called changed, more than {fp_bound}")
    if others > fp_bound:
        failed.append(f"{system}: other entries changed in {others} of {len(change)} change pairs, more than {fp_bound}")
    if hits < power_bound:
        failed.append(f"{system}: medium site changed in {hits} of {len(change)} pairs, fewer than {power_bound}")
for system in ("go", "jemalloc"):
    for kind in ("null", "change"):
        named = [name for r in rows if r[0] == system and r[1] == kind and r[5] for name in r[5].split("|")]
        if named:
            print(f"{system} {kind} pairs, other entries called changed: " +
                  ", ".join(f"{named.count(n)} x {n}" for n in sorted(set(named))))
for line in failed:
    print("diff real-run check failed:", line, file=sys.stderr)
sys.exit(1 if failed else 0)
PY
