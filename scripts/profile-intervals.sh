#!/usr/bin/env bash
# One line per entry of a heap profile as `allocsim profile --json` reads it: SYSTEM,
# the entry's first three frames (leaf first), its object size in bytes and its
# interval's bounds in bytes. The lines scripts/profile_coverage.py counts, for
# scripts/profile-real-coverage.sh and scripts/profile-real-node.sh.
#   scripts/profile-intervals.sh ALLOCSIM LEVEL SYSTEM FILE [allocsim profile options...]
set -euo pipefail
allocsim=$1 level=$2 system=$3 file=$4
shift 4
"$allocsim" profile --json --top 50 --replications 1 --level "$level" "$@" "$file" |
  /usr/bin/python3 -c 'import json, sys; d = json.load(sys.stdin)
for e in d["entries"]:
    print(sys.argv[1], e["stack"][0] + " " + " ".join(e["stack"][1:3]), e["object_size"], e["interval"]["bytes"][0], e["interval"]["bytes"][1])' "$system"
