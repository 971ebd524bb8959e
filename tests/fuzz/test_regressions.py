"""Shrunk reproducers of the bugs the fuzzers found. Each program in regressions/ (the
corpus format: functions, then CASES) must give the same results under CPython, under
ember in process and from its saved artifact."""

from __future__ import annotations

from pathlib import Path

import pytest

from ember.fuzz import oracle

REGRESSIONS = sorted(p for p in (Path(__file__).parent / "regressions").glob("*.py")
                     if not p.name.startswith(("test_", "__")))


def _cases(path: Path):
    ns: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)  # noqa: S102 - checked-in test
    return ns["CASES"]


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.stem for p in REGRESSIONS])
def test_regression_program_agrees(path):
    verdict = oracle.check(path.read_text(), _cases(path), filename=path.name)
    assert verdict.status == "agree", verdict.detail
