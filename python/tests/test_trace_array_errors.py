"""allocsim.Trace built from arrays: ids checked against the input before anything
is sized by them, names covering every id, arrays of either byte order and any
alignment read as the values they hold, and an empty trace refused by run and
evaluate (each result would be an empty table)."""
import unittest

import numpy

from support import allocsim, small_scenario

NEVER_FREED = 2**64 - 1


class OneLine(unittest.TestCase):
    def assert_raises_one_line(self, call, *fragments):
        with self.assertRaises(ValueError) as raised:
            call()
        message = str(raised.exception)
        self.assertEqual(len(message.splitlines()), 1, message)
        for fragment in fragments:
            self.assertIn(fragment, message)


class EmptyTrace(OneLine):
    def setUp(self):
        self.empty = allocsim.Trace(sizes=numpy.array([], dtype=numpy.uint64))

    def test_run_and_evaluate_refuse_it(self):
        self.assert_raises_one_line(lambda: allocsim.run(small_scenario(), trace=self.empty), "no allocations")
        self.assert_raises_one_line(lambda: allocsim.evaluate(self.empty, "heapprofd", replications=4),
                                    "no allocations")

    def test_it_can_still_be_inspected(self):
        self.assertEqual(len(self.empty), 0)
        self.assertEqual(self.empty.info()["allocations"], 0)
        self.assertEqual(len(self.empty.to_pandas()), 0)


class Ids(OneLine):
    def test_stack_names_must_name_every_stack(self):
        self.assert_raises_one_line(lambda: allocsim.Trace(sizes=numpy.array([1, 2, 3]), stacks=numpy.array([0, 2, 1]),
                                                           stack_names=["a"]),
                                    "stacks[1]: stack id 2 has no name", "ids 0 to 0")

    def test_type_names_must_name_every_type(self):
        self.assert_raises_one_line(lambda: allocsim.Trace(sizes=numpy.array([1, 2]), types=numpy.array([1, 5]),
                                                           type_names=["a", "b"]),
                                    "types[1]: type id 5 has no name")

    def test_more_names_than_ids_are_kept(self):
        trace = allocsim.Trace(sizes=numpy.array([1]), stack_names=["a", "b", "c"])
        self.assertEqual((trace.stack_count, trace.stack_names), (3, ["a", "b", "c"]))

    def test_a_huge_id_is_refused_before_names_are_padded_to_it(self):
        # Padding one name to id 2^32-2 asked for 137 GB (MemoryError).
        self.assert_raises_one_line(lambda: allocsim.Trace(sizes=numpy.array([1]), stacks=numpy.array([2**32 - 2]),
                                                           stack_names=["a"]),
                                    "stacks[0]: stack id 4294967294 has no name")

    def test_the_largest_ids_name_the_element(self):
        # One more than 2^32-1 wrapped to a count of 0: "counts must be at least 1".
        cases = [("stacks", "stack id 4294967295 needs a name"), ("types", "type id 4294967295 needs a name"),
                 ("threads", "thread id 4294967295 is not below 1048576")]
        for column, message in cases:
            with self.subTest(column=column):
                arrays = {"sizes": numpy.array([1, 2]), column: numpy.array([0, 2**32 - 1], dtype=numpy.uint32)}
                self.assert_raises_one_line(lambda: allocsim.Trace(**arrays), column + "[1]: " + message)


class ByteOrderAndLayout(unittest.TestCase):
    def test_both_byte_orders_hold_the_same_values(self):
        sizes, times, frees = [16, 4096, 70000], [0, 5, 300], [-1, 9, 301]
        for order in "<>":
            for width in (2, 4, 8):
                with self.subTest(order=order, width=width):
                    unsigned, signed = f"{order}u{width}", f"{order}i{width}"
                    trace = allocsim.Trace(sizes=numpy.array(sizes[:2] if width == 2 else sizes, dtype=unsigned),
                                           times=numpy.array(times[: 2 if width == 2 else 3], dtype=signed),
                                           frees=numpy.array(frees[: 2 if width == 2 else 3], dtype=signed))
                    frame = trace.to_pandas()
                    n = len(frame)
                    self.assertEqual(frame["requested"].tolist(), sizes[:n])
                    self.assertEqual(frame["time"].tolist(), times[:n])
                    self.assertEqual(frame["free_time"].to_numpy(numpy.uint64).tolist(), [NEVER_FREED, *frees[1:n]])

    def test_unaligned_and_strided_arrays(self):
        raw = numpy.frombuffer(b"\0" + numpy.array([7, 9, 11], dtype=">u8").tobytes(), dtype=">u8", offset=1)
        self.assertEqual(allocsim.Trace(sizes=raw).to_pandas()["requested"].tolist(), [7, 9, 11])
        self.assertEqual(allocsim.Trace(sizes=numpy.arange(10)[::-3]).to_pandas()["requested"].tolist(), [9, 6, 3, 0])


if __name__ == "__main__":
    unittest.main()
