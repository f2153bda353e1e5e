#!/usr/bin/env bash
# Opens a report.html in headless Chromium with every network name unresolvable, so
# a page that fetched anything (a script, a font, an image) would show it broken,
# and checks that the page renders and shows its verdict. Writes a screenshot to look at.
#   scripts/report-browser-check.sh [REPORT_HTML [SCREENSHOT_PNG]]
# Without a report, one is made: `allocsim evaluate` of traces/bc.raw.zst into a
# temporary directory, removed at the end; ALLOCSIM names the binary (default build/bin/allocsim).
set -euo pipefail
cd "$(dirname "$0")/.."
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "report-browser-check: no chromium (apt-get install -y chromium); skipped" >&2
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
report=${1:-}
if [ -z "$report" ]; then
  "${ALLOCSIM:-build/bin/allocsim}" evaluate traces/bc.raw.zst --scheme heapprofd --scheme jemalloc --rate 4KiB --rate 64KiB \
    --replications 200 --threads 2 --quiet --out "$work/out" > "$work/verdict.txt"
  report="$work/out/evaluate-bc/report.html"
fi
screenshot=${2:-$work/report.png}
[ -f "$report" ] || { echo "report-browser-check: no file $report" >&2; exit 1; }
url="file://$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-extensions --disable-background-networking
  --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$work/profile" --virtual-time-budget=2000)
"$browser" "${flags[@]}" --window-size=1280,2400 --screenshot="$screenshot" "$url" > "$work/shot.log" 2>&1 || {
  cat "$work/shot.log" >&2
  exit 1
}
[ -s "$screenshot" ] || { echo "report-browser-check: no screenshot written" >&2; exit 1; }
"$browser" "${flags[@]}" --dump-dom "$url" > "$work/dom.html" 2> "$work/dom.log" || {
  cat "$work/dom.log" >&2
  exit 1
}
# The rendered page holds the verdict and at least one whole-heap sentence.
grep -q '<h2>Verdict</h2>' "$work/dom.html" || { echo "report-browser-check: no verdict in the DOM" >&2; exit 1; }
grep -q 'Whole heap [0-9]' "$work/dom.html" || { echo "report-browser-check: no whole-heap line" >&2; exit 1; }
if [ -n "${1:-}" ] || [ -z "$(cat "$work/verdict.txt" 2>/dev/null)" ]; then :; else
  # Every whole-heap size the command printed is in the rendered page.
  while read -r size; do
    grep -qF "Whole heap $size" "$work/dom.html" || { echo "report-browser-check: missing $size" >&2; exit 1; }
  done < <(sed -n 's/^  whole heap *\([0-9.]* [KMG]*i*B\);.*/\1/p' "$work/verdict.txt")
fi
echo "report-browser-check: $report renders offline with its verdict (screenshot $screenshot)"
