#!/usr/bin/env bash
# Coverage of `allocsim profile`'s intervals on real Node.js processes: runs
# traces/profiles/make/heap_node.js (Debian's Node.js, V8's SamplingHeapProfiler through
# @datadog/pprof 5.20.0 from the npm registry) RUNS times (default 200), each a fresh
# process (V8 seeds its sampler at random), at a mean of 65536 bytes between samples,
# reads every profile with allocsim profile --json and counts how often each site's
# interval on bytes holds its true bytes n s (docs/profiles.md "On real processes").
#   scripts/profile-real-node.sh [RUNS] [LEVEL]   (after building; ALLOCSIM=path overrides build/bin/allocsim)
#
# The truth: each site's count n of arrays is the program's (it prints them); their
# size s is V8's, read from a census run first at an interval of 1 byte, where every
# allocation is sampled (every step is then V8's least, 8 bytes, shorter than any
# array) and ScaleSample's factor is 1: the site's record holding exactly n objects
# gives s, and the script fails unless every site has one (all n arrays of one size).
# V8 runs with --max-opt=0 --no-lazy-feedback-allocation (interpreter only, feedback
# from the first call): with its default tiers, siteSmall's loop is optimized on stack
# part way and TurboFan's code allocates the rest of its arrays without their
# AllocationMemento (80 B, not 96 B), at a point that varies between runs (2991 or
# 6327 of the 20000 at 96 B in six censuses), and the first few arrays of each site
# come before the feedback that adds the memento; either way no record's n is known.
# The profile is also written under Go's sample types (heap_node.js AS_GO) and read so
# ("node-as-go" rows, measured, not gated): Go's samples rule on V8's rounding.
#
# Fails (exit 1) when a site's covered runs c have P(Binomial(RUNS, LEVEL) <= c) <=
# 0.001: intervals that cover with probability LEVEL or more (docs/profiles.md) fail so
# with probability <= 0.001 per site, <= 0.003 for the three. Without node or npm, or
# when the package cannot be installed, prints one line and exits 0 ("skipped"). Not
# part of ./test.sh (it needs the npm registry once). The package goes to
# build-node/datadog-pprof-5.20.0/ (gitignored), installed there once.
set -euo pipefail
runs=${1:-200}
level=${2:-0.95}
root=$(cd "$(dirname "$0")/.." && pwd)
allocsim=${ALLOCSIM:-$root/build/bin/allocsim}
interval=65536
pprof_version=5.20.0
for tool in node npm; do
  if ! command -v "$tool" > /dev/null; then
    echo "profile-real-node: skipped: $tool is not installed"
    exit 0
  fi
done
modules="$root/build-node/datadog-pprof-$pprof_version"
if [[ ! -d "$modules/node_modules/@datadog/pprof" ]]; then
  mkdir -p "$modules"
  if ! npm install --prefix "$modules" --no-save --no-audit --no-fund --ignore-scripts \
    "@datadog/pprof@$pprof_version" > "$modules/npm-install.log" 2>&1; then
    echo "profile-real-node: skipped: npm install @datadog/pprof@$pprof_version failed (see $modules/npm-install.log)"
    exit 0
  fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

heap_node() {  # heap_node INTERVAL OUT: prints the sites' names and counts
  NODE_PATH="$modules/node_modules" node --max-opt=0 --no-lazy-feedback-allocation \
    "$root/traces/profiles/make/heap_node.js" "$@"
}
intervals() {  # intervals SYSTEM FILE
  "$root/scripts/profile-intervals.sh" "$allocsim" "$level" "$@"
}

heap_node 1 "$work/census.pb.gz" > "$work/sites.txt"
intervals census "$work/census.pb.gz" > "$work/census.txt"
for ((r = 0; r < runs; ++r)); do
  heap_node "$interval" "$work/run.pb.gz" "$work/as-go.pb.gz" > /dev/null
  intervals node "$work/run.pb.gz"
  intervals node-as-go "$work/as-go.pb.gz"
done > "$work/intervals.txt"

PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 - "$work" "$runs" "$level" "$root/scripts" <<'PY'
import math, sys
work, runs, level = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
sys.path.insert(0, sys.argv[4])
from profile_coverage import count_covered, print_table, read_entries
counts = {site: int(n) for site, n in (line.split() for line in open(f"{work}/sites.txt"))}
# The census's records are points (every allocation sampled): bytes / size objects.
sizes = {}
for _, stack, size, lower, upper in read_entries(f"{work}/census.txt"):
    site = stack.split()[0]
    if site in counts and lower == upper == counts[site] * size:
        sizes.setdefault(site, []).append(size)
for site in counts:
    if len(sizes.get(site, [])) != 1:
        sys.exit(f"profile real-node check failed: the census has {len(sizes.get(site, []))} records of "
                 f"{site} holding its {counts[site]} arrays, not 1")
    print(f"{site}: {counts[site]} arrays of {sizes[site][0]:.0f} B (census)")
truth = {(system, site): (n * int(sizes[site][0]),
                          lambda stack, size, site=site: stack.split()[0] == site and size == sizes[site][0])
         for system in ("node", "node-as-go") for site, n in counts.items()}
hits, seen = count_covered(f"{work}/intervals.txt", truth)
print_table(truth, hits, seen, runs, level)


def binomial_cdf(c, n, p):  # P(Binomial(n, p) <= c)
    return sum(math.comb(n, k) * p**k * (1 - p)**(n - k) for k in range(c + 1))


bound = max((c for c in range(runs + 1) if binomial_cdf(c, runs, level) <= 0.001), default=-1)
print(f"node sites fail at {bound} covered runs or fewer (P(Binomial({runs}, {level}) <= c) <= 0.001)")
failed = [f"{key[1]}: {hits[key]} of {runs} covered, P(Binomial({runs}, {level}) <= {hits[key]}) <= 0.001"
          for key in truth if key[0] == "node" and hits[key] <= bound]
for line in failed:
    print("profile real-node check failed:", line, file=sys.stderr)
sys.exit(1 if failed else 0)
PY
