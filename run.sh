#!/usr/bin/env bash
# allocsim's main job: install what is missing, build, run scenarios.
#   ./run.sh                 runs the default scenarios: every figure of the design
#                            documents (scenarios/figures/), the examples, the
#                            recorded traces (scenarios/traces/), then the sampling
#                            advice for the recorded traces (scripts/advise-traces.sh)
#                            and the conformance checks against the real samplers
#                            (scripts/conformance.sh, results/conformance/)
#   ./run.sh FILE.json ...   runs the given scenario files
# Results go to results/<scenario>/ (metrics.csv, summary.json, charts/, tables/).
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
if [ $# -eq 0 ]; then
  build/bin/allocsim run --out results scenarios/figures/*.json scenarios/examples/*.json scenarios/traces/*.json
  scripts/advise-traces.sh
  # A failed verdict (1) is a finding, recorded in results/conformance/; 2 is an error.
  scripts/conformance.sh || [ $? -eq 1 ]
else
  build/bin/allocsim run --out results "$@"
fi
echo "results written under results/"
