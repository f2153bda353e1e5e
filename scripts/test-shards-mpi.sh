#!/usr/bin/env bash
# Sharded and MPI runs against one process, byte for byte (docs/scaling.md), and
# the errors of `merge` and of a rank that dies. Run by ctest (tests/CMakeLists.txt)
# with the built allocsim as $1; the MPI part runs where this allocsim was built
# with MPI and mpirun exists. About 10 s on 2 cores.
set -euo pipefail
allocsim=${1:-build/bin/allocsim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$work/shards.json" <<'JSON'
{
  "name": "shards", "seed": 11, "replications": 90,
  "trace": {"allocations": "$n", "threads": 3, "thread_assignment": "random",
            "sizes": {"distribution": "lognormal", "median": 64, "sigma": 1.5},
            "stacks": {"rule": "random", "count": 20},
            "lifetime": {"distribution": "exponential", "mean": 500}},
  "schemes": [{"scheme": "poisson", "rate": 4096}, {"scheme": "jemalloc", "rate": 8192}],
  "sweep": {"n": [3000, 12000]},
  "groups": ["total", "stack", "size_bucket"],
  "windows": ["allocated", "live_at_end"],
  "outputs": {"estimates": true}
}
JSON
scenario=$work/shards.json

# Every result file equal; summary.json without its wall time.
same_results() {
  local a=$1 b=$2 file
  [ -f "$a/metrics.csv" ] || fail "no results in $a"
  diff -q <(cd "$a" && find . -type f | sort) <(cd "$b" && find . -type f | sort) >/dev/null \
    || fail "$a and $b hold different files"
  while IFS= read -r file; do
    if [ "$(basename "$file")" = summary.json ]; then
      cmp -s <(grep -v '"wall_seconds"' "$a/$file") <(grep -v '"wall_seconds"' "$b/$file") || fail "$b/$file differs"
    else
      cmp -s "$a/$file" "$b/$file" || fail "$b/$file differs"
    fi
  done < <(cd "$a" && find . -type f | sed 's|^\./||')
}

# An input error: exit 2, one line naming $2, nothing at $3.
rejects() {
  local expected=$1 absent=$2 status=0
  shift 2
  "$@" >"$work/out" 2>"$work/err" || status=$?
  [ "$status" -eq 2 ] || fail "exit $status, not 2: $*: $(cat "$work/err")"
  [ "$(wc -l <"$work/err")" -eq 1 ] || fail "not one line: $*: $(cat "$work/err")"
  grep -qF -- "$expected" "$work/err" || fail "'$expected' not in: $(cat "$work/err")"
  [ ! -e "$absent" ] || fail "$absent written by: $*"
}

"$allocsim" run --quiet --no-charts --threads 1 --out "$work/single" "$scenario"

# 3 shards (of unequal cost: the traces differ 4x), merged in any order.
for k in 0 1 2; do "$allocsim" run --quiet --threads 2 --shard "$k/3" --out "$work/part$k" "$scenario"; done
"$allocsim" merge --quiet --no-charts --threads 1 --out "$work/merged" "$work/part2" "$work/part0" "$work/part1"
same_results "$work/single/shards" "$work/merged/shards"

# More shards than units (4 jobs of 90 replications in blocks of 32: 12 units).
for k in $(seq 0 19); do "$allocsim" run --quiet --threads 1 --shard "$k/20" --out "$work/many$k" "$scenario"; done
"$allocsim" merge --quiet --no-charts --threads 1 --out "$work/many" "$work"/many*
same_results "$work/single/shards" "$work/many/shards"

# Bad input: exit 2, one line, nothing written.
rejects "--shard" "$work/p" "$allocsim" run --quiet --shard 3/3 --out "$work/p" "$scenario"
rejects "--shard" "$work/p" "$allocsim" run --quiet --shard x --out "$work/p" "$scenario"
rejects "--shard" "$work/p" "$allocsim" run --quiet --shard 0/2 --out "$work/p" "$scenario" "$scenario"
rejects "--mpi" "$work/p" "$allocsim" run --quiet --shard 0/2 --mpi --out "$work/p" "$scenario"
rejects "shard 1/3 is missing" "$work/bad/shards" "$allocsim" merge --quiet --out "$work/bad" "$work/part0" "$work/part2"
rejects "shard 1/3 again" "$work/bad/shards" \
  "$allocsim" merge --quiet --out "$work/bad" "$work/part0" "$work/part1" "$work/part1" "$work/part2"
rejects "is of 3 shards" "$work/bad/shards" "$allocsim" merge --quiet --out "$work/bad" "$work/part0" "$work/many1"
"$allocsim" run --quiet --threads 1 --seed 12 --shard 1/3 --out "$work/seed12" "$scenario"
rejects "seed 12" "$work/bad/shards" "$allocsim" merge --quiet --out "$work/bad" "$work/part0" "$work/seed12" "$work/part2"
sed 's/"shards"/"other"/' "$scenario" >"$work/other.json"
"$allocsim" run --quiet --threads 1 --shard 1/3 --out "$work/other" "$work/other.json"
rejects "a part of scenario" "$work/bad/shards" "$allocsim" merge --quiet --out "$work/bad" "$work/part0" "$work/other" "$work/part2"
head -c 200 "$work/part1" >"$work/truncated"
rejects "$work/truncated: " "$work/bad/shards" "$allocsim" merge --quiet --out "$work/bad" "$work/part0" "$work/truncated" "$work/part2"
cp "$work/part1" "$work/corrupt"
printf '\x7f' | dd of="$work/corrupt" bs=1 seek=300 conv=notrunc status=none
rejects "checksum mismatch" "$work/bad/shards" "$allocsim" merge --quiet --out "$work/bad" "$work/part0" "$work/corrupt" "$work/part2"
rejects "$work/absent: cannot open" "$work/bad/shards" "$allocsim" merge --quiet --out "$work/bad" "$work/part0" "$work/absent" "$work/part2"
# Forged parts with a valid checksum (FNV-1a 64 over the bytes before it): another
# allocsim version, or a shard count of 2^62 (which must not size anything).
forge() {
  /usr/bin/python3 - "$@" <<'PY'
import struct, sys
source, target, field = sys.argv[1:4]
data = open(source, "rb").read()[:-8]
at = len(b"ALLOCSIM-PART\n") + 8
size = struct.unpack_from("<Q", data, at)[0]
if field == "format":  # the format version before trace identities
    data = data[:at - 8] + struct.pack("<I", 1) + data[at - 4:]
elif field == "version":
    data = data[:at] + struct.pack("<Q", 5) + b"9.9.9" + data[at + 8 + size:]
else:  # shard count: after the version, hash, seed, replications, replay mode, source, document, K
    at += 8 + size + 3 * 8 + 1
    for _ in range(2):
        at += 8 + struct.unpack_from("<Q", data, at)[0]
    data = data[:at + 8] + struct.pack("<Q", 2**62) + data[at + 16:]
h = 14695981039346656037
for b in data:
    h = ((h ^ b) * 1099511628211) % 2**64
open(target, "wb").write(data + struct.pack("<Q", h))
PY
}
forge "$work/part1" "$work/version" version
rejects "written by allocsim 9.9.9" "$work/bad/shards" "$allocsim" merge --quiet --out "$work/bad" "$work/part0" "$work/version" "$work/part2"
forge "$work/part0" "$work/huge" shards
rejects "shard 1/4611686018427387904 is missing" "$work/bad/shards" "$allocsim" merge --quiet --out "$work/bad" "$work/huge"
forge "$work/part1" "$work/format1" format
rejects "partial-state format version 1" "$work/bad/shards" "$allocsim" merge --quiet --out "$work/bad" "$work/part0" "$work/format1" "$work/part2"
# Parts bind the bytes of their trace files: a trace changed after the shards ran,
# or shards run on different traces, are refused.
echo '{"allocations": 2000, "sizes": {"distribution": "lognormal", "median": 64, "sigma": 1}}' >"$work/spec.json"
echo '{"name": "filed", "seed": 3, "replications": 40, "trace": {"kind": "file", "path": "t.ast"},
  "schemes": [{"scheme": "poisson", "rate": 512}, {"scheme": "jemalloc", "rate": 512}]}' >"$work/filed.json"
"$allocsim" trace generate --seed 1 -o "$work/t.ast" "$work/spec.json" >/dev/null
for k in 0 1; do "$allocsim" run --quiet --threads 1 --shard "$k/2" --out "$work/filed$k" "$work/filed.json"; done
"$allocsim" trace generate --seed 2 -o "$work/t.ast" "$work/spec.json" >/dev/null
rejects "$work/filed0: trace \"$work/t.ast\" changed since the shards ran" "$work/bad/filed" \
  "$allocsim" merge --quiet --out "$work/bad" "$work/filed0" "$work/filed1"
"$allocsim" run --quiet --threads 1 --shard 1/2 --out "$work/filed1" "$work/filed.json"
rejects "$work/filed1: ran on other bytes of trace" "$work/bad/filed" \
  "$allocsim" merge --quiet --out "$work/bad" "$work/filed0" "$work/filed1"
echo "shards: 3 and 20 shards merged byte-identical to one process; 16 bad inputs rejected"

if ! command -v mpirun >/dev/null; then
  echo "SKIP mpi: no mpirun"
  exit 0
fi
if "$allocsim" run --quiet --mpi --out "$work/nompi" "$scenario" 2>&1 | grep -q "built without MPI"; then
  echo "SKIP mpi: this allocsim was built without MPI"
  exit 0
fi
rm -rf "$work/nompi"
mpi=(mpirun -n 2 --allow-run-as-root --oversubscribe)
"${mpi[@]}" "$allocsim" run --quiet --no-charts --mpi --threads 1 --out "$work/mpi" "$scenario"
same_results "$work/single/shards" "$work/mpi/shards"

# A rank that dies: mpirun fails and no results directory appears.
sed 's/"replications": 90/"replications": 200000/' "$scenario" >"$work/long.json"
"${mpi[@]}" "$allocsim" run --quiet --no-charts --mpi --threads 1 --out "$work/killed" "$work/long.json" \
  >"$work/mpi-out" 2>&1 &
launcher=$!
victim=""
for _ in $(seq 1 100); do
  victim=$(pgrep -P "$launcher" -f "allocsim run" | tail -n 1 || true)
  [ -n "$victim" ] && break
  sleep 0.1
done
[ -n "$victim" ] || fail "no rank of mpirun $launcher found"
sleep 1
kill -KILL "$victim"
status=0
wait "$launcher" || status=$?
[ "$status" -ne 0 ] || fail "mpirun exited 0 after rank $victim was killed"
[ ! -e "$work/killed" ] || fail "a results directory appeared after a rank died"
echo "mpi: 2 ranks byte-identical to one process; a killed rank fails mpirun (exit $status) with no results"
