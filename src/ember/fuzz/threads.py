"""Threads: one loaded artifact called from many threads at once must give what serial
calls give (values, or exception type and message), call after call.

The switch interval is cut to a microsecond while the threads run, so the
interpreter interleaves them as finely as it can.
"""

from __future__ import annotations

import copy
import os
import random
import sys
import tempfile
import threading
from dataclasses import dataclass, field

from ember.fuzz.artifacts import _same_value

THREADS = 8


@dataclass
class ThreadStats:
    programs: int = 0
    calls: int = 0
    mismatches: list = field(default_factory=list)
    """(program name, entry, serial outcome, threaded outcome)."""


def outcome(fn, args) -> tuple:
    try:
        return ("ok", fn(*copy.deepcopy(args)))
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return ("raise", type(e).__name__, str(e))


def same(a, b) -> bool:
    if a[0] != b[0]:
        return False
    return a[1:] == b[1:] if a[0] == "raise" else _same_value(a[1], b[1])


def check_program(name, loaded, cases, stats: ThreadStats, threads: int = THREADS,
                  rounds: int = 10, seed: int = 0) -> None:
    """Call every case `rounds` times from each of `threads` threads (each in its own
    shuffled order) and compare every result with the serial one."""
    fns = [getattr(loaded, entry) for entry, _ in cases]
    serial = [outcome(fn, args) for fn, (_, args) in zip(fns, cases)]
    barrier = threading.Barrier(threads)
    results: list = [[] for _ in range(threads)]

    def work(t):
        order = list(range(len(cases))) * rounds
        random.Random(seed * 1000 + t).shuffle(order)
        barrier.wait()
        for i in order:
            results[t].append((i, outcome(fns[i], cases[i][1])))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        workers = [threading.Thread(target=work, args=(t,), daemon=True)
                   for t in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(120)
    finally:
        sys.setswitchinterval(old)
    stats.programs += 1
    for t, res in enumerate(results):
        stats.calls += len(res)
        if len(res) != len(cases) * rounds:
            stats.mismatches.append((name, "-", "all calls", f"thread {t} did {len(res)}"))
        for i, got in res:
            if not same(serial[i], got):
                stats.mismatches.append((name, cases[i][0], serial[i], got))


def saved_and_loaded(source: str, filename: str = "threads.py"):
    """Compile source with ember, save the artifact, load it with ember.mobile."""
    import ember
    from ember import mobile

    cu = ember.CompilationUnit(source, filename=filename)
    fd, path = tempfile.mkstemp(suffix=".ember")
    os.close(fd)
    try:
        getattr(cu, cu.functions[0]).save(path)
        return mobile.load(path)
    finally:
        os.unlink(path)


def run_threads(seed: int, programs: int = 4, rounds: int = 10,
                threads: int = THREADS) -> ThreadStats:
    """The artifact seeds (scalars with raising cases, tensors) and `programs` generated
    programs, each loaded once and called from `threads` threads."""
    from ember import mobile
    from ember.fuzz.artifact_seeds import seeds
    from ember.fuzz.generator import generate

    stats = ThreadStats()
    fixed = seeds(generated=0)
    for s in fixed:
        check_program(s.name, mobile.loads(s.data), s.cases, stats, threads, rounds, seed)
    k = 0
    while stats.programs < len(fixed) + programs and k < 20 * programs:
        prog = generate(seed * 7919 + k)
        k += 1
        try:
            loaded = saved_and_loaded(prog.source)
        except Exception:  # noqa: BLE001, S112 - rejected programs are the oracle's business
            continue
        check_program(f"gen{prog.seed}", loaded, prog.cases, stats, threads, rounds, seed)
    return stats
