"""finally regions natively: return, break and continue that leave a try run its finally
first, nested trys included; arguments and results compared with the VM."""

from __future__ import annotations


import pytest

import ember
from tests.unit.llvm.outcomes import outcome as _outcome

pytest.importorskip("llvmlite")
src = '''
from typing import List
def f1(xs: List[int], n: int) -> int:
    try:
        if n > 2:
            return n * 10
        xs.append(n)
    finally:
        xs.append(-1)
    return len(xs)
def f2(xs: List[int], n: int) -> List[int]:
    for i in range(n):
        try:
            if i == 3:
                break
            if i % 2 == 0:
                continue
            xs.append(i)
        finally:
            xs.append(100 + i)
    return xs
def f3(xs: List[int], n: int) -> int:
    try:
        try:
            if n == 0:
                return 1 // n
            return n
        finally:
            xs.append(7)
    except ZeroDivisionError:
        return -5
    finally:
        xs.append(8)
def f4(xs: List[int], n: int) -> int:
    i = 0
    while True:
        try:
            i += 1
            if i > n:
                return i
        finally:
            xs.append(i)
'''


def test_jumps_through_finally_agree_with_the_vm():
    cu = ember.CompilationUnit(src, backend="llvm")
    vm = ember.CompilationUnit(src)
    for name in ("f1", "f2", "f3", "f4"):
        assert getattr(cu, name).backend == "llvm", getattr(cu, name).fallback_reason
        for n in range(-1, 7):
            want, got = _outcome(getattr(vm, name), ([0], n)), _outcome(getattr(cu, name), ([0], n))
            assert repr(want) == repr(got), (name, n, want, got)


pending_src = '''
def g(n: int) -> int:
    try:
        assert n > 100, 'inner'
    except AssertionError:
        pass
    try:
        return 10 // (n - 5)
    except ZeroDivisionError:
        return -1
def h(ok: bool, n: int) -> int:
    try:
        assert ok, 'outer'
    finally:
        n = g(n) + g(5)
    raise ValueError('not this one')
'''


def test_an_exception_pending_through_finally_survives_calls_that_raise_and_catch():
    """The finally region's calls record (and catch) their own exceptions in the context;
    the one pending must come out after the region as it went in: class, message, frames."""
    cu = ember.CompilationUnit(pending_src, backend="llvm")
    vm = ember.CompilationUnit(pending_src)
    assert cu.h.backend == "llvm", cu.h.fallback_reason
    for ok in (False, True):
        want, got = _outcome(vm.h, (ok, 3)), _outcome(cu.h, (ok, 3))
        assert repr(want) == repr(got), (ok, want, got)
    notes = []
    for f in (cu.h, vm.h):
        with pytest.raises(AssertionError) as info:
            f(False, 3)
        notes.append(info.value.__notes__)
    assert notes[0] == notes[1] and "assert ok" in notes[0][0]
