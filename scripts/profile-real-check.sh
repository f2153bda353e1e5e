#!/usr/bin/env bash
# The quick real-run check of ./test.sh: 4 runs each of the Go 1.19 (its pprof and the
# same run's ?debug=1 text), jemalloc 5.3 (raw and unbiased) and gperftools 2.10 (its
# sampled profile and its heap profiler's) profile programs (traces/profiles/make),
# each read with `allocsim profile` at level 0.999; fails unless every site whose
# interval is exact under its model (10 sites: Go small and medium in both forms, both
# jemalloc modes' small and medium, gperftools' two sizes of the mixed site) was
# covered in at least 3 of its 4 runs, and the heap profiler's four sites, recorded
# whole, read as their exact bytes in all 4.
#
# False-alarm rate: each interval misses with probability q <= 0.001 under the model
# (Clopper-Pearson, docs/profiles.md), so a site fails the check (2 or more misses in 4
# independent runs) with probability 1 - (1-q)^4 - 4q(1-q)^3 <= 6.0e-6, and the check
# with probability <= 10 x 6.0e-6 = 6.0e-5 (the exact points cannot miss). Cost: about
# 25 s after building.
set -euo pipefail
exec "$(dirname "$0")/profile-real-coverage.sh" 4 0.999 3
