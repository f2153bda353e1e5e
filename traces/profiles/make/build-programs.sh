#!/usr/bin/env bash
# Builds the profile programs into DIR (a directory the caller made): heap_go (Go
# 1.19, its build cache in DIR/cache), heap_jemalloc (jemalloc 5.3) and
# heap_gperftools (gperftools 2.10), from heap_go.go and heap_native.cpp beside this
# script. Used by make.sh and by scripts/profile-real-coverage.sh and
# scripts/diff-real-check.sh.
#   traces/profiles/make/build-programs.sh DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: build-programs.sh DIR}
cp "$here/heap_go.go" "$work/main.go"
(cd "$work" && GO111MODULE=off GOCACHE="$work/cache" go build -o heap_go main.go)
g++ -O1 -std=c++17 -DHEAP_JEMALLOC "$here/heap_native.cpp" -o "$work/heap_jemalloc" -ljemalloc
g++ -O1 -std=c++17 -DHEAP_GPERFTOOLS "$here/heap_native.cpp" -o "$work/heap_gperftools" -ltcmalloc
