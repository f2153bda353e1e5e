#!/usr/bin/env bash
# Runs `allocsim advise` on the recorded traces and the synthetic size mixes with the
# targets of docs/advice.md (sampling-rate advice); results go to
# DIR/advise-<name>/ (advice.txt, advice.json, frontier.csv, charts/).
#   scripts/advise-traces.sh [DIR]   DIR defaults to results (the committed ones)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-results}"
targets=(--total-error 0.02 --stack-mape 0.1 --stack-seen 0.99)
for trace in traces/{sqlite3,python3,cc1,tclsh,bc}.raw.zst scenarios/design/*.json; do
  name=$(basename "$trace"); name=${name%%.*}
  build/bin/allocsim advise "$trace" "${targets[@]}" --out "$out/advise-$name" > /dev/null
  echo "$out/advise-$name"
done
