"""Optional values natively where a try or loop keeps a variable in a var slot: a plain
value (or None) stored into an Optional var, and a value refined to None by `is None`;
against CPython and the VM."""

from __future__ import annotations

import pytest

import ember

pytest.importorskip("llvmlite")
SRC = '''
from typing import List, Optional
def store(n: int) -> int:
    v: Optional[int] = None
    try:
        for i in range(n):
            v = i * 2 if i % 3 else None
    except ValueError:
        pass
    return -1 if v is None else v
def lists(n: int) -> List[int]:
    v: Optional[List[int]] = None
    try:
        for i in range(n):
            v = [i, i] if i % 2 else None
    except IndexError:
        pass
    return [] if v is None else v
def refined(x: Optional[int], n: int) -> int:
    k = 0
    while k < n:
        k += 1
        if x is not None:
            return x + k
        else:
            x = x
    return k
'''
CASES = {"store": [(n,) for n in range(6)], "lists": [(n,) for n in range(5)],
         "refined": [(None, 3), (4, 3), (None, 0), (7, 0)]}


def test_optional_vars_agree_with_cpython_and_the_vm():
    ns: dict = {}
    exec(compile(SRC, "<optional>", "exec"), ns)  # noqa: S102 - the test's own source
    cu, vm = ember.CompilationUnit(SRC, backend="llvm"), ember.CompilationUnit(SRC)
    for name, cases in CASES.items():
        f = getattr(cu, name)
        assert f.backend == "llvm", f.fallback_reason
        for args in cases:
            assert f(*args) == ns[name](*args) == getattr(vm, name)(*args), (name, args)
