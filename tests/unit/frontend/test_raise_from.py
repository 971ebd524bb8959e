"""`raise E from C`: the cause may be None, an exception class, a caught exception or a
constructed exception (`from TypeError("why")`, which Python allows and TorchScript did
not); __cause__ and __suppress_context__ are CPython's, in process and after save ->
load."""

from __future__ import annotations

import pytest

import ember
import ember.mobile

SRC = '''
def f(n: int) -> int:
    if n < 0:
        raise ValueError("negative") from TypeError("why")
    if n == 0:
        raise KeyError(n) from KeyError("inner")
    if n == 1:
        raise RuntimeError("one") from None
    if n == 2:
        raise RuntimeError("two") from IndexError
    try:
        return 10 // (n - 3)
    except ZeroDivisionError as e:
        raise ValueError("three") from e
'''


def _raised(fn, n):
    try:
        return ("ok", fn(n))
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        c = e.__cause__
        return (type(e).__name__, str(e), type(c).__name__, str(c), e.__suppress_context__)


@pytest.mark.parametrize("n", [-1, 0, 1, 2, 3, 4])
def test_causes(tmp_path, n):
    ns: dict = {}
    exec(compile(SRC, "rf.py", "exec"), ns)  # noqa: S102 - the CPython oracle
    cu = ember.CompilationUnit(SRC, "rf.py")
    path = tmp_path / "rf.ember"
    cu.f.save(path)
    loaded = ember.mobile.load(path)
    want = _raised(ns["f"], n)
    assert _raised(cu.f, n) == want
    assert _raised(loaded, n) == want
