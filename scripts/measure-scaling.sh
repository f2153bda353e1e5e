#!/usr/bin/env bash
# The scaling table of docs/scaling.md: the wall time of one scenario (a
# lognormal trace of 4·10^6 allocations, 1000 stacks, poisson at 4 KiB, R
# replications) as one process on P threads, as P shards of one thread each run
# side by side then merged, and as P MPI ranks of one thread each, for each P of
# COUNTS. Usage: scripts/measure-scaling.sh [R] [COUNTS]   (defaults: 192 "1 2 4")
set -euo pipefail
cd "$(dirname "$0")/.."
allocsim=${ALLOCSIM:-build/bin/allocsim}  # ALLOCSIM=PATH times another build
replications=${1:-192}
counts=${2:-1 2 4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/scale.json" <<JSON
{"name": "scale", "seed": 3, "replications": $replications,
 "trace": {"allocations": 4000000, "threads": 4,
           "sizes": {"distribution": "lognormal", "median": 55, "sigma": 1.5},
           "stacks": {"rule": "random", "count": 1000}},
 "schemes": [{"scheme": "poisson", "rate": 4096}], "groups": ["total", "stack"]}
JSON
scenario=$work/scale.json
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
row() {
  local what=$1 s
  shift
  s=$(seconds "$@")
  printf '| %s | %.2f | %.3g |\n' "$what" "$s" "$(echo "4000000 * $replications / $s" | bc -l)"
}
# shards P: P shards of one thread each, side by side, then their merge.
shards() {
  local p=$1 k pids=() parts=()
  for ((k = 0; k < p; ++k)); do
    "$allocsim" run --quiet --threads 1 --shard "$k/$p" --out "$work/part$k" "$scenario" &
    pids+=($!)
    parts+=("$work/part$k")
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  "$allocsim" merge --quiet --no-charts --threads "$p" --out "$work/merged" "${parts[@]}"
}
echo "R = $replications on $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| run | wall s | events x replications / s |"
echo "|---|---|---|"
for p in $counts; do
  row "1 process, $p thread(s)" "$allocsim" run --quiet --no-charts --threads "$p" --out "$work/threads$p" "$scenario"
  if ((p > 1)); then
    row "$p shards (1 thread each) + merge" shards "$p"
    if command -v mpirun >/dev/null; then
      row "$p MPI ranks, 1 thread each" mpirun -n "$p" --allow-run-as-root --oversubscribe \
        "$allocsim" run --mpi --quiet --no-charts --threads 1 --out "$work/mpi$p" "$scenario"
    fi
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
