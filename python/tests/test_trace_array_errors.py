"""allocsim.Trace built from arrays: arrays of either byte order and any
alignment are read as the values they hold."""
import unittest

import numpy

from support import allocsim

NEVER_FREED = 2**64 - 1


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
