"""Every class of bad input raises a Python exception carrying the CLI's one-line
message (the CLI prints it after "allocsim: error: " and exits 2)."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

import numpy

from support import CLI, allocsim, small_scenario


def cli_error(*arguments):
    """The CLI's message for arguments it must reject with exit 2."""
    done = subprocess.run([CLI, *arguments], capture_output=True, text=True)
    assert done.returncode == 2, (done.returncode, done.stderr)
    line = done.stderr.strip()
    assert line.startswith("allocsim: error: "), line
    return line[len("allocsim: error: "):]


class ScenarioErrors(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.directory.cleanup()

    def write(self, name, text):
        path = os.path.join(self.directory.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def assert_same_as_cli(self, exception_type, path):
        with self.assertRaises(exception_type) as raised:
            allocsim.run(path)
        self.assertEqual(str(raised.exception), cli_error("run", "--quiet", "--out", self.directory.name, path))

    def test_malformed_json(self):
        self.assert_same_as_cli(ValueError, self.write("bad.json", '{"name": "x", "seed": }'))

    def test_unknown_key(self):
        self.assert_same_as_cli(ValueError, self.write("unknown.json", json.dumps(small_scenario(colour="red"))))

    def test_impossible_parameter(self):
        scenario = small_scenario(schemes=[{"scheme": "poisson", "rate": -5}])
        self.assert_same_as_cli(ValueError, self.write("rate.json", json.dumps(scenario)))

    def test_unknown_scheme(self):
        scenario = small_scenario(schemes=[{"scheme": "no-such-sampler"}])
        self.assert_same_as_cli(ValueError, self.write("scheme.json", json.dumps(scenario)))

    def test_missing_scenario_file(self):
        self.assert_same_as_cli(FileNotFoundError, os.path.join(self.directory.name, "absent.json"))

    def test_missing_trace_file_named_by_a_scenario(self):
        scenario = small_scenario(trace={"kind": "file", "path": "absent.trace"})
        self.assert_same_as_cli(ValueError, self.write("trace.json", json.dumps(scenario)))

    def test_dict_errors_name_the_json_path(self):
        with self.assertRaisesRegex(ValueError, r"\$\.colour"):
            allocsim.run(small_scenario(colour="red"))

    def test_bad_overrides(self):
        for arguments in ({"replications": 1}, {"threads": 5000}, {"replay": "sideways"}):
            with self.subTest(**arguments), self.assertRaises(ValueError):
                allocsim.run(small_scenario(), **arguments)

    def test_wrong_types(self):
        with self.assertRaises(TypeError):
            allocsim.run(42)
        with self.assertRaises(TypeError):
            allocsim.run(small_scenario(), seed="seven")


class TraceErrors(unittest.TestCase):
    def test_missing_file(self):
        path = "/nonexistent/trace.zst"
        with self.assertRaises(FileNotFoundError) as raised:
            allocsim.Trace.load(path)
        self.assertEqual(str(raised.exception), cli_error("trace", "info", path))

    def test_truncated_and_corrupt_files(self):
        with tempfile.TemporaryDirectory() as d:
            good = os.path.join(d, "good.trace")
            allocsim.Trace(sizes=numpy.arange(1, 200)).save(good)
            with open(good, "rb") as f:
                data = f.read()
            cases = {"truncated.trace": data[: len(data) // 2],
                     "corrupt.trace": data[:40] + bytes(b ^ 0xFF for b in data[40:80]) + data[80:],
                     "garbage.csv": b"size,what\n1,2,3\n"}
            for name, content in cases.items():
                path = os.path.join(d, name)
                with open(path, "wb") as f:
                    f.write(content)
                with self.subTest(file=name):
                    with self.assertRaises(ValueError) as raised:
                        allocsim.Trace.load(path)
                    self.assertEqual(str(raised.exception), cli_error("trace", "info", path))

    def test_bad_arrays(self):
        cases = [
            ({"sizes": numpy.array([1, -2])}, ValueError, r"sizes\[1\] is negative"),
            ({"sizes": numpy.array([1, 2]), "stacks": numpy.array([0])}, ValueError, "stacks has 1 elements"),
            ({"sizes": numpy.array([[1, 2]])}, ValueError, "one-dimensional"),
            ({"sizes": numpy.array([1.5])}, TypeError, "integer array"),
            ({"sizes": numpy.array([1, 2]), "threads": numpy.array([0, 2**40])}, ValueError, "does not fit 32 bits"),
            ({"sizes": numpy.array([1, 2]), "times": numpy.array([5, 3])}, ValueError, "time goes backwards"),
            ({"sizes": numpy.array([1, 2]), "frees": numpy.array([0, 0])}, ValueError, "freed before"),
        ]
        for arguments, exception_type, message in cases:
            with self.subTest(arguments=str(arguments)), self.assertRaisesRegex(exception_type, message):
                allocsim.Trace(**arguments)

    def test_bad_options(self):
        with self.assertRaisesRegex(ValueError, "format"):
            allocsim.Trace.load("x", format="xml")
        with self.assertRaisesRegex(ValueError, "pairing"):
            allocsim.Trace.load("x", pairing="random")


class IntervalErrors(unittest.TestCase):
    def test_impossible_inputs(self):
        for arguments in ({"samples": -1, "tail_bytes": 0, "p": 0.01}, {"samples": 3, "tail_bytes": 2, "p": 0.01},
                          {"samples": 3, "tail_bytes": 30, "p": 1.5}, {"samples": 3, "tail_bytes": 30, "p": 0.01,
                                                                        "method": "guess"}):
            with self.subTest(**arguments), self.assertRaises(ValueError):
                allocsim.interval(**arguments)


class Interrupt(unittest.TestCase):
    def test_sigint_stops_a_long_run(self):
        # A run of a few minutes at least, interrupted once it is under way; the
        # child must end with KeyboardInterrupt well before the run would finish.
        script = textwrap.dedent(f"""
            import signal, sys
            # Python leaves SIGINT ignored when it starts with it ignored, as a job
            # sent to the background by a shell without job control does: set
            # Ctrl-C's handler here, so the test does not depend on how it was run.
            signal.signal(signal.SIGINT, signal.default_int_handler)
            sys.path[:0] = {sys.path[:2]!r}
            from support import allocsim, small_scenario
            try:
                print("started", flush=True)
                allocsim.run(small_scenario(replications=100_000_000), threads=1)
            except KeyboardInterrupt:
                print("interrupted", flush=True)
                sys.exit(0)
            sys.exit(1)
        """)
        child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                                 cwd=os.path.dirname(__file__))
        self.assertEqual(child.stdout.readline().strip(), "started")
        try:
            time.sleep(1.0)
            child.send_signal(signal.SIGINT)
            output, _ = child.communicate(timeout=120)
        finally:
            child.kill()
        self.assertEqual(output.strip(), "interrupted")
        self.assertEqual(child.returncode, 0)


if __name__ == "__main__":
    unittest.main()
