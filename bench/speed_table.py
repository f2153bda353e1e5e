#!/usr/bin/python3
"""The README's speed table, measured from the current build on this machine.

Run by Debian's python3 from the repository root after a build, on an otherwise
idle machine (it prints the load average before and after):

    /usr/bin/python3 bench/speed_table.py [--build build] [--repeats 3]

It runs, one after the other:
  - replay_bench's point/ cases: skip-ahead replay of the countdown schemes on the
    lognormal trace of bench/numpy_ratio.py, CPU time per sample point (median of
    `repeats`), at T = 4 KiB and 512 KiB on 10^7 events and at 512 KiB on 10^8;
  - bench/numpy_ratio.py: allocsim's poisson scenario beside the NumPy loop, one
    core, milliseconds per replication and their ratio;
  - replay_bench's whole-engine cases on 1 and 2 threads (wall time) and their ratio:
    the engine scenario with 256 replications, the same with 2 (its set-up), and the
    heapprofd figure;
and prints the tables in Markdown.
"""
import argparse
import json
import os
import platform
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_ratio  # noqa: E402

SCHEMES = ["poisson", "heapprofd", "memray", "jemalloc", "tcmalloc", "go", "jvm", "dotnet"]


def bench(binary, pattern, repeats, events=None):
    """Median of each benchmark matching `pattern`: {name: its JSON entry}."""
    env = dict(os.environ)
    if events:
        env["ALLOCSIM_BENCH_EVENTS"] = str(events)
    out = subprocess.run([binary, f"--benchmark_filter={pattern}", f"--benchmark_repetitions={repeats}",
                          "--benchmark_report_aggregates_only=true", "--benchmark_format=json"],
                         check=True, capture_output=True, text=True, env=env).stdout
    return {b["run_name"]: b for b in json.loads(out)["benchmarks"] if b.get("aggregate_name") == "median"}


def ns(entry):
    return 1e9 * entry["point_time"]


def machine():
    model = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.repeats < 2:
        parser.error("--repeats must be at least 2 (medians come from Google Benchmark's aggregates)")
    replay_bench = os.path.join(args.build, "bin", "replay_bench")
    load_before = os.getloadavg()

    points_7 = bench(replay_bench, "^point/", args.repeats)
    points_8 = bench(replay_bench, "^point/.*T=524288", args.repeats, events=100_000_000)
    numpy_rows = numpy_ratio.measure(os.path.join(args.build, "bin", "allocsim"), 10_000_000, args.repeats,
                                     numpy_ratio.DEFAULT_COUNTS)
    engine = bench(replay_bench, "^(engine|engine_setup|heapprofd_figure)/", args.repeats)

    print(f"Machine: {machine()}; load average {load_before[0]:.2f} before, {os.getloadavg()[0]:.2f} after.")
    print(f"Command: `/usr/bin/python3 bench/speed_table.py --build {args.build} --repeats {args.repeats}` "
          f"(medians of {args.repeats}).\n")
    print("| scheme | ns per sample point, T = 4 KiB, 10⁷ events | T = 512 KiB, 10⁷ events | T = 512 KiB, 10⁸ events |")
    print("|---|---|---|---|")
    for scheme in SCHEMES:
        cells = [points_7.get(f"point/{scheme}/T=4096"), points_7.get(f"point/{scheme}/T=524288"),
                 points_8.get(f"point/{scheme}/T=524288")]
        print(f"| {scheme} | " + " | ".join(f"{ns(c):.0f}" if c else "—" for c in cells) + " |")
    index_bytes = points_7["point/poisson/T=4096"]["index_bytes"]
    print(f"\nSkip-ahead index: {index_bytes:.2f} bytes per event (one-thread trace).\n")
    print("| T | points per replication | allocsim, ms per replication (one core) | NumPy loop | ratio |")
    print("|---|---|---|---|---|")
    for row in numpy_rows:
        print(f"| {row['rate'] // 1024} KiB | {row['points']:,.0f} | {row['allocsim_ms']:.3f} "
              f"({1e6 * row['allocsim_ms'] / row['points']:.0f} ns per point) | {row['numpy_ms']:.3f} | "
              f"{row['numpy_ms'] / row['allocsim_ms']:.1f}× |")
    print("\n| whole engine | 1 thread | 2 threads | 1 → 2 |")
    print("|---|---|---|---|")
    def on(name, threads):  # run names carry options after the thread count
        return next(e for run, e in engine.items() if run.startswith(f"{name}/{threads}/"))

    for name in ["engine", "engine_setup", "heapprofd_figure"]:
        one, two = on(name, 1), on(name, 2)
        print(f"| {name} | {one['real_time']:.1f} ms | {two['real_time']:.1f} ms | "
              f"{one['real_time'] / two['real_time']:.2f}× |")


if __name__ == "__main__":
    main()
