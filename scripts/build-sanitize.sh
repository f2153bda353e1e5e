#!/usr/bin/env bash
# The sanitizer build (cmake/sanitize.cmake) into build-sanitize/: clang, ASan +
# UBSan, the unit tests, the command-line tool they run and the fuzz targets (not the
# Python module, whose tests run the Release build). No precompiled headers here:
# clang's are passed as -Xclang options naming the build tree's absolute paths, and the
# header it writes records those paths, so no other checkout's build could reuse ccache's
# copy of any file (every sanitizer build of a fresh clone ran cold, 12.7 min).
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/build.sh build-sanitize -DALLOCSIM_SANITIZE=ON -DCMAKE_CXX_COMPILER=clang++-14 \
  -DALLOCSIM_BUILD_BENCH=OFF -DALLOCSIM_BUILD_PYTHON=OFF -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON
