"""allocsim.schemes and allocsim.interval give what the CLI prints."""
import json
import subprocess
import unittest

from support import CLI, allocsim


class Catalogue(unittest.TestCase):
    def test_schemes_equal_the_cli_json(self):
        cli = json.loads(subprocess.run([CLI, "schemes", "--json"], check=True, capture_output=True,
                                        text=True).stdout)
        self.assertEqual(allocsim.schemes(), cli)

    def test_interval_equals_the_cli_json(self):
        for method in ("exact", "camp-paulson"):
            with self.subTest(method=method):
                cli = json.loads(subprocess.run(
                    [CLI, "interval", "--samples", "12", "--tail-bytes", "50000", "--p", "0.0001",
                     "--level", "0.9", "--method", method, "--boundary-correction", "--json"],
                    check=True, capture_output=True, text=True).stdout)
                mine = allocsim.interval(samples=12, tail_bytes=50000, p=0.0001, level=0.9, method=method,
                                         boundary_correction=True)
                self.assertEqual(mine, {k: cli[k] for k in ("estimate", "lower", "upper")})

    def test_interval_table_equals_the_cli_json(self):
        cli = json.loads(subprocess.run([CLI, "interval", "--table", "--rounding", "down", "--json"], check=True,
                                        capture_output=True, text=True).stdout)
        mine = allocsim.interval_table(rounding="down")
        self.assertEqual([r["samples"] for r in mine], [r["samples"] for r in cli["rows"]])
        self.assertEqual([r["exact_upper"] for r in mine], [r["exact"]["upper"] for r in cli["rows"]])
        self.assertEqual([r["camp_paulson_lower"] for r in mine], [r["camp_paulson"]["lower"] for r in cli["rows"]])


if __name__ == "__main__":
    unittest.main()
