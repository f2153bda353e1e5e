#!/usr/bin/env bash
# Runs the unit tests of the sanitizer build (scripts/build-sanitize.sh) under ASan
# + UBSan: any report fails the test it happens in. The command-line tests run the
# sanitized allocsim too.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
ctest --test-dir build-sanitize --output-on-failure -j"$jobs" "$@"
