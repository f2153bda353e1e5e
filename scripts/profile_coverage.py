# Counts how often each site's interval held its known bytes over the lines of
# scripts/profile-intervals.sh (one run's profile after another), and prints the
# coverage table of docs/profiles.md "On real processes". Imported by
# scripts/profile-real-coverage.sh and scripts/profile-real-node.sh.
import math


def read_entries(path):
    """(system, stack, object size, lower, upper) of each line."""
    for line in open(path):
        words = line.split()
        yield words[0], " ".join(words[1:-3]), float(words[-3]), float(words[-2]), float(words[-1])


def count_covered(path, truth):
    """truth: {(system, site): (true bytes, match(stack, size))}. Returns (hits, seen):
    per site, the records whose interval held the truth, and the records matched."""
    hits = {key: 0 for key in truth}
    seen = {key: 0 for key in truth}
    for system, stack, size, lower, upper in read_entries(path):
        for (s, site), (bytes_, match) in truth.items():
            if s == system and match(stack, size):
                seen[(s, site)] += 1
                hits[(s, site)] += lower <= bytes_ <= upper
    return hits, seen


def print_table(truth, hits, seen, runs, level):
    """The table; SE is that of a coverage of exactly `level` over `runs` runs."""
    print("| system | site | true bytes | runs | covered | coverage | SE |")
    print("|---|---|---|---|---|---|---|")
    for key, (bytes_, _) in truth.items():
        print(f"| {key[0]} | {key[1]} | {bytes_} | {runs} ({seen[key]} with a record) | {hits[key]} | "
              f"{hits[key] / runs:.3f} | {math.sqrt(level * (1 - level) / runs):.3f} |")
