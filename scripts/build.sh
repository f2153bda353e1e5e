#!/usr/bin/env bash
# Configures and builds allocsim (Release) into build/: the CLI at build/bin/allocsim,
# the Python package at build/python/allocsim, the test binary and the benchmarks.
# `scripts/build.sh DIR CMAKE_ARGS...` builds into DIR with extra configuration, as
# scripts/build-sanitize.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build}"
shift $(( $# > 0 ? 1 : 0 ))
jobs=$(nproc 2>/dev/null || echo 2)
# ccache (scripts/install-deps.sh) makes rebuilds of unchanged files, other checkouts'
# too, free. Its depend mode hashes the headers the compiler lists (-MD) instead of
# running the preprocessor once more per file, which a first build pays for nothing;
# precompiled headers (CMakeLists.txt) are cached under these sloppiness settings
# (ccache's manual, "Precompiled headers").
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=true CCACHE_DEPEND="${CCACHE_DEPEND:-true}"
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros}"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
cmake --build "$build_dir" -j"$jobs"
