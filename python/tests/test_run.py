"""allocsim.run gives the CLI's results: the same files, byte for byte, and the
DataFrames are those files parsed."""
import json
import os
import subprocess
import tempfile
import unittest

import pandas

from support import CLI, REPO, allocsim, small_scenario

# Vary from run to run (time) or with the thread count asked for.
RUN_DEPENDENT = ("wall_seconds", "threads")


def without_run_dependent(summary):
    return {k: v for k, v in summary.items() if k not in RUN_DEPENDENT}


class RunMatchesCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.scenario_file = os.path.join(cls.directory.name, "small.json")
        with open(cls.scenario_file, "w") as f:
            json.dump(small_scenario(), f)
        out = os.path.join(cls.directory.name, "cli")
        # Different seed and replications than the file, and 2 threads against the
        # module's 1: the overrides and the thread-count independence are compared too.
        subprocess.run([CLI, "run", "--quiet", "--no-charts", "--threads", "2", "--seed", "5",
                        "--replications", "40", "--out", out, cls.scenario_file], check=True)
        cls.cli_dir = os.path.join(out, "python-small")
        cls.result = allocsim.run(cls.scenario_file, threads=1, seed=5, replications=40)

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def cli_file(self, name):
        with open(os.path.join(self.cli_dir, name)) as f:
            return f.read()

    def test_every_result_file_is_byte_identical(self):
        names = sorted(os.listdir(self.cli_dir))
        # The marker that lets allocsim replace the directory later (docs/bad-input.md).
        self.assertIn(".allocsim-results", names)
        names.remove(".allocsim-results")
        # report.html is the CLI's page of these files (report/html_report.h), not a result.
        self.assertEqual(names, ["estimates.csv", "intervals.csv", "metrics.csv", "profiles.csv", "report.html",
                                 "summary.json"])
        for name in names:
            if name in ("summary.json", "report.html"):
                continue
            with self.subTest(file=name):
                self.assertEqual(self.result.csv[name], self.cli_file(name))

    def test_dataframes_equal_the_cli_files_value_by_value(self):
        for name, frame in [("metrics.csv", self.result.metrics), ("intervals.csv", self.result.intervals),
                            ("profiles.csv", self.result.profiles), ("estimates.csv", self.result.estimates)]:
            with self.subTest(file=name):
                expected = pandas.read_csv(os.path.join(self.cli_dir, name), float_precision="round_trip")
                pandas.testing.assert_frame_equal(frame, expected, check_exact=True)
        self.assertEqual(sorted(self.result.estimates["replication"].unique()), list(range(40)))

    def test_summary_equals_the_cli_summary_but_time_and_threads(self):
        cli = json.loads(self.cli_file("summary.json"))
        self.assertEqual(without_run_dependent(self.result.summary), without_run_dependent(cli))
        self.assertEqual(self.result.summary["seed"], 5)
        self.assertEqual(self.result.summary["replications"], 40)

    def test_out_never_replaces_a_directory_allocsim_did_not_write(self):
        with tempfile.TemporaryDirectory() as out:
            mine = os.path.join(out, "python-small")
            os.mkdir(mine)
            with open(os.path.join(mine, "notes.txt"), "w") as f:
                f.write("mine")
            with self.assertRaisesRegex(ValueError, "was not written by allocsim"):
                allocsim.run(self.scenario_file, threads=2, replications=8, out=out, charts=False)
            self.assertEqual(os.listdir(mine), ["notes.txt"])
            self.assertEqual(os.listdir(out), ["python-small"])

    def test_out_writes_the_cli_files(self):
        with tempfile.TemporaryDirectory() as out:
            result = allocsim.run(self.scenario_file, threads=2, seed=5, replications=40, out=out, charts=False)
            self.assertEqual(result.directory, os.path.join(out, "python-small"))
            for name in ("metrics.csv", "intervals.csv", "profiles.csv", "estimates.csv"):
                with open(os.path.join(result.directory, name)) as f:
                    self.assertEqual(f.read(), self.cli_file(name), name)


class ScenarioForms(unittest.TestCase):
    def test_dict_json_string_and_path_give_the_same_numbers(self):
        scenario = small_scenario(replications=16)
        from_dict = allocsim.run(scenario)
        from_text = allocsim.run(json.dumps(scenario))
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(scenario, f)
            f.flush()
            from_path = allocsim.run(f.name)
        self.assertEqual(from_dict.csv["metrics.csv"], from_text.csv["metrics.csv"])
        self.assertEqual(from_dict.csv["metrics.csv"], from_path.csv["metrics.csv"])

    def test_absent_files_are_none_as_the_cli_writes_none(self):
        scenario = small_scenario(replications=8, groups=["total"], outputs={"intervals": False})
        result = allocsim.run(scenario)
        self.assertIsNone(result.profiles)
        self.assertIsNone(result.intervals)
        self.assertIsNone(result.estimates)
        self.assertEqual(set(result.csv), {"metrics.csv", "summary.json"})

    def test_committed_example_runs_with_few_replications(self):
        result = allocsim.run(os.path.join(REPO, "scenarios", "examples", "quickstart.json"), replications=8)
        self.assertEqual(sorted(result.metrics["rate"].unique()), [4096, 32768, 524288, 2097152])
        self.assertEqual(set(result.metrics["replications"]), {8})

    def test_help_explains_the_arguments(self):
        for argument in ("scenario", "trace", "threads", "seed", "replications", "replay", "out", "top"):
            self.assertIn(argument, allocsim.run.__doc__)
        for argument in ("schemes", "rates", "groups", "windows", "trace_name"):
            self.assertIn(argument, allocsim.evaluate.__doc__)
        self.assertIn("Ctrl-C", pydoc_text(allocsim.run))
        self.assertIn("Trace.load", pydoc_text(allocsim.Trace))


def pydoc_text(thing):
    import pydoc
    return pydoc.render_doc(thing, renderer=pydoc.plaintext)


if __name__ == "__main__":
    unittest.main()
