#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ (built by scripts/build-sanitize.sh) for SECONDS
# each (default 600), from its committed seed corpus and with its dictionary. New
# inputs go to build-sanitize/fuzz-corpus/, crashes to build-sanitize/fuzz-crashes/;
# the first crash, leak, sanitizer report or slow input (over 10 s) fails the script.
# `scripts/fuzz.sh 25 csv_trace` runs one target.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift $(( $# > 0 ? 1 : 0 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(scenario heaptrack csv_trace native_trace partial_state profile)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
for target in "${targets[@]}"; do
  corpus="build-sanitize/fuzz-corpus/$target"
  crashes="build-sanitize/fuzz-crashes/$target"
  mkdir -p "$corpus" "$crashes"
  echo "fuzz: $target for ${seconds} s" >&2
  "build-sanitize/bin/${target}_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -dict="fuzz/$target.dict" -artifact_prefix="$crashes/" -print_final_stats=1 \
    "$corpus" "fuzz/corpus/$target" 2>"build-sanitize/fuzz-$target.log" ||
    { tail -n 60 "build-sanitize/fuzz-$target.log" >&2; echo "fuzz: $target failed; input in $crashes/" >&2; exit 1; }
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)" "build-sanitize/fuzz-$target.log" | sed "s/^/fuzz: $target /" >&2
done
