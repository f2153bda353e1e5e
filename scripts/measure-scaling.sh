#!/usr/bin/env bash
# The scaling table of docs/scaling.md: the wall time of one scenario (a
# lognormal trace of 4·10^6 allocations, 1000 stacks, poisson at 4 KiB, R
# replications) as one process on 1 and 2 threads, as 2 shards then a merge, and
# as 2 MPI ranks, all on this machine. Usage: scripts/measure-scaling.sh [R]
set -euo pipefail
cd "$(dirname "$0")/.."
allocsim=build/bin/allocsim
replications=${1:-192}
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
shards() {
  "$allocsim" run --quiet --threads 1 --shard 0/2 --out "$work/part0" "$scenario" &
  local first=$!
  "$allocsim" run --quiet --threads 1 --shard 1/2 --out "$work/part1" "$scenario"
  wait "$first"
  "$allocsim" merge --quiet --no-charts --threads 2 --out "$work/merged" "$work/part0" "$work/part1"
}
echo "R = $replications; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| run | wall s | events x replications / s |"
echo "|---|---|---|"
row "1 process, 1 thread" "$allocsim" run --quiet --no-charts --threads 1 --out "$work/one" "$scenario"
row "1 process, 2 threads" "$allocsim" run --quiet --no-charts --threads 2 --out "$work/two" "$scenario"
row "2 shards (1 thread each) + merge" shards
if command -v mpirun >/dev/null; then
  row "2 MPI ranks, 1 thread each" mpirun -n 2 --allow-run-as-root --oversubscribe \
    "$allocsim" run --mpi --quiet --no-charts --threads 1 --out "$work/mpi" "$scenario"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
