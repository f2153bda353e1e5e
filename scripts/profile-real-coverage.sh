#!/usr/bin/env bash
# Coverage of `allocsim profile`'s intervals on real processes: runs the profile
# programs of traces/profiles/make (Go 1.19, as pprof and as ?debug=1 text; jemalloc
# 5.3 with prof_unbias:false and with its default prof_unbias; gperftools 2.10, its
# sampled profile and its unsampled heap profiler's) N times each (default 200), reads
# every profile with build/bin/allocsim profile --json, and counts how often each
# site's interval holds its known live bytes (traces/profiles/README.md).
# Usage: scripts/profile-real-coverage.sh [N] [LEVEL] [MIN_COVERED]   (after building;
# ALLOCSIM=path overrides build/bin/allocsim)
# With MIN_COVERED, exits 1 unless every site whose interval is exact under its model
# (all but jemalloc's mixed-size record) was covered in at least MIN_COVERED of the N
# runs, and every heap-profiler point in all N: the quick check of ./test.sh
# (scripts/profile-real-check.sh).
set -euo pipefail
runs=${1:-200}
level=${2:-0.95}
min_covered=${3:-0}
root=$(cd "$(dirname "$0")/.." && pwd)
allocsim=${ALLOCSIM:-$root/build/bin/allocsim}
make_dir="$root/traces/profiles/make"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$make_dir/build-programs.sh" "$work"

report() {  # report SYSTEM FILE [allocsim options...]
  "$root/scripts/profile-intervals.sh" "$allocsim" "$level" "$@"
}

for ((r = 0; r < runs; ++r)); do
  HEAP_GO_TEXT="$work/go.txt" "$work/heap_go" 65536 "$work/go.pb.gz" "$work/cpu.pb.gz"
  report go "$work/go.pb.gz"
  report go-debug1 "$work/go.txt"
  MALLOC_CONF=prof:true,prof_active:true,lg_prof_sample:16,prof_unbias:false "$work/heap_jemalloc" "$work/raw.heap"
  report jemalloc-raw "$work/raw.heap" --jemalloc-unbias off
  MALLOC_CONF=prof:true,prof_active:true,lg_prof_sample:16 "$work/heap_jemalloc" "$work/unbiased.heap"
  report jemalloc-unbiased "$work/unbiased.heap"
  TCMALLOC_SAMPLE_PARAMETER=65536 HEAPPROFILE="$work/hp" "$work/heap_gperftools" "$work/gperftools.heap" 2> /dev/null
  report gperftools "$work/gperftools.heap"
  report gperftools-heapprofile "$work/hp.0001.heap"
  rm -f "$work"/hp.*.heap
done > "$work/intervals.txt"

# Sites by system: Go names them; the native profiles are told apart by object size
# (gperftools keeps one record per size, so the mixed site is two records there).
PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 - "$work/intervals.txt" "$runs" "$level" "$min_covered" "$root/scripts" <<'PY'
import sys
path, runs, level, min_covered = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, sys.argv[5])
from profile_coverage import count_covered, print_table
truth = {}  # (system, site): (live bytes, how to recognise the record)
# The same run's records, as pprof and as the debug=1 text.
for system in ("go", "go-debug1"):
    truth[(system, "small")] = (1280000, lambda stack, size: "main.siteSmall" in stack)
    truth[(system, "medium")] = (8192000, lambda stack, size: "main.siteMedium" in stack)
for system in ("jemalloc-raw", "jemalloc-unbiased"):
    truth[(system, "small")] = (1280000, lambda stack, size: abs(size - 64) < 0.5)
    truth[(system, "medium")] = (8192000, lambda stack, size: abs(size - 4096) < 2)
    truth[(system, "mixed (average size)")] = (16896000, lambda stack, size: 300 < size < 8191.5 and abs(size - 4096) >= 2)
truth[("gperftools", "mixed 8192")] = (2000 * 8192, lambda stack, size: size == 8192)
truth[("gperftools", "mixed 256")] = (2000 * 256, lambda stack, size: size == 256)
# The heap profiler records every allocation: each site's interval is the point of its
# true bytes (one record per stack, so the mixed site averages 4224 B).
for site, bytes_, size_ in (("small", 1280000, 64), ("medium", 8192000, 4096), ("large", 20 << 20, 1 << 20),
                            ("mixed (average size)", 16896000, 4224)):
    truth[("gperftools-heapprofile", site)] = (bytes_, lambda stack, size, size_=size_: abs(size - size_) < 0.5)
hits, seen = count_covered(path, truth)
# A site with no sample has no record: its interval [0, upper(0)] holds the truth
# exactly when upper(0) = -T ln(a/2) >= bytes, never for these sites.
print_table(truth, hits, seen, runs, level)
failed = []
for key in truth:
    # The mixed-size jemalloc record's interval is an approximation: measured, not gated.
    # The unsampled heap profiler's points must hold the truth in every run.
    need = runs if key[0] == "gperftools-heapprofile" else min_covered
    if not (key[0].startswith("jemalloc") and "mixed" in key[1]) and min_covered > 0 and hits[key] < need:
        failed.append(f"{key[0]} {key[1]}: {hits[key]} of {runs} covered, fewer than {need}")
for line in failed:
    print("profile real-run check failed:", line, file=sys.stderr)
sys.exit(1 if failed else 0)
PY
