"""Where the tests find the package, the CLI and the repository; a small scenario."""
import copy
import os
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("ALLOCSIM_BUILD_DIR", os.path.join(REPO, "build"))
CLI = os.path.join(BUILD, "bin", "allocsim")
sys.path.insert(0, os.environ.get("ALLOCSIM_PYTHON_PATH", os.path.join(BUILD, "python")))

import allocsim  # noqa: E402  (after the path is set)

# Small enough to run in well under a second: two sampling rates, a Poisson sampler
# and .NET's (which offers intervals), per stack (profiles) and every estimate.
SMALL = {
    "name": "python-small",
    "seed": 11,
    "replications": 64,
    "trace": {
        "allocations": 2000,
        "threads": 2,
        "sizes": {"distribution": "log_uniform", "min": 16, "max": 65536},
        "stacks": {"rule": "size_bucket"},
        "lifetime": {"distribution": "exponential", "mean": 300},
    },
    "schemes": [{"scheme": "poisson", "rate": "$rate"}, {"scheme": "dotnet"}],
    "sweep": {"rate": [4096, 65536]},
    "groups": ["total", "stack"],
    "windows": ["allocated", "live_at_end"],
    "outputs": {"estimates": True},
}


def small_scenario(**changes):
    scenario = copy.deepcopy(SMALL)
    scenario.update(changes)
    return scenario
