"""Limits for runaway cases: a watchdog (SIGALRM raises Timeout in the main thread)
and an address-space cap (allocations past it raise MemoryError).

Generated programs terminate by construction and corrupt artifacts must load in
bounded time; the watchdog turns a violation (a hang) into a reported failure
instead of a stuck run. Outside the main thread, or where SIGALRM does not exist,
it does nothing. Timeout derives from BaseException so that `except Exception`
in the code under test cannot swallow it.
"""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager


class Timeout(BaseException):
    """The watched code ran past its time limit."""


def _available() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def watchdog(seconds: float):
    """Raise Timeout in the body if it runs longer than `seconds` (nestable: the inner
    limit wins while it is active, and the outer one is restored after)."""
    if not _available() or seconds <= 0:
        yield
        return

    def fire(signum, frame):
        raise Timeout(f"timed out after {seconds} s")

    old_handler = signal.signal(signal.SIGALRM, fire)
    old_delay, _ = signal.getitimer(signal.ITIMER_REAL)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        if old_delay:
            signal.setitimer(signal.ITIMER_REAL, old_delay)


def _address_space() -> int | None:
    """This process's current virtual size in bytes (Linux), else None."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@contextmanager
def memory_cap(extra: int):
    """Let the body grow the address space by at most `extra` bytes (RLIMIT_AS): a
    runaway allocation raises MemoryError instead of exhausting the machine. Does
    nothing where the limit or /proc is unavailable."""
    try:
        import resource
    except ImportError:
        yield
        return
    current = _address_space()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if current is None:
        yield
        return
    limit = current + extra
    for bound in (soft, hard):
        if bound != resource.RLIM_INFINITY:
            limit = min(limit, bound)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
