#!/usr/bin/env bash
# Runs a command and reports what it held resident, from /proc/PID/status sampled
# every 0.2 s: the peak (VmHWM) and the largest anonymous and file-backed parts
# seen (RssAnon: the process's own memory; RssFile: pages of mapped files, such as
# a native trace used in place). Usage: scripts/resident.sh COMMAND [ARGS...]
set -u
"$@" &
pid=$!
hwm=0 anon=0 file=0
while kill -0 "$pid" 2>/dev/null; do
  if status=$(cat "/proc/$pid/status" 2>/dev/null); then
    read -r h a f < <(awk '/^VmHWM/{h=$2} /^RssAnon/{a=$2} /^RssFile/{f=$2} END{print h+0, a+0, f+0}' <<<"$status")
    ((h > hwm)) && hwm=$h
    ((a > anon)) && anon=$a
    ((f > file)) && file=$f
  fi
  sleep 0.2
done
wait "$pid"
rc=$?
echo "resident: VmHWM ${hwm} kB, largest RssAnon ${anon} kB, largest RssFile ${file} kB" >&2
exit "$rc"
