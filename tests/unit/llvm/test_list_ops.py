"""Native list operators and comparisons against the VM on random inputs: del of slices,
in-place repetition, ordering, tuple membership, round(int, n), range with a zero step."""

from __future__ import annotations

import copy
import random

import pytest

import ember

pytest.importorskip("llvmlite")
src = '''
from typing import List, Tuple
def ds(xs: List[int], a: int, b: int, c: int) -> List[int]:
    del xs[a:b:c]
    return xs
def ds2(xs: List[List[int]], a: int, b: int) -> List[List[int]]:
    del xs[a:b]
    return xs
def im(xs: List[int], n: int) -> List[int]:
    xs *= n
    return xs
def im2(xs: List[List[int]], n: int) -> int:
    xs *= n
    return len(xs)
def lt(a: List[int], b: List[int]) -> List[bool]:
    return [a < b, a <= b, a > b, a >= b, (1, a[0]) < (1, b[0]) if a and b else False]
def cont(a: int) -> bool:
    return a in (1, 5, 9)
def rn(x: int, n: int) -> int:
    return round(x, n)
def stepz(n: int) -> int:
    s = 0
    for i in range(0, n, 0):
        s += i
    return s
'''


def _outcome(f, args):
    try:
        return ("ok", f(*copy.deepcopy(args)))
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return ("err", type(e).__name__, str(e))


def test_list_operators_agree_with_the_vm():
    cu = ember.CompilationUnit(src, backend="llvm")
    vm = ember.CompilationUnit(src)
    for name in ("ds", "ds2", "im", "im2", "lt", "cont", "rn", "stepz"):
        assert getattr(cu, name).backend == "llvm", getattr(cu, name).fallback_reason
    rnd = random.Random(2)
    cases = [("stepz", (5,))]
    for _ in range(400):
        xs = [rnd.randint(-5, 5) for _ in range(rnd.randint(0, 9))]
        ys = [rnd.randint(-2, 2) for _ in range(rnd.randint(0, 4))]
        zs = [rnd.randint(-2, 2) for _ in range(rnd.randint(0, 4))]
        cases += [("ds", (xs, rnd.randint(-12, 12), rnd.randint(-12, 12),
                          rnd.choice([1, 2, 3, -1, -2, -3, 0]))),
                  ("ds2", ([[i] for i in xs], rnd.randint(-12, 12), rnd.randint(-12, 12))),
                  ("im", (xs, rnd.randint(-2, 4))), ("im2", ([[i] for i in xs], rnd.randint(-2, 4))),
                  ("lt", (ys, zs)), ("cont", (rnd.randint(0, 10),)),
                  ("rn", (rnd.choice([rnd.randint(-2**63, 2**63 - 1), rnd.randint(-1000, 1000),
                                      5 * 10**18, -5 * 10**18 - 1, 15, 25, -25]),
                          rnd.randint(-21, 3)))]
    for name, args in cases:
        want, got = _outcome(getattr(vm, name), args), _outcome(getattr(cu, name), args)
        assert repr(want) == repr(got), (name, args, want, got)
