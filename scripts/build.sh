#!/usr/bin/env bash
# Configures and builds allocsim (Release) into build/: the CLI at build/bin/allocsim,
# the test binary and the benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
