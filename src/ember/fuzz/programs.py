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
    profiles: Counter = field(default_factory=Counter)
    """Generator profile -> programs generated with it."""
    llvm_programs: int = 0
    """Programs the llvm executor compiled (its entries know where they run)."""
    native_programs: Counter = field(default_factory=Counter)
    """Profile -> programs whose every called entry ran natively under backend="llvm"."""
    native_entries: int = 0
    llvm_entries: int = 0
    """Called entries that ran natively / all called entries, under the llvm executor."""
    fallbacks: Counter = field(default_factory=Counter)
    """Why called entries stayed on the VM: the fallback reason without its file:line."""

    def native_share(self) -> str:
        """'N of M programs (P %) ran natively, E of F entries', or '' without llvm."""
        if not self.llvm_programs:
            return ""
        n = sum(self.native_programs.values())
        by = ", ".join(f"{p} {self.native_programs[p]}/{self.profiles[p]}"
                       for p in sorted(self.profiles))
        return (f"{n} of {self.llvm_programs} programs ({100 * n / self.llvm_programs:.1f} %) "
                f"ran natively ({by}); {self.native_entries} of {self.llvm_entries} entries")


def program_seed(seed: int, k: int) -> int:
    return seed * SEED_STRIDE + k


PROFILES = ("full", "native", "mixed")
"""Generator profiles of a campaign; mixed: odd-numbered programs native, the rest full."""


def program_profile(profile: str, k: int) -> str:
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILES)}")
    return ("native" if k % 2 else "full") if profile == "mixed" else profile


def run_programs(seed: int, count: int | None = None, seconds: float | None = None,
                 out_dir: str | None = None, shrink: bool = True, check=None,
                 generate_fn=None, progress=None, max_shrinks: int = 10,
                 llvm: bool | None = None, profile: str = "full", start: int = 0) -> Stats:
    """Generate and check programs until `count` are done or `seconds` have passed.

    llvm: include the LLVM backend in the oracle (None: when llvmlite is installed);
    profile: the generator's profile (see PROFILES); generate_fn(seed), when given, makes
    the programs instead. start: the number of the first program (to resume a campaign).

    With out_dir, the program being checked is in OUT/inflight.py (seed, profile, source
    and cases) until its verdict is in: if native code brings the process down, that file
    is the reproducer, and `start` resumes after it."""
    if check is None:
        execs = oracle.executors(llvm)

        def check(source, cases):
            return oracle.check(source, cases, execs)
    stats = Stats()
    t0 = time.monotonic()
    k = start
    while (count is None or k < start + count) and \
            (seconds is None or time.monotonic() - t0 < seconds):
        if generate_fn is None:
            prog = generate(program_seed(seed, k), profile=program_profile(profile, k))
        else:
            prog = generate_fn(program_seed(seed, k))
        k += 1
        inflight = _inflight(out_dir, prog)
        verdict = check(prog.source, prog.cases)
        if inflight:
            os.unlink(inflight)
        _count(stats, verdict)
        _count_native(stats, prog, verdict)
        if verdict.failed:
            key = (verdict.status, verdict.signature)
            fresh = stats.reasons[key] == 1 and len(stats.failures) < max_shrinks
            stats.failures.append(_failure(prog, verdict, check, shrink and fresh, out_dir))
        if progress and k % 50 == 0:
            progress(stats, time.monotonic() - t0)
    return stats


def _inflight(out_dir, prog) -> str | None:
    if not out_dir:
        return None
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "inflight.py")
    with open(path, "w") as fh:
        fh.write(f"# in flight (a crash leaves it): seed {prog.seed}, profile {prog.profile}\n"
                 + prog.reproducer())
    return path


def _count(stats: Stats, verdict) -> None:
    stats.generated += 1
    stats.statuses[verdict.status] += 1
    if verdict.status not in ("rejected", "internal"):
        stats.compiled += 1
    if verdict.status == "agree":
        stats.agreed += 1
    else:
        stats.reasons[(verdict.status, verdict.signature)] += 1


def _count_native(stats: Stats, prog: Program, verdict) -> None:
    profile = getattr(prog, "profile", "full")
    stats.profiles[profile] += 1
    where = verdict.backends.get("llvm")
    if not where:
        return
    stats.llvm_programs += 1
    stats.llvm_entries += len(where)
    native = [b == "llvm" for b, _ in where.values()]
    stats.native_entries += sum(native)
    if all(native):
        stats.native_programs[profile] += 1
    for backend, why in where.values():
        if backend != "llvm":
            stats.fallbacks[_reason_kind(why or "")] += 1


def _reason_kind(why: str) -> str:
    """A fallback reason without its location and names of generated functions."""
    import re

    why = re.sub(r" \([^()]*:\d+\)$", "", why)
    return re.sub(r"\bf\d+\b", "fN", why)


def _failure(prog: Program, verdict, check, shrink: bool, out_dir) -> Failure:
    small = shrink_program(prog, verdict.signature, check) if shrink else prog
    text = (f"# {verdict.status}: {verdict.detail}\n# seed: {prog.seed}, profile: "
            f"{prog.profile}\n" + small.reproducer())
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
    return Program(tree, cases, prog.seed, prog.profile)
