#!/usr/bin/env bash
# allocsim's main job: install what is missing, build, run scenarios; one line per
# step or scenario, a summary at the end, each step's full output in a log.
#   ./run.sh                 the default scenarios: every figure of the design documents
#                            (scenarios/figures/), the examples, the recorded traces
#                            (scenarios/traces/), the sampling advice for the recorded
#                            traces (scripts/advise-traces.sh) and the conformance checks
#                            against the real samplers (scripts/conformance.sh)
#   ./run.sh FILE.json ...   the given scenario files only
#   ./run.sh --regenerate    the defaults into the committed results/ (for a change that
#                            means to change them; `git diff results/` then shows how)
# Results go to out/ (not tracked by git) unless --regenerate is given:
# out/<scenario>/ (metrics.csv, summary.json, charts/), out/logs/ (each step's output).
set -euo pipefail
cd "$(dirname "$0")"

out=out
if [ "${1:-}" = "--regenerate" ]; then
  out=results
  shift
fi
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(scenarios/figures/*.json scenarios/examples/*.json scenarios/traces/*.json)
logs="$out/logs"
mkdir -p "$logs"
started=$SECONDS

# elapsed SECONDS: "42 s" or "3 min 5 s".
elapsed() {
  local s=$1
  if [ "$s" -lt 60 ]; then echo "$s s"; else echo "$((s / 60)) min $((s % 60)) s"; fi
}

# step NAME LOG COMMAND...: runs COMMAND with its output in LOG; one line when it ends,
# the log's last lines and exit 2 when it fails.
step() {
  local name=$1 log=$2
  shift 2
  local begun=$SECONDS
  printf '%-44s' "$name ..."
  if "$@" >"$log" 2>&1; then
    echo " done ($(elapsed $((SECONDS - begun))))"
  else
    echo " FAILED; the end of $log:"
    tail -n 20 "$log" | sed 's/^/    /'
    exit 2
  fi
}

step "installing missing packages" "$logs/install.log" scripts/install-deps.sh
step "building (build/)" "$logs/build.log" scripts/build.sh

# One line per scenario as it finishes, from allocsim's own last line for it
# ("NAME: ROWS rows in SECONDS s -> DIR/metrics.csv (expectations: K of N hold; ...)").
echo "running ${#scenarios[@]} scenarios (verdicts in $logs/scenarios.log)"
set +e
build/bin/allocsim run --out "$out" "${scenarios[@]}" 2>&1 | tee "$logs/scenarios.log" | awk -v n=${#scenarios[@]} '
  { sub(/.*\r/, "") }  # what a progress line left before it
  /^[^ ].*: [0-9]+ rows in / {
    name = $1; sub(/:$/, "", name)
    for (k = 1; k < NF; k++) if ($k == "in") seconds = $(k + 1)
    held = match($0, /expectations: [0-9]+ of [0-9]+/) ? substr($0, RSTART + 14, RLENGTH - 14) " expectations hold" : ""
    printf "  [%2d/%d] %-40s %7.1f s  %s\n", ++i, n, name, seconds, held; fflush()
  }'
code=${PIPESTATUS[0]}
set -e
if [ "$code" -ne 0 ]; then
  echo "allocsim run failed (exit $code); the end of $logs/scenarios.log:"
  tail -n 20 "$logs/scenarios.log" | sed 's/^/    /'
  exit "$code"
fi

if [ $# -eq 0 ]; then
  step "sampling advice for the recorded traces" "$logs/advice.log" scripts/advise-traces.sh "$out"
  sed 's/^/  /' "$logs/advice.log"
  # A failed verdict (1) is a finding, recorded in $out/conformance/; 2 is an error.
  printf '%-44s' "conformance against the real samplers ..."
  set +e
  scripts/conformance.sh --out "$out/conformance" >"$logs/conformance.log" 2>&1
  code=$?
  set -e
  if [ "$code" -ge 2 ]; then
    echo " FAILED; the end of $logs/conformance.log:"
    tail -n 20 "$logs/conformance.log" | sed 's/^/    /'
    exit 2
  fi
  echo " done"
  grep '^conformance ' "$logs/conformance.log" | sed 's/^/  /'
fi

echo
echo "finished in $(elapsed $((SECONDS - started))): results under $out/ (one folder per scenario:"
echo "metrics.csv, summary.json, charts/), each step's full output under $logs/."
[ "$out" = results ] || echo "The committed results/ are unchanged; ./run.sh --regenerate rewrites them."
