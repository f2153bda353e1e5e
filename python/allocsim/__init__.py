"""allocsim: how accurate is heap-allocation sampling?

Runs allocsim's scenarios from Python and hands the results back as pandas
DataFrames, reads and builds traces, and lists the sampling schemes. Every number
comes from the C++ engine and the CLI's own result writers: a DataFrame here is
the CSV file `allocsim run` writes, parsed.

    import allocsim
    result = allocsim.run("scenarios/examples/quickstart.json", replications=200)
    result.metrics            # metrics.csv as a DataFrame
    trace = allocsim.Trace(sizes=numpy.array([16, 32, 4096]))
"""
import io
import json
import os
from typing import NamedTuple, Optional

import pandas

from ._allocsim import Trace, __version__, _run, interval, interval_table, schemes

__all__ = ["run", "RunResult", "Trace", "schemes", "interval", "interval_table", "__version__"]


class RunResult(NamedTuple):
    """What `run` returns: the results `allocsim run` writes, as DataFrames.

    metrics    metrics.csv: one row per sweep point, scheme, estimator and group
    intervals  intervals.csv (interval coverage), None where the CLI writes none
    profiles   profiles.csv (distance of the estimated profile), None where none
    estimates  estimates.csv (every replication's estimate), None unless the
               scenario's outputs ask for it
    summary    summary.json as a dict (seed, trace sizes, expectation outcomes)
    csv        the files' text exactly as the CLI writes it, by file name
    directory  where the files were written when `out` was given, else None
    """

    metrics: pandas.DataFrame
    intervals: Optional[pandas.DataFrame]
    profiles: Optional[pandas.DataFrame]
    estimates: Optional[pandas.DataFrame]
    summary: dict
    csv: dict
    directory: Optional[str]


def _scenario_source(scenario):
    """(text or path, is_path) for a dict, a JSON string or a path."""
    if isinstance(scenario, dict):
        return json.dumps(scenario), False
    if isinstance(scenario, os.PathLike):
        return os.fspath(scenario), True
    if isinstance(scenario, str):
        is_json = scenario.lstrip().startswith("{")
        return scenario, not is_json
    raise TypeError("scenario must be a dict, a JSON string or a path, got " + type(scenario).__name__)


def _frame(text):
    return None if text is None else pandas.read_csv(io.StringIO(text))


def run(scenario, *, threads=0, seed=None, replications=None, replay=None, out=None, charts=True):
    """Runs a scenario and returns its results as DataFrames (a RunResult).

    scenario      a dict (the scenario's JSON as Python objects), a JSON string
                  (starting with "{") or the path of a scenario file; relative
                  trace paths are taken from the file's directory, or from the
                  working directory for a dict or a string
    threads       worker threads, 0 = all cores; results are bit-identical for
                  any count
    seed          overrides the scenario's seed
    replications  overrides the scenario's replications (2 to 10^9)
    replay        overrides the scenario's replay: "skip_ahead" or "streaming"
    out           also write the result files under this directory, as
                  `allocsim run --out OUT` does
    charts        with `out`, also render the scenario's charts and tables

    The engine runs without the GIL; Ctrl-C stops it (KeyboardInterrupt). A bad
    scenario raises ValueError with the CLI's one-line message, a missing file
    FileNotFoundError, a scenario of the wrong type TypeError.
    """
    source, is_path = _scenario_source(scenario)
    files = _run(source, is_path, threads, seed, replications, replay,
                 None if out is None else os.fspath(out), charts)
    texts = {name + ".csv": files[name] for name in ("metrics", "intervals", "profiles", "estimates")
             if files[name] is not None}
    texts["summary.json"] = files["summary"]
    return RunResult(metrics=_frame(files["metrics"]), intervals=_frame(files["intervals"]),
                     profiles=_frame(files["profiles"]), estimates=_frame(files["estimates"]),
                     summary=json.loads(files["summary"]), csv=texts, directory=files["directory"])
