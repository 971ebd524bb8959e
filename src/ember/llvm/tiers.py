"""Two tiers of native code: quick code now, optimized code from a background thread.

LLVM's O3 pipeline and code generator cost 10–100 ms on a small module — most of a native
compile. On a cache miss, NativeModule compiles the module's IR twice:

- the **quick tier**, at once: SROA, instcombine and simplifycfg, then LLVM's O0 code
  generator (fast instruction selection, fast register allocation) — a tenth to a third
  of the time, code 1.3–8× slower than O3's, the same results bit for bit (the same IR;
  neither tier uses fast-math);
- the **optimized tier**, here: O3, on one worker thread (LLVM releases the GIL), stored in
  the object cache and then installed in every entry the module has handed out
  (`NativeModule._install`), so calls already under way finish on the quick code and the
  next ones run the optimized code. A process that exits first waits for the worker (it
  is not a daemon), so the cache always ends up holding the optimized object; a cache hit
  loads it and never sees the quick tier.

The quick code serves a module's first QUICK_CALLS calls; the next call waits for the
optimized code (a `Gate`): code that is called again is hot, and finishing its O3 compile
costs less than running it slowly. A quick entry's builtin is gated (pyentry.gate: every
call takes the counting path) until the tier-up opens it. A call still running in quick
code when the optimized code is installed leaves at its next loop head or recursive entry
(codegen.poll_tierup) and runs again on the optimized code. So a first call comes 2–4×
sooner than with O3 alone, and no call spends longer in slow code than the O3 compile
takes.

`EMBER_LLVM_TIER` chooses: unset or `auto` (the above), `opt` (compile O3 at once, as
before tiers existed), `quick` (quick code only, never replaced: for testing it).
`wait()` blocks until every optimized compile submitted so far is installed.
"""

from __future__ import annotations

import collections
import os
import sys
import threading

_LOCK = threading.Condition()
_QUEUE: collections.deque = collections.deque()
_STATE = {"worker": None, "busy": 0, "running": None}
QUICK_CALLS = 2
"""Calls a module's quick code runs before the next call waits for its optimized code."""


class Job:
    """One optimized compile: `run()` on the worker; `done` is set when it has ended
    (installed, failed, or dropped in a forked child)."""

    def __init__(self, fn):
        self.fn, self.done = fn, threading.Event()

    def run(self) -> None:
        try:
            self.fn()
        except Exception:  # (a failed optimized compile leaves the quick code in place)
            pass
        finally:
            self.done.set()


class Gate:
    """The quick tier's call counter, shared by a module's entries: past QUICK_CALLS
    calls, a call waits for the optimized code (it is hot: the rest of the O3 compile
    costs less than running slow code), so quick code only ever serves a module's first
    calls, and a single long call."""

    def __init__(self, job: Job):
        self.job, self.calls = job, 0

    def tick(self) -> None:
        self.calls += 1
        if self.calls > QUICK_CALLS and not self.job.done.is_set():
            _first(self.job)
            self.job.done.wait()


def _first(job: Job) -> None:
    """A job someone waits for goes to the head of the queue (a process that made many
    modules does not wait for all the others' compiles)."""
    with _LOCK:
        try:
            _QUEUE.remove(job)
        except ValueError:  # (running or done)
            return
        _QUEUE.appendleft(job)


QUICK_DEPTH = 10_000
"""Past this recursion limit, recursive code is compiled O3 at once: the quick tier's
frames are about four times larger (O0 keeps every value in its stack slot), so a deep
recursion the limit allows could outgrow the thread's stack in quick code."""


def quick_fits(plan) -> bool:
    """Whether `plan` may start as quick code (see QUICK_DEPTH)."""
    return not plan.recursive or sys.getrecursionlimit() <= QUICK_DEPTH


def mode() -> str:
    """"auto", "opt" or "quick" (EMBER_LLVM_TIER; anything else is "auto")."""
    m = os.environ.get("EMBER_LLVM_TIER", "auto").strip().lower()
    return m if m in ("opt", "quick") else "auto"


def submit(fn) -> Job:
    """Run `fn()` (it compiles and installs optimized code) on the worker thread — or
    here, at once, where no thread can be started (a resource limit)."""
    job = Job(fn)
    with _LOCK:
        _QUEUE.append(job)
        _STATE["busy"] += 1
        worker = None
        if _STATE["worker"] is None:
            worker = _STATE["worker"] = threading.Thread(target=_work, name="ember-llvm-opt",
                                                         daemon=False)
    if worker is not None:
        try:
            worker.start()
        except RuntimeError:
            with _LOCK:
                _STATE["worker"] = None
            _work()
    return job


def _work() -> None:
    while True:
        with _LOCK:
            if not _QUEUE:
                _STATE["worker"] = None
                _LOCK.notify_all()
                return
            job = _STATE["running"] = _QUEUE.popleft()
        try:
            job.run()
        finally:
            with _LOCK:
                _STATE["busy"] -= 1
                _STATE["running"] = None
                _LOCK.notify_all()


def pending() -> int:
    """Optimized compiles submitted and not yet installed."""
    with _LOCK:
        return _STATE["busy"]


def wait(timeout: float | None = None) -> bool:
    """Block until every optimized compile submitted so far is installed (False: the
    timeout passed first)."""
    with _LOCK:
        return _LOCK.wait_for(lambda: _STATE["busy"] == 0, timeout)


def _after_fork_in_child() -> None:
    """A forked child has no worker: what was queued or running stays quick there (its
    gates open at once)."""
    global _LOCK
    _LOCK = threading.Condition()
    jobs = list(_QUEUE) + ([_STATE["running"]] if _STATE["running"] else [])
    _QUEUE.clear()
    _STATE.update(worker=None, busy=0, running=None)
    for job in jobs:
        job.done.set()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
