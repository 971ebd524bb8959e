"""Native stable sorts against the VM: sorted(key=...) with closures (keys computed
first, their errors propagated), reverse, and sorting tuples."""

from __future__ import annotations

import copy
import random

import pytest

import ember

pytest.importorskip("llvmlite")
src = '''
from typing import List, Tuple
def sk(xs: List[int], r: bool) -> List[int]:
    return sorted(xs, key=lambda v: v % 5, reverse=r)
def sk2(xs: List[int], m: int) -> List[int]:
    xs.sort(key=lambda v: (v % m, -v))
    return xs
def st(ps: List[Tuple[int, int]], r: bool) -> List[Tuple[int, int]]:
    ps.sort(reverse=r)
    return sorted(ps, reverse=not r) + ps
def boom(xs: List[int]) -> List[int]:
    return sorted(xs, key=lambda v: 10 // v)
'''


def _outcome(f, args):
    try:
        return ("ok", f(*copy.deepcopy(args)))
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return ("err", type(e).__name__, str(e))


def test_sorts_agree_with_the_vm():
    cu = ember.CompilationUnit(src, backend="llvm")
    vm = ember.CompilationUnit(src)
    for name in ("sk", "sk2", "st", "boom"):
        assert getattr(cu, name).backend == "llvm", getattr(cu, name).fallback_reason
    rnd = random.Random(4)
    cases = []
    for _ in range(200):
        xs = [rnd.randint(-9, 9) for _ in range(rnd.randint(0, 30))]
        pairs = [(rnd.randint(0, 3), rnd.randint(0, 3)) for _ in range(rnd.randint(0, 12))]
        cases += [("sk", (xs, rnd.random() < 0.5)), ("sk2", (xs, rnd.randint(1, 4))),
                  ("st", (pairs, rnd.random() < 0.5)), ("boom", (xs,))]
    for name, args in cases:
        want, got = _outcome(getattr(vm, name), args), _outcome(getattr(cu, name), args)
        assert repr(want) == repr(got), (name, args, want, got)
