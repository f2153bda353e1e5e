#!/usr/bin/env bash
# Runs `allocsim conformance` for every real sampler: each driver against allocsim's
# model of it. Needs a built allocsim (scripts/build.sh).
#   scripts/conformance.sh          full runs (200 processes each) into results/conformance/
#   scripts/conformance.sh --quick  12 processes on a quarter of the plan each, into
#                                   build/conformance-results/ (./test.sh)
# Exit 0 when every verdict passes, 1 when one fails, 2 when a driver cannot be built or run.
set -uo pipefail
cd "$(dirname "$0")/.."
systems=(jemalloc gperftools go jvm)
if [ "${1:-}" = "--quick" ]; then
  arguments=(--runs 12 --scale 0.25 --no-chart)
  out=build/conformance-results
else
  arguments=(--runs 200)
  out=results/conformance
fi
status=0
for system in "${systems[@]}"; do
  build/bin/allocsim conformance "$system" "${arguments[@]}" --out "$out/$system"
  code=$?
  if [ $code -eq 2 ]; then exit 2; fi
  if [ $code -ne 0 ]; then status=1; fi
done
exit $status
