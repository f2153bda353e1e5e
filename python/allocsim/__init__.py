"""allocsim: how accurate is heap-allocation sampling?

Runs allocsim's scenarios from Python and hands the results back as pandas
DataFrames, reads and builds traces, and lists the sampling schemes. Every number
comes from the C++ engine and the CLI's own result writers: a DataFrame here is
the CSV file `allocsim run` writes, parsed.

    import allocsim
    result = allocsim.run("scenarios/examples/quickstart.json", replications=200)
    result.metrics            # metrics.csv as a DataFrame
    result.verdict            # the verdict `allocsim run --json` prints
    trace = allocsim.Trace(sizes=numpy.array([16, 32, 4096]))
    answer = allocsim.evaluate(trace, "heapprofd", rates=["32KiB", "512KiB"])
"""
import functools
import io
import json
import os
import re
from typing import NamedTuple, Optional, Sequence, Union

import pandas

from . import _allocsim
from ._allocsim import Trace, __version__, _evaluate_scenario, _run

__all__ = ["run", "evaluate", "RunResult", "Trace", "schemes", "interval", "interval_table", "__version__"]


class RunResult(NamedTuple):
    """What `run` returns: the results `allocsim run` writes, as DataFrames.

    metrics    metrics.csv: one row per sweep point, scheme, estimator and group
    intervals  intervals.csv (interval coverage), None where the CLI writes none
    profiles   profiles.csv (distance of the estimated profile), None where none
    estimates  estimates.csv (every replication's estimate), None unless the
               scenario's outputs ask for it
    summary    summary.json as a dict (seed, trace sizes, expectation outcomes)
    verdict    the verdict as a dict, as `allocsim run --json` prints it (less
               "directory" and "files"): per sweep point, scheme and window the
               whole heap's error, the largest stacks, the stacks a profile would
               probably miss and the profile's distance, each number copied from
               a row of metrics, intervals or profiles
    scenario   the scenario that ran, as a dict (for evaluate: the one it built,
               which `allocsim run` reruns when its trace is a file)
    csv        the files' text exactly as the CLI writes it, by file name
    directory  where the files were written when `out` was given, else None
    """

    metrics: pandas.DataFrame
    intervals: Optional[pandas.DataFrame]
    profiles: Optional[pandas.DataFrame]
    estimates: Optional[pandas.DataFrame]
    summary: dict
    verdict: dict
    scenario: dict
    csv: dict
    directory: Optional[str]


# Stands in for the scenario's "trace" when run() is given a Trace: the parser
# needs one, and every sweep point's trace is then replaced by the Trace.
_TRACE_PLACEHOLDER = {"allocations": 1, "sizes": {"distribution": "constant", "size": 1}}


# Characters that would break a message quoting a user's text over lines: C0, DEL,
# C1 and the Unicode line and paragraph separators (as python/src/one_line.h).
_LINE_BREAKING = {c: repr(chr(c))[1:-1] for c in [*range(0x20), *range(0x7f, 0xa0), 0x2028, 0x2029]}


def _one_line(text):
    """text with the characters that could break a message's line escaped as repr writes them."""
    return text.translate(_LINE_BREAKING)


def _type_name(value):
    return _one_line(type(value).__name__)


def _scenario_source(scenario, trace):
    """(text or path, is_path) for a dict, a JSON string or a path."""
    if trace is not None:
        return _with_placeholder_trace(scenario), False
    if isinstance(scenario, dict):
        return json.dumps(scenario), False
    if isinstance(scenario, os.PathLike):
        return os.fspath(scenario), True
    if isinstance(scenario, str):
        is_json = scenario.lstrip().startswith("{")
        return scenario, not is_json
    raise TypeError("scenario must be a dict, a JSON string or a path, got " + _type_name(scenario))


def _with_placeholder_trace(scenario):
    """The scenario's JSON text with the placeholder trace, for run(..., trace=)."""
    if isinstance(scenario, (str, os.PathLike)) and not str(scenario).lstrip().startswith("{"):
        path = os.fsdecode(scenario)
        if not os.path.exists(path):
            raise FileNotFoundError(_one_line(path) + ": no such file")
        with open(path, encoding="utf-8") as f:
            scenario = f.read()
    if isinstance(scenario, str):
        try:
            scenario = json.loads(scenario)
        except json.JSONDecodeError as e:
            raise ValueError("<scenario>: " + str(e)) from None
    if not isinstance(scenario, dict):
        raise TypeError("scenario must be a dict, a JSON string or a path, got " + _type_name(scenario))
    return json.dumps(dict(scenario, trace=_TRACE_PLACEHOLDER))


def _signature_in_words(message):
    """'samples, tail_bytes; optional: level, method' from pybind11's signature
    line in `message` (self left out)."""
    lines = message.splitlines()
    parameters = re.findall(r"(\w+): [\w.]+( = )?", lines[1] if len(lines) > 1 else "")
    required = [name for name, default in parameters if not default and name != "self"]
    optional = [name for name, default in parameters if default]
    if not required and not optional:
        return "no arguments"
    words = ", ".join(required) or "no required arguments"
    return words + ("; optional: " + ", ".join(optional) if optional else "")


def _one_line_signature_errors(function, name, method=False):
    """`function` (a binding; a method when `method`), with the TypeError pybind11
    raises for arguments it does not take (several lines: the private signature and
    every value given, a whole array's text included) replaced by one line naming
    what it takes."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except TypeError as e:
            message = str(e)
            if "incompatible" not in message.partition("\n")[0]:
                raise
            given = [f"{len(args) - method} positional argument(s)"] + [f"keyword {_one_line(repr(k))}" for k in kwargs]
            raise TypeError(f"{name}() called with {', '.join(given)}; it takes {_signature_in_words(message)}") from None

    return call


interval = _one_line_signature_errors(_allocsim.interval, "interval")
interval_table = _one_line_signature_errors(_allocsim.interval_table, "interval_table")
schemes = _one_line_signature_errors(_allocsim.schemes, "schemes")
Trace.__init__ = _one_line_signature_errors(Trace.__init__, "Trace", method=True)
for _method in ("save", "info", "to_pandas"):
    setattr(Trace, _method, _one_line_signature_errors(getattr(Trace, _method), "Trace." + _method, method=True))
Trace.load = staticmethod(_one_line_signature_errors(Trace.load, "Trace.load"))


def _frame(text):
    # round_trip: each cell is the very double the CLI wrote (shortest round-trip
    # digits); pandas' default parser may land one ulp away.
    return None if text is None else pandas.read_csv(io.StringIO(text), float_precision="round_trip")


def run(scenario: Union[dict, str, os.PathLike], *, trace: Optional[Trace] = None, threads: int = 0,
        seed: Optional[int] = None, replications: Optional[int] = None, replay: Optional[str] = None,
        out: Union[str, os.PathLike, None] = None, charts: bool = True, top: int = 5) -> RunResult:
    """Runs a scenario and returns its results as DataFrames (a RunResult).

    scenario      a dict (the scenario's JSON as Python objects), a JSON string
                  (starting with "{") or the path of a scenario file; relative
                  trace paths are taken from the file's directory, or from the
                  working directory for a dict or a string
    trace         an allocsim.Trace to run on instead of the scenario's "trace"
                  (which may then be left out): a trace built from arrays or
                  loaded once and run many times, never saved to a file
    threads       worker threads, 0 = all cores; results are bit-identical for
                  any count
    seed          overrides the scenario's seed
    replications  overrides the scenario's replications (2 to 10^9)
    replay        overrides the scenario's replay: "skip_ahead" or "streaming"
    out           also write the result files under this directory, as
                  `allocsim run --out OUT` does
    charts        with `out`, also render the scenario's charts and tables
    top           largest stacks the verdict shows per scheme (1 to 1000)

    The engine runs without the GIL; Ctrl-C stops it (KeyboardInterrupt). A bad
    scenario raises ValueError with the CLI's one-line message, a missing file
    FileNotFoundError, a scenario of the wrong type TypeError. An argument out of
    range raises ValueError naming it, one of the wrong type TypeError, and an
    empty trace ValueError (every result would be an empty table).
    """
    if trace is not None and not isinstance(trace, Trace):
        raise TypeError("trace must be an allocsim.Trace, got " + _type_name(trace))
    source, is_path = _scenario_source(scenario, trace)
    files = _run(source, is_path, threads, seed, replications, replay, out, charts, trace, top)
    texts = {name + ".csv": files[name] for name in ("metrics", "intervals", "profiles", "estimates")
             if files[name] is not None}
    texts["summary.json"] = files["summary"]
    return RunResult(metrics=_frame(files["metrics"]), intervals=_frame(files["intervals"]),
                     profiles=_frame(files["profiles"]), estimates=_frame(files["estimates"]),
                     summary=json.loads(files["summary"]), verdict=json.loads(files["verdict"]),
                     scenario=json.loads(files["scenario"]), csv=texts, directory=files["directory"])


def _as_list(value):
    return [value] if isinstance(value, (str, int)) else list(value)


def evaluate(trace: Union[Trace, str, os.PathLike], schemes: Union[str, Sequence[str]], *,
             rates: Union[int, str, Sequence[Union[int, str]]] = (), groups: Sequence[str] = ("total", "stack"),
             windows: Sequence[str] = ("allocated",), replications: int = 1000, seed: int = 1,
             name: Optional[str] = None, trace_name: Optional[str] = None, threads: int = 0,
             out: Union[str, os.PathLike, None] = None, charts: bool = True, top: int = 5) -> RunResult:
    """How accurate is scheme S at rate T on this trace? `allocsim evaluate` from Python.

    Builds the scenario the CLI builds for the same arguments, runs it and returns
    its RunResult; `result.verdict` holds the numbers `allocsim evaluate --json`
    prints, `result.scenario` the scenario (save it as JSON to rerun or edit it).

    trace         an allocsim.Trace (run in memory), or the path of a trace file
                  of any format allocsim reads
    schemes       a scheme name, or several: "heapprofd", or with parameters
                  "heapprofd:passthrough=none,rate=64KiB" (as --scheme)
    rates         byte rates swept for every scheme that takes one: 4096,
                  "32KiB", "2MiB" (as --rate); empty: each scheme's default
    groups        group kinds beside the total: "stack", "type", "size_bucket"
    windows       heap windows: "allocated", "live_at_end", "live_at_peak"
    replications  simulated profiles per scheme and rate (2 to 10^9)
    seed          random seed
    name          the scenario's name (default: evaluate-<trace name>)
    trace_name    names the trace in chart titles (default: the file's name,
                  or "trace" for an allocsim.Trace)
    threads, out, charts, top   as for run()

    Bad arguments raise ValueError with the CLI's one-line message (naming the
    flag, e.g. "--rate 32k: ..."), a missing file FileNotFoundError.
    """
    if isinstance(trace, Trace):
        trace_json, in_memory = _TRACE_PLACEHOLDER, trace
        default_name = "trace"
    elif isinstance(trace, (str, os.PathLike)):
        path = os.fsdecode(trace)
        if not os.path.exists(path):
            raise FileNotFoundError(_one_line(path) + ": no such file")
        trace_json, in_memory = {"kind": "file", "path": os.path.abspath(path)}, None
        default_name = os.path.basename(path)
    else:
        raise TypeError("trace must be an allocsim.Trace or a path, got " + _type_name(trace))
    scenario = _evaluate_scenario(json.dumps(trace_json), trace_name or default_name, _as_list(schemes),
                                  [str(r) for r in _as_list(rates)], _as_list(groups), _as_list(windows),
                                  replications, seed, name or "")
    return run(scenario, trace=in_memory, threads=threads, out=out, charts=charts, top=top)
