#!/usr/bin/env bash
# Builds allocsim and runs the whole test suite: the unit and statistical tests
# (ctest), the same tests again under ASan + UBSan (scripts/build-sanitize.sh), each
# fuzz target for 20 s (scripts/fuzz.sh), the Python module's tests, the installed
# package (a consumer project built against it), the notebooks (executed headless
# against the committed results/, each also driving the engine through the module),
# the regression expectations of scenarios/regression/ (allocsim check) and the quick
# conformance checks against the real samplers (scripts/conformance.sh --quick), and
# a few real runs of the Go, jemalloc and gperftools profile programs whose sites'
# intervals must cover their known bytes (scripts/profile-real-check.sh), and pairs of
# such runs on which `allocsim diff`'s false changes and power must stay within their
# bounds (scripts/diff-real-check.sh 12), and, with
# chromium installed, a report.html rendered offline (scripts/report-browser-check.sh).
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
jobs=$(nproc 2>/dev/null || echo 2)
ctest --test-dir build --output-on-failure -j"$jobs"
scripts/build-sanitize.sh
scripts/sanitize-tests.sh
scripts/fuzz.sh 20
scripts/test-python.sh
scripts/test-install.sh
scripts/run-notebooks.sh
mkdir -p build/regression-results  # --junit's directory: allocsim creates no parent of an output file
build/bin/allocsim check --quiet --out build/regression-results \
  --junit build/regression-results/junit.xml scenarios/regression/*.json \
  scenarios/figures/async-profiler-tlab-interval.json \
  scenarios/figures/dd-trace-php-stride-bias.json \
  scenarios/figures/jfr-throttle-rate.json \
  scenarios/figures/memleak-clock-aliasing.json \
  scenarios/figures/scalene-free-trigger.json \
  scenarios/figures/datadog-ruby-clamp.json  # figures whose derivation is their check (2, 2, 2, 3, 0.3, 1.5 s)
scripts/conformance.sh --quick
# report.html opened offline in headless Chromium (apt-get install -y chromium)
if command -v chromium > /dev/null; then scripts/report-browser-check.sh; fi
scripts/profile-real-check.sh
scripts/diff-real-check.sh 12  # allocsim diff on 12 pairs of real Go and jemalloc runs each (about 66 s)
if [ -d ../shared/corpus ]; then scripts/check-corpus-profiles.sh; fi  # the shared corpus of real profiles, when present
