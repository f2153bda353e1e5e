"""allocsim.Trace: built from NumPy arrays it round-trips through both file formats
and through to_pandas; loaded from a recording it matches `allocsim trace info`."""
import json
import os
import subprocess
import tempfile
import unittest

import numpy

from support import CLI, REPO, allocsim

NEVER_FREED = 2**64 - 1
STACK_NAMES = [f"site{i}" for i in range(7)]


def example_columns():
    rng = numpy.random.default_rng(3)
    n = 500
    times = numpy.sort(rng.integers(0, 10_000, n)).astype(numpy.int64)
    frees = times + rng.integers(1, 2_000, n)
    frees[rng.random(n) < 0.3] = -1  # live at the end
    return {
        "sizes": rng.integers(1, 1 << 20, n).astype(numpy.uint64),
        "threads": rng.integers(0, 3, n).astype(numpy.int32),
        "stacks": rng.integers(0, 7, n),  # int64
        "times": times,
        "frees": frees,
    }


class TraceFromArrays(unittest.TestCase):
    def setUp(self):
        self.columns = example_columns()
        self.trace = allocsim.Trace(**self.columns, stack_names=STACK_NAMES)

    def assert_holds_columns(self, trace):
        frame = trace.to_pandas()
        c = self.columns
        numpy.testing.assert_array_equal(frame["requested"], c["sizes"])
        numpy.testing.assert_array_equal(frame["thread"], c["threads"])
        # A file may number stacks anew (CSV names them); each allocation keeps its stack's name.
        names = numpy.array(trace.stack_names)
        numpy.testing.assert_array_equal(names[frame["stack"]], numpy.array(STACK_NAMES)[c["stacks"]])
        numpy.testing.assert_array_equal(frame["time"], c["times"])
        expected_frees = c["frees"].astype(numpy.uint64)
        expected_frees[c["frees"] < 0] = NEVER_FREED
        numpy.testing.assert_array_equal(frame["free_time"].to_numpy(numpy.uint64), expected_frees)

    def test_columns_are_what_was_given(self):
        self.assertEqual(len(self.trace), 500)
        self.assertEqual(self.trace.thread_count, 3)
        self.assertEqual(self.trace.stack_count, 7)
        self.assertEqual(self.trace.format, "arrays")
        self.assert_holds_columns(self.trace)

    def test_native_and_csv_files_round_trip(self):
        for suffix in (".trace", ".csv"):
            with self.subTest(format=suffix), tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "t" + suffix)
                self.trace.save(path)
                loaded = allocsim.Trace.load(path)
                self.assertEqual(loaded.format, "csv" if suffix == ".csv" else "native")
                self.assert_holds_columns(loaded)
                self.assertEqual(sorted(loaded.stack_names), STACK_NAMES)

    def test_info_counts_what_was_given(self):
        info = self.trace.info()
        c = self.columns
        self.assertEqual(info["allocations"], 500)
        self.assertEqual(info["bytes"], int(c["sizes"].sum()))
        self.assertEqual(info["live_allocations"], int((c["frees"] < 0).sum()))
        self.assertEqual(info["frees"], int((c["frees"] >= 0).sum()))

    def test_views_are_read_only_and_outlive_the_trace_object(self):
        frame = allocsim.Trace(sizes=numpy.array([5, 6, 7])).to_pandas()
        numpy.testing.assert_array_equal(frame["requested"], [5, 6, 7])
        numpy.testing.assert_array_equal(frame["time"], [0, 1, 2])  # the event order by default

    def test_a_scenario_runs_on_a_saved_trace(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "mine.trace")
            self.trace.save(path)
            result = allocsim.run({"name": "mine", "replications": 8, "trace": {"kind": "file", "path": path},
                                   "schemes": [{"scheme": "poisson", "rate": 4096}], "groups": ["total", "stack"]})
        total = result.metrics[(result.metrics.group_kind == "total") & (result.metrics.estimator == "bytes")]
        self.assertEqual(float(total["truth"].iloc[0]), float(self.columns["sizes"].sum()))
        stacks = set(result.metrics[result.metrics.group_kind == "stack"]["group"])
        self.assertTrue(stacks and stacks <= set(STACK_NAMES), stacks)


class RecordedTrace(unittest.TestCase):
    def test_heaptrack_info_matches_the_cli(self):
        path = os.path.join(REPO, "traces", "bc.zst")
        trace = allocsim.Trace.load(path)
        cli = json.loads(subprocess.run([CLI, "trace", "info", "--json", path], check=True,
                                        capture_output=True, text=True).stdout)
        info = trace.info()
        for key in ("allocations", "frees", "bytes", "live_allocations", "live_bytes", "peak_live_bytes",
                    "stacks", "size_histogram", "top_stacks"):
            self.assertEqual(info[key], cli[key], key)
        self.assertEqual(info["format"], "heaptrack")
        # One serializer (trace/format/heaptrack_json.h) for both: every field equal.
        self.assertEqual(trace.heaptrack, cli["heaptrack"])
        self.assertEqual(info["heaptrack"], cli["heaptrack"])
        fifo = allocsim.Trace.load(path, pairing="fifo", clock="milliseconds").heaptrack
        self.assertEqual((fifo["pairing"], fifo["clock"]), ("fifo", "milliseconds"))


if __name__ == "__main__":
    unittest.main()
