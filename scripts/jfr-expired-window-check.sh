#!/usr/bin/env bash
# JFR's throttle on the real JVM: one thread allocating 20 arrays at a fixed gap,
# recorded with jdk.ObjectAllocationSample at 150/s (default.jfc), 64 KiB TLABs.
# 40 KiB arrays go outside the TLAB with one throttle try for every second one (the
# thread's bytes since its last sample must reach the TLAB estimate first); 1 MiB
# arrays get ~16 tries each. The model (sampler/systems/jfr) says an event that finds
# its 200 ms window expired is rejected and rotates the window: at 300 ms gaps the
# one-try arrays are never recorded, the 16-try ones always (the second try meets
# the fresh window). Prints the samples each case got. Needs a JDK 17 (java, javac, jfr).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -d "$work" conformance/jfr/SlowAllocator.java
cat > "$work/throttle.jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="allocsim" description="jdk.ObjectAllocationSample at 150/s only">
  <event name="jdk.ObjectAllocationSample">
    <setting name="enabled">true</setting>
    <setting name="throttle">150/s</setting>
    <setting name="stackTrace">true</setting>
  </event>
</configuration>
JFC
echo "java $(java -version 2>&1 | head -1)"
for size in 40960 1048576; do
  for gap in 300 20; do
    java -XX:+UseSerialGC -XX:TLABSize=65536 -XX:-ResizeTLAB \
      -XX:StartFlightRecording:filename="$work/r.jfr",settings="$work/throttle.jfc" \
      -cp "$work" SlowAllocator 20 "$gap" "$size" > /dev/null 2>&1
    samples=$(jfr print --events jdk.ObjectAllocationSample "$work/r.jfr" | grep -c 'SlowAllocator.main' || true)
    echo "20 arrays of $size bytes, $gap ms apart: $samples samples"
  done
done
