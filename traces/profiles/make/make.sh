#!/usr/bin/env bash
# Rebuilds the real heap profiles of traces/profiles/ (see README.md there) from
# Go 1.19, jemalloc 5.3 and gperftools 2.10. Each run samples afresh, so the
# committed files are one draw; rerunning gives others of the same kind.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$here/build-programs.sh" "$work"
"$work/heap_go" 65536 "$out/go-heap.pb.gz" "$out/go-cpu.pb.gz"
# The same program at two other MemProfileRates, for `allocsim aggregate` across rates.
"$work/heap_go" 32768 "$out/go-heap-32k.pb.gz" "$work/cpu.pb.gz"
"$work/heap_go" 524288 "$out/go-heap-512k.pb.gz" "$work/cpu.pb.gz"

MALLOC_CONF=prof:true,prof_active:true,lg_prof_sample:16 "$work/heap_jemalloc" "$out/jemalloc-unbiased.heap"
MALLOC_CONF=prof:true,prof_active:true,lg_prof_sample:16,prof_unbias:false "$work/heap_jemalloc" "$out/jemalloc-raw.heap"

TCMALLOC_SAMPLE_PARAMETER=65536 "$work/heap_gperftools" "$out/gperftools.heap"
