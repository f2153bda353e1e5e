#!/usr/bin/env bash
# Reads every profile of the shared corpus (../shared/corpus/profiles/public: real
# profiles from public repositories, never committed here) with `allocsim profile` and
# lists, per file, whether it was read or refused, the reason, and the window's totals
# (the estimates summed over records, as the system's own tool shows them). A file read
# is checked against `go tool pprof -raw` when Go is installed and pprof reads the file:
# the summed objects and bytes of the same window must agree to within one per record
# (pprof's legacy text parser truncates each scaled record to an integer; for pprof
# files both are the written values, equal), leaving out records without frames,
# which pprof drops. A file refused must be refused for the
# reason listed below. Exit 1 on any difference; skipped (exit 0) without the corpus.
#
# Usage: scripts/check-corpus-profiles.sh [ALLOCSIM]   (default build/bin/allocsim)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=../shared/corpus/profiles/public
if [ ! -d "$corpus" ]; then
  echo "check-corpus-profiles: no $corpus, skipped"
  exit 0
fi
allocsim=${1:-build/bin/allocsim}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
have_go=0
if command -v go >/dev/null 2>&1; then have_go=1; fi

# Refused files and a word of the reason each must give.
expected_refusal() {
  case "$1" in
    ddgo-block.before.pprof) echo "contentions/count" ;;
    issue-gperftools-283.heap) echo "sampling rate 0" ;;
    parca-normalizer_node-profile.pb.gz | parca-symbolizer_profile.pb.gz) echo "samples/count" ;;
    parca-normalizer_profile.pb.gz) echo "not a Go heap profile" ;;
    parca-parca_labels.pb.gz | parca-query_profile1.pb.gz | pyro-og_convert_pprof_cpu.pb.gz) echo "cpu/nanoseconds" ;;
    parca-query_alloc_space_delta.pb.gz) echo "delta profile" ;;
    parca-query_fgprof.pb.gz) echo "time/nanoseconds" ;;
    pprof-cppbench.contention) echo "contention profile" ;;
    pprof-cppbench.cpu | pprof-gobench.cpu) echo "legacy binary CPU profile" ;;
    pprof-cppbench.growth) echo "heap growth profile" ;;
    pprof-go.godoc.thread) echo "threadcreate" ;;
    pprof-java.heap) echo "Java heapz" ;;
    profcorr-profile.pprof) echo "cpu-time/nanoseconds" ;;
    pyro-jfr-dump2-alloc_in_new_tlab_bytes.pb.gz) echo "alloc_in_new_tlab_bytes" ;;
    pyro-jfr-dump2-live_count.pb.gz) echo "live/count" ;;
    pyro-og_convert_pprof_dotnet-pprof-3.pb.gz) echo "alloc-samples/count" ;;
    pyro-pprof_gotruncatefix_heap_go_truncated_*) echo "inuse_space/bytes" ;;
    *) echo "" ;;
  esac
}

failures=0
read_count=0
refused_count=0
printf '%-52s %-7s %s\n' file outcome "reason or totals (window: objects, bytes) [go tool pprof]"
while IFS= read -r path; do
  name=${path#"$corpus"/}
  base=$(basename "$name")
  expected=$(expected_refusal "$base")
  if "$allocsim" profile --replications 20 --top 100000000 --json "$path" >"$scratch/out.json" 2>"$scratch/err"; then
    read_count=$((read_count + 1))
    totals=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
o = sum(e["estimate"]["objects"] for e in d["entries"])
b = sum(e["estimate"]["bytes"] for e in d["entries"])
framed = [e for e in d["entries"] if e["stack"]]
fo = sum(e["estimate"]["objects"] for e in framed)
fb = sum(e["estimate"]["bytes"] for e in framed)
print(d["window"], d["format"].replace(" ", "_"), len(d["entries"]), "%.0f" % o, "%.0f" % b, "%.0f" % fo, "%.0f" % fb)' \
      "$scratch/out.json")
    # pprof drops records without frames: they are compared without them.
    read -r window format records objects bytes framed_objects framed_bytes <<<"$totals"
    check="go absent"
    if [ $have_go = 1 ]; then
      # allocsim leaves out pprof-nodejs's "(external)" record (external memory as one
      # object: a total, not a sample; Pyroscope names it ":(external):0"; profile/pprof_reader.cpp):
      # pprof's totals without it.
      ignore=()
      [ "$format" = v8_pprof ] && ignore=(-ignore='^:?\(external\)(:0)?$')
      if go tool pprof -raw "${ignore[@]}" "$path" >"$scratch/raw" 2>/dev/null; then
        check=$(python3 -c '
import sys
window, objects, bytes_, records = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
lines = open(sys.argv[1]).read().split("\n")
at = lines.index("Samples:")
types = [t.replace("[dflt]", "") for t in lines[at + 1].split()]
sums = [0.0] * len(types)
for line in lines[at + 2:]:
    if not line.strip() or not line.strip()[0].isdigit():
        if line and not line.startswith(" "):
            break
        continue
    values = line.split(":")[0].split()
    for i, v in enumerate(values[:len(types)]):
        sums[i] += float(v)
want = {window + "_objects/count", window + "_space/bytes"}
pick = [i for i, t in enumerate(types) if t in want]
if not pick and types == ["objects/count", "space/bytes"]:
    pick = [0, 1]  # a legacy profile without allocated counts: pprof names its two values so
if len(pick) != 2:
    print("pprof has no " + window + " types")
    sys.exit(0)
po, pb = sums[pick[0]], sums[pick[1]]
ok = abs(po - objects) <= records and abs(pb - bytes_) <= records
print(("pprof agrees" if ok else "DIFFERS") + " (%.0f, %.0f)" % (po, pb))' "$scratch/raw" "$window" "$framed_objects" \
          "$framed_bytes" "$records")
      else
        check="pprof cannot read it"
      fi
    fi
    printf '%-52s %-7s %s %s: %s objects, %s bytes in %s records [%s]\n' "$name" read "$format" "$window" \
      "$objects" "$bytes" "$records" "$check"
    if [ -n "$expected" ]; then
      echo "  FAIL: expected a refusal ($expected)"
      failures=$((failures + 1))
    fi
    case "$check" in DIFFERS*) failures=$((failures + 1)) ;; esac
  else
    status=$?
    refused_count=$((refused_count + 1))
    reason=$(head -c 300 "$scratch/err" | head -1)
    printf '%-52s %-7s %s\n' "$name" refused "${reason#*"$name"}"
    if [ $status != 2 ] || [ "$(wc -l <"$scratch/err")" != 1 ]; then
      echo "  FAIL: exit $status, $(wc -l <"$scratch/err") lines (want exit 2, one line)"
      failures=$((failures + 1))
    elif [ -z "$expected" ] || ! grep -qF -- "$expected" "$scratch/err"; then
      echo "  FAIL: expected to be read${expected:+ or refused for \"$expected\"}"
      failures=$((failures + 1))
    fi
  fi
done < <(find "$corpus" -type f | LC_ALL=C sort)
echo "check-corpus-profiles: $read_count read, $refused_count refused, $failures failures"
[ $failures = 0 ]
