"""The program campaign: generate, check against CPython, shrink failures, write
reproducers, count outcomes."""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, field

from ember.fuzz import oracle
from ember.fuzz.generator import Program, generate, render
from ember.fuzz.shrink import Shrinker

SEED_STRIDE = 1_000_003
"""Program k of a campaign with seed s is generated from s * SEED_STRIDE + k."""


@dataclass
class Failure:
    seed: int
    status: str
    detail: str
    reproducer: str
    """The shrunk program, corpus style (source and CASES)."""
    path: str | None = None


@dataclass
class Stats:
    generated: int = 0
    compiled: int = 0
    agreed: int = 0
    statuses: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    """(status, detail) of every failure, to group repeats of one bug."""
    failures: list = field(default_factory=list)


def program_seed(seed: int, k: int) -> int:
    return seed * SEED_STRIDE + k


def run_programs(seed: int, count: int | None = None, seconds: float | None = None,
                 out_dir: str | None = None, shrink: bool = True, check=None,
                 generate_fn=generate, progress=None, max_shrinks: int = 10) -> Stats:
    """Generate and check programs until `count` are done or `seconds` have passed."""
    check = check or oracle.check
    stats = Stats()
    start = time.monotonic()
    k = 0
    while (count is None or k < count) and \
            (seconds is None or time.monotonic() - start < seconds):
        prog = generate_fn(program_seed(seed, k))
        k += 1
        verdict = check(prog.source, prog.cases)
        _count(stats, verdict)
        if verdict.failed:
            key = (verdict.status, verdict.signature)
            fresh = stats.reasons[key] == 1 and len(stats.failures) < max_shrinks
            stats.failures.append(_failure(prog, verdict, check, shrink and fresh, out_dir))
        if progress and k % 50 == 0:
            progress(stats, time.monotonic() - start)
    return stats


def _count(stats: Stats, verdict) -> None:
    stats.generated += 1
    stats.statuses[verdict.status] += 1
    if verdict.status not in ("rejected", "internal"):
        stats.compiled += 1
    if verdict.status == "agree":
        stats.agreed += 1
    else:
        stats.reasons[(verdict.status, verdict.signature)] += 1


def _failure(prog: Program, verdict, check, shrink: bool, out_dir) -> Failure:
    small = shrink_program(prog, verdict.signature, check) if shrink else prog
    text = f"# {verdict.status}: {verdict.detail}\n# seed: {prog.seed}\n" + small.reproducer()
    f = Failure(prog.seed, verdict.status, verdict.detail, text)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
        f.path = os.path.join(out_dir, f"{verdict.status}_{prog.seed}.py")
        with open(f.path, "w") as fh:
            fh.write(text)
    return f


PYTHON_TYPE_ERRORS = ("TypeError", "NameError", "UnboundLocalError", "AttributeError")
"""CPython raising one of these means a shrinking step broke the program's typing."""


def _ill_typed(verdict) -> bool:
    if verdict.signature and verdict.signature[0] == "mismatch" and \
            verdict.signature[3] in PYTHON_TYPE_ERRORS:
        return False  # the original failure itself involves such an error
    return any(o[0] == "raise" and o[1] in PYTHON_TYPE_ERRORS
               for o in verdict.outcomes.get("cpython", []))


def shrink_program(prog: Program, signature, check=None, **budget) -> Program:
    """The smallest variant of prog whose failure keeps `signature`."""
    check = check or oracle.check

    def still_fails(tree, cases) -> bool:
        verdict = check(render(tree), cases)
        return verdict.signature == signature and not _ill_typed(verdict)

    tree, cases = Shrinker(still_fails, **budget).run(prog.tree, prog.cases)
    return Program(tree, cases, prog.seed)
