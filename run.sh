#!/usr/bin/env bash
# allocsim's main job: install what is missing, build, run scenarios.
#   ./run.sh                 runs the default scenarios: every figure of the design
#                            documents (scenarios/figures/) and the examples
#   ./run.sh FILE.json ...   runs the given scenario files
# Results go to results/<scenario>/ (metrics.csv, summary.json, charts/, tables/).
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
if [ $# -eq 0 ]; then
  set -- scenarios/figures/*.json scenarios/examples/*.json
fi
build/bin/allocsim run --out results "$@"
echo "results written under results/"
