"""Every argument of the module's functions is checked with a one-line exception
that names it: ValueError for an integer out of range (negative for an unsigned
argument, past 2^64) or a value that cannot be used, TypeError for the wrong type.
(pybind11's own TypeError lists the private signature and every argument given,
the whole scenario text included.) A message quoting a user's text stays one line."""
import json
import os
import pathlib
import tempfile
import unittest

import numpy

from support import allocsim, small_scenario

TRACE = allocsim.Trace(sizes=numpy.array([16, 32, 4096]))

# (call, argument, unsigned) for each integer argument of each function; no call
# below gets as far as running anything.
INTEGER_ARGUMENTS = [
    (lambda v: allocsim.run(small_scenario(), threads=v), "threads", True),
    (lambda v: allocsim.run(small_scenario(), seed=v), "seed", True),
    (lambda v: allocsim.run(small_scenario(), replications=v), "replications", True),
    (lambda v: allocsim.run(small_scenario(), top=v), "top", True),
    (lambda v: allocsim.evaluate(TRACE, "heapprofd", threads=v), "threads", True),
    (lambda v: allocsim.evaluate(TRACE, "heapprofd", seed=v), "seed", True),
    (lambda v: allocsim.evaluate(TRACE, "heapprofd", replications=v), "replications", True),
    (lambda v: allocsim.evaluate(TRACE, "heapprofd", top=v), "top", True),
    (lambda v: TRACE.info(top=v), "top", True),
    (lambda v: allocsim.interval(v, 100, 0.01), "samples", False),
    (lambda v: allocsim.interval(3, v, 0.01), "tail_bytes", False),
]


class OneLine(unittest.TestCase):
    def assert_raises_one_line(self, exception_type, call, *fragments):
        with self.assertRaises(exception_type) as raised:
            call()
        message = str(raised.exception)
        self.assertEqual(len(message.splitlines()), 1, message)
        for fragment in fragments:
            self.assertIn(fragment, message)
        return message


class IntegerArguments(OneLine):
    def test_out_of_range_integers_raise_one_line_value_errors(self):
        for call, argument, unsigned in INTEGER_ARGUMENTS:
            for value in [2**64, 2**70, -(2**64), *([-1] if unsigned else [])]:
                with self.subTest(argument=argument, value=value):
                    self.assert_raises_one_line(ValueError, lambda: call(value), argument)

    def test_negative_threads_do_not_dump_the_scenario(self):
        message = self.assert_raises_one_line(ValueError, lambda: allocsim.run(small_scenario(), threads=-1),
                                              "threads", "-1")
        self.assertNotIn("python-small", message)  # the scenario's name

    def test_an_integer_too_long_to_print_is_described(self):
        self.assert_raises_one_line(ValueError, lambda: allocsim.run(small_scenario(), seed=10**5000),
                                    "seed", "16610 bits")

    def test_non_integers_raise_one_line_type_errors(self):
        for call, argument, _ in INTEGER_ARGUMENTS:
            for value in (1.5, "3"):
                with self.subTest(argument=argument, value=value):
                    self.assert_raises_one_line(TypeError, lambda: call(value), argument)

    def test_numpy_integers_are_integers(self):
        self.assertEqual(TRACE.info(top=numpy.uint8(1))["top_stacks"][0]["bytes"], 4144)


class OtherArguments(OneLine):
    def test_wrong_types_raise_one_line_type_errors(self):
        cases = [
            (lambda: allocsim.run(small_scenario(), charts="no"), "charts"),
            (lambda: allocsim.run(small_scenario(), replay=5), "replay"),
            (lambda: allocsim.run(small_scenario(), out=5), "out"),
            (lambda: allocsim.evaluate(TRACE, "heapprofd", name=5), "name"),
            (lambda: allocsim.evaluate(TRACE, "heapprofd", trace_name=5), "trace_name"),
            (lambda: allocsim.evaluate(TRACE, 7), "schemes[0]"),
            (lambda: allocsim.interval(3, 30, "0.1"), "p"),
            (lambda: allocsim.interval(3, 30, 0.1, level=None), "level"),
            (lambda: allocsim.interval(3, 30, 0.1, method=1), "method"),
            (lambda: allocsim.interval(3, 30, 0.1, boundary_correction="no"), "boundary_correction"),
            (lambda: allocsim.interval_table(rounding=None), "rounding"),
            (lambda: allocsim.Trace.load(5), "path"),
            (lambda: allocsim.Trace.load("x", format=1), "format"),
            (lambda: TRACE.save(5), "path"),
            (lambda: allocsim.Trace(sizes=[1, 2]), "sizes"),
            (lambda: allocsim.Trace(sizes=numpy.array([1]), threads=0), "threads"),
            (lambda: allocsim.Trace(sizes=numpy.array([1]), stack_names="ab"), "stack_names"),
            (lambda: allocsim.Trace(sizes=numpy.array([1]), type_names=[1]), "type_names[0]"),
        ]
        for call, argument in cases:
            with self.subTest(argument=argument):
                self.assert_raises_one_line(TypeError, call, argument)

    def test_a_float_past_a_double_raises_value_error(self):
        self.assert_raises_one_line(ValueError, lambda: allocsim.interval(3, 30, 10**400), "p")

    def test_text_without_utf8_form_raises_value_error(self):
        self.assert_raises_one_line(ValueError, lambda: allocsim.evaluate(TRACE, "heap\ud800"), "schemes[0]")

    def test_paths_may_be_path_objects_or_bytes(self):
        with tempfile.TemporaryDirectory() as d:
            TRACE.save(pathlib.Path(d) / "t.trace")
            self.assertEqual(len(allocsim.Trace.load(pathlib.Path(d) / "t.trace")), 3)
            self.assertEqual(len(allocsim.Trace.load(os.fsencode(os.path.join(d, "t.trace")))), 3)

    def test_a_nul_in_a_path_is_refused_and_nothing_is_written(self):
        # The NUL would cut the name short: "t.trace\0x" would write "t.trace".
        with tempfile.TemporaryDirectory() as d:
            self.assert_raises_one_line(ValueError, lambda: TRACE.save(os.path.join(d, "t.trace\0x")),
                                        "path", "NUL", "t.trace\\x00x")
            self.assert_raises_one_line(ValueError, lambda: allocsim.run(small_scenario(), out=d + "/o\0x"),
                                        "out", "NUL")
            self.assertEqual(os.listdir(d), [])

    def test_a_nul_in_a_scenario_path_is_refused(self):
        # Cut short at the NUL, "s.json\0.txt" would run s.json.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.json")
            with open(path, "w") as f:
                json.dump(small_scenario(replications=4), f)
            self.assert_raises_one_line(ValueError, lambda: allocsim.run(path + "\0.txt"), "scenario", "NUL")

    def test_groups_and_windows_may_be_one_name(self):
        result = allocsim.evaluate(TRACE, "heapprofd", groups="stack", windows="live_at_end", replications=4)
        self.assertEqual(set(result.metrics.group_kind), {"total", "stack"})


class QuotedText(OneLine):
    def test_messages_quoting_user_text_stay_one_line(self):
        with tempfile.TemporaryDirectory() as d:
            cases = [
                (ValueError, lambda: allocsim.Trace.load("x", format="a\nb"), "'a\\nb'"),
                (ValueError, lambda: allocsim.Trace.load("x", pairing="a\u2028b\x1b"), "a\\u2028b\\x1b"),
                (ValueError, lambda: allocsim.evaluate(TRACE, "heap\r\nprofd"), "heap\\r\\nprofd"),
                (ValueError, lambda: allocsim.run(small_scenario(), replay="a\x85b"), "a\\x85b"),
                (FileNotFoundError, lambda: allocsim.Trace.load(d + "/a\nb.trace"), "a\\nb.trace"),
                (FileNotFoundError, lambda: allocsim.evaluate(d + "/a\nb.trace", "heapprofd"), "a\\nb.trace"),
                (FileNotFoundError, lambda: allocsim.run(d + "/a\nb.json", trace=TRACE), "a\\nb.json"),
                (FileNotFoundError, lambda: allocsim.run(d + "/a\nb.json"), "a\\nb.json"),
            ]
            for exception_type, call, quoted in cases:
                with self.subTest(quoted=quoted):
                    self.assert_raises_one_line(exception_type, call, quoted)


class Signatures(OneLine):
    def test_arguments_a_binding_does_not_take_raise_one_line_type_errors(self):
        huge = numpy.arange(100000)  # pybind11 would print every value given
        cases = [
            (lambda: allocsim.Trace(sizes=huge, bogus=1), "Trace()", "'bogus'", "sizes; optional: threads"),
            (lambda: allocsim.Trace(huge, None, None, None, None, None, None, [], [], 5), "Trace()",
             "10 positional", "type_names"),
            (lambda: allocsim.interval(1, 2, 3, bogus=4), "interval()", "'bogus'", "samples, tail_bytes, p; optional"),
            (lambda: allocsim.interval_table(bogus=4), "interval_table()", "'bogus'", "optional"),
            (lambda: allocsim.schemes(1), "schemes()", "1 positional", "no arguments"),
            (lambda: TRACE.info(huge, 2), "Trace.info()", "2 positional", "no required arguments; optional: top"),
            (lambda: TRACE.save(), "Trace.save()", "0 positional", "path; optional: format"),
            (lambda: TRACE.to_pandas(bogus=huge), "Trace.to_pandas()", "'bogus'", "no arguments"),
            (lambda: allocsim.Trace.load(bogus=1), "Trace.load()", "'bogus'", "path"),
        ]
        for call, *fragments in cases:
            with self.subTest(name=fragments[0]):
                message = self.assert_raises_one_line(TypeError, call, *fragments)
                self.assertNotIn("99999", message)

    def test_type_errors_of_the_arguments_themselves_are_kept(self):
        self.assert_raises_one_line(TypeError, lambda: TRACE.save(5), "path must be a str or an os.PathLike")


if __name__ == "__main__":
    unittest.main()
