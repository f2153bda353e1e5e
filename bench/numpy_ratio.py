#!/usr/bin/python3
"""allocsim's poisson replay beside the NumPy loop a document author would write.

Run by Debian's python3 from the repository root after a build:

    /usr/bin/python3 bench/numpy_ratio.py [--events 10000000] [--repeats 3]

One trace (lognormal sizes, median 55 B, sigma 1.5; 1000 stack groups; one thread),
written once by `allocsim trace generate` and read by both sides. Per replication:
  allocsim  `allocsim run --threads 1` of a scenario with the poisson scheme and the
            stack groups (skip-ahead replay, errors accumulated per group); the cost
            of one replication is the difference of the wall times of two runs with
            R_low and R_high replications, divided by R_high - R_low, so that
            start-up, trace generation, truths and result files cancel out;
  NumPy     exponential gaps, their cumulative sum, searchsorted on the trace's
            cumulative sizes, bincount per stack group; timed inside Python over
            R_low and R_high replications the same way.
Times are CPU seconds (user + system; for allocsim, of the child process), which a
machine shared with other work disturbs less than wall time. The two sides
alternate, T by T and repeat by repeat, so that the load falls on both alike; the
medians of the repeats and their ratio are printed, with the load average.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import pandas

GROUPS = 1000


def trace_spec(events):
    return {"allocations": events, "seed": 1,
            "sizes": {"distribution": "lognormal", "median": 55, "sigma": 1.5},
            "stacks": {"rule": "random", "count": GROUPS}}


def scenario(events, rate):
    return {"name": "numpy-ratio", "seed": 1, "replications": 2, "trace": trace_spec(events),
            "schemes": [{"scheme": "poisson", "rate": rate}], "groups": ["stack"]}


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def allocsim_seconds(binary, scenario_file, out_dir, replications):
    start = children_cpu_seconds()
    subprocess.run([binary, "run", scenario_file, "--threads", "1", "--replications", str(replications),
                    "--quiet", "--no-charts", "--out", out_dir], check=True, stdout=subprocess.DEVNULL)
    return children_cpu_seconds() - start


def numpy_seconds(cumulative, stacks, rate, replications, rng):
    """R replications of the NumPy formulation; the bincounts are summed and returned so
    that nothing is optimised away."""
    total = float(cumulative[-1])
    expected = total / rate
    batch = int(expected + 6 * np.sqrt(expected) + 16)
    checksum = 0
    start = time.process_time()
    for _ in range(replications):
        points = np.cumsum(rng.exponential(rate, batch))
        while points[-1] < total:  # rare: more points than the batch holds
            points = np.concatenate([points, points[-1] + np.cumsum(rng.exponential(rate, batch))])
        points = points[points < total]
        # cumulative[k] = bytes of events 0..k, so byte position x lies in event
        # searchsorted(cumulative, x, side="right").
        events = np.searchsorted(cumulative, points, side="right")
        counts = np.bincount(stacks[events], minlength=GROUPS)
        checksum += int(counts.sum())
    return time.process_time() - start, checksum


def read_trace(binary, events, work):
    spec_file = os.path.join(work, "spec.json")
    with open(spec_file, "w") as f:
        json.dump(trace_spec(events), f)
    csv_file = os.path.join(work, "trace.csv")
    subprocess.run([binary, "trace", "generate", spec_file, "-o", csv_file], check=True, stdout=subprocess.DEVNULL)
    columns = pandas.read_csv(csv_file, usecols=["size", "stack"], dtype={"size": np.int64, "stack": str})
    stacks = columns["stack"].str.slice(len("stack-")).astype(np.int64).to_numpy()  # "stack-17" -> 17
    return np.cumsum(columns["size"].to_numpy()), stacks


def measure(binary, events, repeats, counts):
    """Per rate T of `counts` ({T: (allocsim low, high, NumPy low, high)}): the sample
    points per replication and the medians over `repeats` of the milliseconds per
    replication of both sides, with every repeat's value."""
    rows = []
    with tempfile.TemporaryDirectory() as work:
        cumulative, stacks = read_trace(binary, events, work)
        rng = np.random.default_rng(1)
        for rate, (a_low, a_high, n_low, n_high) in counts.items():
            scenario_file = os.path.join(work, f"scenario-{rate}.json")
            with open(scenario_file, "w") as f:
                json.dump(scenario(events, rate), f)
            allocsim_ms, numpy_ms = [], []
            for _ in range(repeats):
                low = allocsim_seconds(binary, scenario_file, os.path.join(work, "out"), a_low)
                high = allocsim_seconds(binary, scenario_file, os.path.join(work, "out"), a_high)
                allocsim_ms.append(1e3 * (high - low) / (a_high - a_low))
                low, _ = numpy_seconds(cumulative, stacks, rate, n_low, rng)
                high, _ = numpy_seconds(cumulative, stacks, rate, n_high, rng)
                numpy_ms.append(1e3 * (high - low) / (n_high - n_low))
            rows.append({"rate": rate, "points": float(cumulative[-1]) / rate,
                         "allocsim_ms": statistics.median(allocsim_ms), "numpy_ms": statistics.median(numpy_ms),
                         "allocsim_repeats": allocsim_ms, "numpy_repeats": numpy_ms})
    return rows


# Replication counts per rate: (allocsim low, high, NumPy low, high).
DEFAULT_COUNTS = {4096: (20, 220, 2, 12), 524288: (20, 2020, 20, 220)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="build/bin/allocsim")
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}", flush=True)
    for row in measure(args.binary, args.events, args.repeats, DEFAULT_COUNTS):
        a, n, points = row["allocsim_ms"], row["numpy_ms"], row["points"]
        print(f"T = {row['rate']:>6} B: {points:,.0f} sample points per replication; per replication "
              f"allocsim {a:.3f} ms ({1e6 * a / points:.1f} ns per point), NumPy {n:.3f} ms; "
              f"ratio {n / a:.1f}x  (repeats: allocsim {[round(x, 3) for x in row['allocsim_repeats']]}, "
              f"NumPy {[round(x, 3) for x in row['numpy_repeats']]})", flush=True)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
