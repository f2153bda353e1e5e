#!/usr/bin/env bash
# Reruns the default scenarios (those of ./run.sh, without advice and conformance)
# into a temporary directory and compares every result file with the committed
# results/: the check that a change of code leaves every number bit-identical.
# Exits 1 listing the files that differ (summary.json compared without wall_seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
build/bin/allocsim run --quiet --out "$out" scenarios/figures/*.json scenarios/examples/*.json scenarios/traces/*.json
status=0
for dir in "$out"/*/; do
  name=$(basename "$dir")
  while IFS= read -r file; do
    if [ "$(basename "$file")" = summary.json ]; then
      cmp -s <(grep -v '"wall_seconds"' "results/$name/$file") <(grep -v '"wall_seconds"' "$dir/$file") \
        || { echo "differs: results/$name/$file"; status=1; }
    else
      cmp -s "results/$name/$file" "$dir/$file" || { echo "differs: results/$name/$file"; status=1; }
    fi
  done < <(cd "$dir" && find . -type f \( -name '*.csv' -o -name 'summary.json' \) | sed 's|^\./||')
done
[ $status -eq 0 ] && echo "every result file is bit-identical to results/"
exit $status
