#!/usr/bin/env bash
# Opens allocsim's HTML pages in headless Chromium with every network name
# unresolvable, so a page that fetched anything (a script, a font, an image) would
# show it broken, and checks that each renders with its content. Writes a
# screenshot of each to look at.
#   scripts/report-browser-check.sh [REPORT_HTML [SCREENSHOT_PNG]]
# Without a report, the three kinds of page are made into a temporary directory,
# removed at the end: `allocsim evaluate` of traces/bc.raw.zst (report.html: its
# verdict), `allocsim profile traces/profiles/go-heap.pb.gz --report` (the top
# entries) and `allocsim advise traces/bc.raw.zst --out` (report.html: the advice and
# its charts), `allocsim margins traces/profiles/sites.json --report` (the answer and
# the bands) and `allocsim flaky traces/profiles/flaky-example.json --report` (the whole
# test's rate and the assertions); ALLOCSIM names the binary (default build/bin/allocsim) and
# SCREENSHOTS a directory to keep the screenshots in (default: removed with the rest).
set -euo pipefail
cd "$(dirname "$0")/.."
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "report-browser-check: no chromium (apt-get install -y chromium); skipped" >&2
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
allocsim=${ALLOCSIM:-build/bin/allocsim}
fail() {
  echo "report-browser-check: $*" >&2
  exit 1
}

# require PAGE PATTERN WHAT: fails, naming WHAT, unless the rendered page matches PATTERN.
require() {
  grep -q "$2" "$work/dom.html" || fail "$1: $3"
}

# render PAGE SCREENSHOT: the screenshot and $work/dom.html, the page as rendered.
render() {
  local page=$1 screenshot=$2
  [ -f "$page" ] || fail "no file $page"
  local url
  url="file://$(cd "$(dirname "$page")" && pwd)/$(basename "$page")"
  local flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-extensions --disable-background-networking
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$work/profile" --virtual-time-budget=2000)
  "$browser" "${flags[@]}" --window-size=1280,2400 --screenshot="$screenshot" "$url" > "$work/shot.log" 2>&1 || {
    cat "$work/shot.log" >&2
    exit 1
  }
  [ -s "$screenshot" ] || fail "no screenshot written of $page"
  "$browser" "${flags[@]}" --dump-dom "$url" > "$work/dom.html" 2> "$work/dom.log" || {
    cat "$work/dom.log" >&2
    exit 1
  }
  require "$page" '<h2>How to read this</h2>' 'no "how to read this" in the DOM'
}

# The page of evaluate and run: its verdict, with every whole-heap size the command printed.
check_verdict_page() {
  require "$1" '<h2>Verdict</h2>' "no verdict in the DOM"
  require "$1" 'Whole heap [0-9]' "no whole-heap line"
  [ -s "${2:-/dev/null}" ] || return 0
  while read -r size; do
    grep -qF "Whole heap $size" "$work/dom.html" || fail "$1: missing $size"
  done < <(sed -n 's/^  whole heap *\([0-9.]* [KMG]*i*B\);.*/\1/p' "$2")
}

# profile --report: the model and the top entries, each with an interval in bytes.
check_profile_page() {
  require "$1" '<h2>The model</h2>' "no model in the DOM"
  require "$1" '<h2>Top [0-9]* entries</h2>' "no top entries"
  require "$1" '\[[0-9.]* [KMG]*i*B, [0-9.]* [KMG]*i*B\]' "no interval in bytes"
}

# advise --out: the advice table and its charts drawn inside the page.
check_advice_page() {
  require "$1" '<h2>Advice</h2>' "no advice in the DOM"
  require "$1" '<td>heapprofd</td>' "no heapprofd row"
  [ "$(grep -c '<svg' "$work/dom.html")" -ge 4 ] || fail "$1: fewer than 4 charts in the page"
}

# margins --report: the answer, then the bands in bytes with the whole bytes to assert.
check_margins_page() {
  require "$1" '<h2>Bands per site</h2>' "no bands in the DOM"
  require "$1" 'fails the whole test with probability' "no whole-test rate"
  require "$1" '<span class="sub">[0-9]* B</span>' "no band in whole bytes"
}

# flaky --report: the whole test's rate, the inverse answer and the assertions.
check_flaky_page() {
  require "$1" '<h2>Assertions</h2>' "no assertions in the DOM"
  require "$1" 'fails this test with probability' "no whole-test rate"
  require "$1" 'To bring it to at most' "no inverse answer"
}

check_page() {
  local page=$1 screenshot=$2 printed=${3:-}
  render "$page" "$screenshot"
  if grep -q '<h2>Verdict</h2>' "$work/dom.html"; then
    check_verdict_page "$page" "$printed"
  elif grep -q '<h2>Advice</h2>' "$work/dom.html"; then
    check_advice_page "$page"
  elif grep -q '<h2>Bands per site</h2>' "$work/dom.html"; then
    check_margins_page "$page"
  elif grep -q '<h2>The model</h2>' "$work/dom.html"; then
    check_profile_page "$page"
  elif grep -q '<h2>Assertions</h2>' "$work/dom.html"; then
    check_flaky_page "$page"
  else
    fail "$page: no verdict, profile, advice, margins or flaky heading in the DOM"
  fi
  echo "report-browser-check: $page renders offline with its content (screenshot $screenshot)"
}

if [ -n "${1:-}" ]; then
  check_page "$1" "${2:-$work/report.png}"
  exit 0
fi
shots=${SCREENSHOTS:-$work}
mkdir -p "$shots"
"$allocsim" evaluate traces/bc.raw.zst --scheme heapprofd --scheme jemalloc --rate 4KiB --rate 64KiB \
  --replications 200 --threads 2 --quiet --out "$work/out" > "$work/verdict.txt"
check_page "$work/out/evaluate-bc/report.html" "$shots/evaluate.png" "$work/verdict.txt"
"$allocsim" profile traces/profiles/go-heap.pb.gz --threads 2 --report "$work/profile.html" > /dev/null
check_page "$work/profile.html" "$shots/profile.png"
"$allocsim" advise traces/bc.raw.zst --replications 100 --threads 2 --out "$work/advice" > /dev/null
check_page "$work/advice/report.html" "$shots/advice.png"
"$allocsim" margins traces/profiles/sites.json --scheme go --rate 64KiB --false-failure 0.05 --check 2000 --threads 2 \
  --report "$work/margins.html" > /dev/null
check_page "$work/margins.html" "$shots/margins.png"
"$allocsim" flaky traces/profiles/flaky-gperftools.json --threads 2 --report "$work/flaky.html" > /dev/null
check_page "$work/flaky.html" "$shots/flaky.png"
