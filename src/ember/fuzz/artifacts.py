"""The artifact campaign: mutate real artifacts, load each mutant, run it, classify.

Outcome classes (a leading "BUG" marks a failure):
    load:ArtifactError     refused at load with the artifact error (good)
    run:same               loaded and every call gave the original result
    run:changed            loaded; some call returned a different value (an edited
                           constant or tensor byte changes what the program computes)
    run:error              loaded; some call raised a builtin or ember error
    run:timeout            loaded; some call ran past its time limit (an edited loop bound)
    BUG:load:<Exception>   load raised something other than ArtifactError
    BUG:load:timeout       load did not finish in time (verification must be bounded)
    BUG:load:memory        load allocated more than the file's size allows
    BUG:run:<Exception>    a call raised an error that means the verifier let something
                           through (NameError, UnboundLocalError, SystemError, ...)
"""

from __future__ import annotations

import copy
import math
import os
import random
import time
import tracemalloc
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ember.fuzz.entry_mutators import MUTATORS
from ember.fuzz.watchdog import Timeout, memory_cap, watchdog

LOAD_SECONDS = 20.0
RUN_SECONDS = 2.0
RUN_MEMORY = 1 << 30
"""Extra address space a mutant's calls may use (a changed constant may ask for more)."""
SEED_STRIDE = 1_000_003
BUG_ERRORS = ("NameError", "UnboundLocalError", "SystemError", "SyntaxError", "ImportError")
"""Errors a call may not raise: the verifier should have refused what causes them."""


def load_memory_limit(size: int) -> int:
    """The most a load may allocate: proportional to the file (code is translated to
    Python, about a kilobyte per instruction word), plus a fixed allowance."""
    return 256 * size + (16 << 20)


@dataclass
class ArtifactStats:
    mutants: int = 0
    classes: Counter = field(default_factory=Counter)
    bugs: list = field(default_factory=list)
    """(seed name, mutation description, class, detail, path of the saved mutant)."""


def run_artifacts(seed: int, seeds, count: int | None = None, seconds: float | None = None,
                  out_dir: str | None = None, trace_memory: bool = True,
                  progress=None) -> ArtifactStats:
    """Mutate `seeds` (artifact_seeds.Seed list) until `count` mutants or `seconds`."""
    expected = {s.name: _expected(s) for s in seeds}
    stats = ArtifactStats()
    start = time.monotonic()
    while (count is None or stats.mutants < count) and \
            (seconds is None or time.monotonic() - start < seconds):
        rng = random.Random(seed * SEED_STRIDE + stats.mutants)
        s = rng.choice(seeds)
        mutate = rng.choice(MUTATORS)
        data, desc = mutate(rng, s.data)
        cls, detail = classify(data, s, expected[s.name], trace_memory)
        stats.mutants += 1
        stats.classes[cls] += 1
        if cls.startswith("BUG"):
            path = _save(out_dir, data, s.name, stats.mutants, mutate.__name__)
            stats.bugs.append((s.name, f"{mutate.__name__}: {desc}", cls, detail, path))
        if progress and stats.mutants % 500 == 0:
            progress(stats, time.monotonic() - start)
    return stats


def classify(data: bytes, s, expected, trace_memory: bool = True) -> tuple:
    """(outcome class, detail) of loading `data` and running the seed's cases on it."""
    from ember import mobile
    from ember.errors import ArtifactError

    try:
        with watchdog(LOAD_SECONDS):
            loaded, peak = _load(mobile.loads, data, trace_memory)
    except ArtifactError:
        return "load:ArtifactError", ""
    except Timeout:
        return "BUG:load:timeout", f"load took over {LOAD_SECONDS} s"
    except Exception as e:  # noqa: BLE001 - anything but ArtifactError at load is a bug
        return f"BUG:load:{type(e).__name__}", str(e)[:300]
    if peak > load_memory_limit(len(data)):
        return "BUG:load:memory", f"peak {peak} bytes for a {len(data)}-byte file"
    return _run_all(loaded, s.cases, expected)


def _load(loads, data, trace):
    if not trace:
        return loads(data), 0
    tracemalloc.start()
    try:
        m = loads(data)
        return m, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _run_all(loaded, cases, expected) -> tuple:
    worst = ("run:same", "")
    rank = {"run:same": 0, "run:changed": 1, "run:error": 2, "run:timeout": 3}
    for (entry, args), want in zip(cases, expected):
        got = call(loaded, entry, args)
        if got[0] == "raise" and got[1] in BUG_ERRORS:
            return f"BUG:run:{got[1]}", f"{entry}: {got[2][:300]}"
        cls = "run:same" if same_result(want, got) else \
            {"ok": "run:changed", "raise": "run:error", "timeout": "run:timeout"}[got[0]]
        if rank[cls] > rank[worst[0]]:
            worst = (cls, f"{entry}: {got!r:.200}")
    return worst


def call(loaded, entry, args) -> tuple:
    """("ok", value) | ("raise", type name, message) | ("timeout",) of one call."""
    try:
        fn = getattr(loaded, entry)
    except AttributeError as e:
        return ("raise", "MissingEntry", str(e))
    try:
        with watchdog(RUN_SECONDS), memory_cap(RUN_MEMORY):
            return ("ok", fn(*copy.deepcopy(args)))
    except Timeout:
        return ("timeout",)
    except RecursionError as e:
        return ("raise", "RecursionError", str(e))
    except Exception as e:  # noqa: BLE001 - the exception is the call's outcome
        return ("raise", type(e).__name__, str(e))


def _expected(s) -> list:
    from ember import mobile

    loaded = mobile.loads(s.data)
    return [call(loaded, entry, args) for entry, args in s.cases]


def same_result(a, b) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] == "raise":
        return a[1:] == b[1:]
    return a[0] == "timeout" or _same_value(a[1], b[1])


def _same_value(x, y) -> bool:
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        return isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and \
            x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
    if type(x) is not type(y):
        return False
    if isinstance(x, (list, tuple)):
        return len(x) == len(y) and all(_same_value(a, b) for a, b in zip(x, y))
    if isinstance(x, dict):
        return list(x) == list(y) and all(_same_value(x[k], y[k]) for k in x)
    if isinstance(x, float) and math.isnan(x):
        return isinstance(y, float) and math.isnan(y)
    return x == y or repr(x) == repr(y)


def _save(out_dir, data, name, k, mutator) -> str | None:
    if not out_dir:
        return None
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"mutant_{name}_{k}_{mutator}.ember")
    with open(path, "wb") as fh:
        fh.write(data)
    return path
