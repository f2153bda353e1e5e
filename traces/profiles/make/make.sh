#!/usr/bin/env bash
# Rebuilds the real heap profiles of traces/profiles/ (see README.md there) from
# Go 1.19, jemalloc 5.3 and gperftools 2.10. Each run samples afresh, so the
# committed files are one draw; rerunning gives others of the same kind.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp "$here/heap_go.go" "$work/main.go"
(cd "$work" && GO111MODULE=off GOCACHE="$work/cache" go build -o heap_go main.go)
"$work/heap_go" 65536 "$out/go-heap.pb.gz" "$out/go-cpu.pb.gz"

g++ -O1 -std=c++17 -DHEAP_JEMALLOC "$here/heap_native.cpp" -o "$work/heap_jemalloc" -ljemalloc
MALLOC_CONF=prof:true,prof_active:true,lg_prof_sample:16 "$work/heap_jemalloc" "$out/jemalloc-unbiased.heap"
MALLOC_CONF=prof:true,prof_active:true,lg_prof_sample:16,prof_unbias:false "$work/heap_jemalloc" "$out/jemalloc-raw.heap"

g++ -O1 -std=c++17 -DHEAP_GPERFTOOLS "$here/heap_native.cpp" -o "$work/heap_gperftools" -ltcmalloc
TCMALLOC_SAMPLE_PARAMETER=65536 "$work/heap_gperftools" "$out/gperftools.heap"
