"""Threads in CI: loaded artifacts called from eight threads at once give the serial
results (values and raised exceptions), and the checker notices when they do not."""

from __future__ import annotations

import itertools
import threading

from ember.fuzz.threads import ThreadStats, check_program, run_threads


def test_loaded_artifacts_agree_across_threads():
    stats = run_threads(1, programs=4, rounds=10)
    assert stats.programs >= 6
    assert stats.calls >= 6 * 8 * 10
    assert not stats.mismatches, stats.mismatches[:5]


class _Racy:
    """A fake loaded module whose entry answers differently off the main thread."""

    def __init__(self):
        self.counter = itertools.count()

    def f(self, x):
        if threading.current_thread() is not threading.main_thread():
            raise ValueError("thread")
        return x


def test_checker_reports_thread_dependent_results():
    stats = ThreadStats()
    check_program("racy", _Racy(), [("f", (1,))], stats, threads=4, rounds=2)
    assert stats.calls == 8 and len(stats.mismatches) == 8
