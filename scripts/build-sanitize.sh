#!/usr/bin/env bash
# The sanitizer build (cmake/sanitize.cmake) into build-sanitize/: clang, ASan +
# UBSan, the unit tests, the command-line tool they run and the fuzz targets (not the
# Python module, whose tests run the Release build).
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/build.sh build-sanitize -DALLOCSIM_SANITIZE=ON -DCMAKE_CXX_COMPILER=clang++-14 \
  -DALLOCSIM_BUILD_BENCH=OFF -DALLOCSIM_BUILD_PYTHON=OFF
