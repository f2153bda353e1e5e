"""allocsim.evaluate and RunResult.verdict give the CLI's verdict (one computation,
report/verdict.h), and a scenario runs on an in-memory Trace with the numbers a
file of the same trace gives."""
import json
import os
import subprocess
import tempfile
import unittest

import numpy
import pandas

from support import CLI, REPO, allocsim, small_scenario

SQLITE3 = os.path.join(REPO, "traces", "sqlite3.raw.zst")
# Added by the CLI beside the verdict: where its files went.
CLI_ONLY = ("directory", "files")


def cli_json(*arguments):
    out = subprocess.run([CLI, *arguments], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def without_cli_only(item):
    return {k: v for k, v in item.items() if k not in CLI_ONLY}


class VerdictMatchesCli(unittest.TestCase):
    def test_run_verdict_equals_run_json(self):
        with tempfile.TemporaryDirectory() as directory:
            scenario_file = os.path.join(directory, "small.json")
            with open(scenario_file, "w") as f:
                json.dump(small_scenario(replications=24), f)
            cli = cli_json("run", "--json", "--quiet", "--no-charts", "--threads", "2", "--top", "3",
                           "--out", os.path.join(directory, "out"), scenario_file)
            result = allocsim.run(scenario_file, threads=1, top=3)
        self.assertEqual(len(cli), 1)
        self.assertEqual(result.verdict, without_cli_only(cli[0]))

    def test_verdict_numbers_are_the_metrics_rows(self):
        result = allocsim.run(small_scenario(replications=24))
        metrics = result.metrics
        for entry in result.verdict["entries"]:
            rows = metrics[(metrics["scheme"] == entry["scheme"]) & (metrics["estimator"] == entry["estimator"])
                           & (metrics["rate"] == entry["sweep"]["rate"])]
            total = rows[rows["group_kind"] == "total"].iloc[0]
            for column in ("truth", "bias", "se_bias", "mape", "p_any_sample"):
                self.assertEqual(entry["whole_heap"][column], total[column], column)
            # The top stacks are the largest by true bytes, largest first.
            stacks = rows[rows["group_kind"] == "stack"].sort_values("truth", ascending=False, kind="stable")
            shown = [s["truth"] for s in entry["top_stacks"]]
            self.assertEqual(shown, list(stacks["truth"][:len(shown)]))


class EvaluateMatchesCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        saved = os.path.join(cls.directory.name, "scenario.json")
        cls.cli = cli_json("evaluate", SQLITE3, "--scheme", "heapprofd", "--scheme", "jemalloc",
                           "--rate", "32KiB", "--rate", "512KiB", "--replications", "20", "--json", "--quiet",
                           "--no-charts", "--save-scenario", saved, "--out", cls.directory.name)
        with open(saved) as f:
            cls.cli_scenario = json.load(f)
        cls.result = allocsim.evaluate(SQLITE3, ["heapprofd", "jemalloc"], rates=["32KiB", "512KiB"],
                                       replications=20, threads=1)

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_same_scenario_as_the_cli(self):
        self.assertEqual(self.result.scenario, self.cli_scenario)

    def test_same_verdict_as_the_cli(self):
        self.assertEqual(self.result.verdict, without_cli_only(self.cli))
        self.assertEqual({e["sweep"]["rate"] for e in self.result.verdict["entries"]}, {32768, 524288})

    def test_in_memory_trace_gives_the_numbers_of_its_file(self):
        trace = allocsim.Trace.load(SQLITE3)
        in_memory = allocsim.evaluate(trace, ["heapprofd", "jemalloc"], rates=["32KiB", "512KiB"],
                                      replications=20, trace_name="sqlite3.raw.zst")
        self.assertEqual(in_memory.csv["metrics.csv"], self.result.csv["metrics.csv"])
        self.assertEqual(in_memory.csv["profiles.csv"], self.result.csv["profiles.csv"])
        self.assertEqual(in_memory.verdict, self.result.verdict)
        self.assertEqual(in_memory.summary["points"][0]["trace"], self.result.summary["points"][0]["trace"])


class RunOnAnInMemoryTrace(unittest.TestCase):
    def arrays(self):
        rng = numpy.random.default_rng(3)
        n = 3000
        sizes = rng.integers(16, 70000, size=n, dtype=numpy.uint64)
        stacks = (numpy.log2(sizes.astype(float)).astype(numpy.uint32) - 4)
        frees = numpy.full(n, -1, dtype=numpy.int64)
        frees[: n // 2] = numpy.arange(n // 2) + 100  # the first half freed 100 ticks later
        return allocsim.Trace(sizes, stacks=stacks, frees=frees)

    def test_array_trace_runs_as_its_saved_file(self):
        trace = self.arrays()
        scenario = small_scenario(replications=16)
        del scenario["trace"]  # the Trace stands in for it
        in_memory = allocsim.run(scenario, trace=trace)
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "trace.bin")
            trace.save(path)
            from_file = allocsim.run(small_scenario(replications=16, trace={"kind": "file", "path": path}))
        for name in ("metrics.csv", "intervals.csv", "profiles.csv", "estimates.csv"):
            self.assertEqual(in_memory.csv[name], from_file.csv[name], name)
        self.assertEqual(in_memory.summary["points"], from_file.summary["points"])
        self.assertEqual(in_memory.scenario["trace"], {"kind": "in-memory", "format": "arrays", "allocations": 3000})

    def test_the_trace_replaces_the_scenarios_own(self):
        trace = self.arrays()
        result = allocsim.run(small_scenario(replications=8), trace=trace)
        self.assertEqual(result.summary["points"][0]["trace"]["allocations"], 3000)


class EvaluateBadInput(unittest.TestCase):
    def test_bad_rate_names_the_flag(self):
        with self.assertRaisesRegex(ValueError, r"^--rate 32q"):
            allocsim.evaluate(SQLITE3, "heapprofd", rates=["32q"], replications=4)

    def test_unknown_scheme_suggests(self):
        with self.assertRaisesRegex(ValueError, r"--scheme heapprofdd: unknown scheme .*heapprofd"):
            allocsim.evaluate(SQLITE3, "heapprofdd", replications=4)

    def test_missing_file(self):
        with self.assertRaisesRegex(FileNotFoundError, "no-such.raw.zst: no such file"):
            allocsim.evaluate("no-such.raw.zst", "heapprofd")

    def test_wrong_types(self):
        with self.assertRaises(TypeError):
            allocsim.evaluate(42, "heapprofd")
        with self.assertRaises(TypeError):
            allocsim.run(small_scenario(), trace="not a trace")

    def test_top_out_of_range(self):
        with self.assertRaisesRegex(ValueError, r"top must be in \[1, 1000\]"):
            allocsim.run(small_scenario(replications=4), top=0)


if __name__ == "__main__":
    unittest.main()
