"""Tuples indexed by a value known only at run time (`*args`, homogeneous tuples) natively,
against CPython and the VM: every index in and out of range, an empty tuple, list items
shared with the caller; and error sites whose constant operands are tuples survive the
cache's JSON."""

from __future__ import annotations


import pytest

import ember
from tests.unit.llvm.outcomes import outcome as _outcome
from ember.llvm.sites import Site

pytest.importorskip("llvmlite")
SRC = '''
from typing import Tuple, List
def at_most_two(*xs: int) -> int:
    if len(xs) > 2:
        return xs[2]
    return xs[-1] + len(xs)
def g(t: Tuple[int, int, int], i: int) -> int:
    return t[i]
def h() -> int:
    return at_most_two()
def k(n: int) -> int:
    return at_most_two(n) + at_most_two(n, 5) * 10 + at_most_two(n, 5, 6) * 100
def m(t: Tuple[List[int], List[int]], i: int) -> List[int]:
    x = t[i]
    x.append(i)
    return x
'''
CASES = {"g": [((1, 2, 3), i) for i in range(-5, 5)], "h": [()], "k": [(3,), (-7,)],
         "m": [(([1], [2]), i) for i in (-3, -2, -1, 0, 1, 2)]}


def test_runtime_tuple_indices_agree_with_cpython_and_the_vm():
    ns: dict = {}
    exec(compile(SRC, "<tuples>", "exec"), ns)  # noqa: S102 - the test's own source
    cu, vm = ember.CompilationUnit(SRC, backend="llvm"), ember.CompilationUnit(SRC)
    for name, cases in CASES.items():
        f = getattr(cu, name)
        assert f.backend == "llvm", f.fallback_reason
        for args in cases:
            want = _outcome(ns[name], args)
            assert repr(_outcome(f, args)) == repr(want) == repr(_outcome(getattr(vm, name),
                                                                          args))


def test_a_sites_tuple_constant_survives_json():
    site = Site("kernel", "f.py", 3, "f", op="tuple.getitem",
                args=(("const", ()), ("const", 0)), text="IndexError")
    assert Site.from_json(site.to_json()) == site
