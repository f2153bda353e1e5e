#!/usr/bin/env bash
# Runs `allocsim conformance` for every real sampler: each driver against allocsim's
# model of it. Needs a built allocsim (scripts/build.sh).
#   scripts/conformance.sh          full runs (200 processes each) into results/conformance/
#   scripts/conformance.sh --quick  12 processes on a quarter of the plan each, into
#                                   build/conformance-results/ (./test.sh)
# Exit 2 when a driver cannot be built or run. Otherwise exit 1 when a verdict fails,
# except for the JVM, whose model is known not to hold (README: "Conformance"): its
# verdict is printed but does not fail the script.
set -uo pipefail
cd "$(dirname "$0")/.."
systems=(jemalloc gperftools go jvm jvm-serial)
known_to_differ=" jvm jvm-serial "
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
  if [ $code -eq 2 ] || [ $code -gt 2 ]; then exit 2; fi
  if [ $code -eq 1 ] && [[ "$known_to_differ" != *" $system "* ]]; then status=1; fi
done
exit $status
