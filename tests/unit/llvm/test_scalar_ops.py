"""Native scalar operators against the VM on edge values: int / int past 2**53, divmod,
int-float comparisons, round, reversed ranges, list and tuple equality."""

from __future__ import annotations

import random

import pytest

import ember

pytest.importorskip("llvmlite")
src = '''
from typing import Tuple, List
def td(a: int, b: int) -> float:
    return a / b
def dm(a: int, b: int) -> Tuple[int, int]:
    return divmod(a, b)
def fdm(a: float, b: float) -> Tuple[float, float]:
    return divmod(a, b)
def lt(a: int, b: float) -> List[bool]:
    return [a < b, a <= b, a == b, a != b, a > b, a >= b, b < a, b == a, b >= a]
def rnd(x: float) -> int:
    return round(x)
def eqs(a: List[int], b: List[int]) -> bool:
    return a == b and (1, a[0]) == (1, b[0])
def rl(a: int, b: int, c: int) -> List[int]:
    out: List[int] = []
    for i in reversed(range(a, b, c)):
        out.append(i)
    return out
'''


def _outcome(f, args):
    try:
        return ("ok", f(*args))
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return ("err", type(e).__name__, str(e))


def test_edge_values_agree_with_the_vm():
    cu = ember.CompilationUnit(src, backend="llvm")
    vm = ember.CompilationUnit(src)
    for name in ("td", "dm", "fdm", "lt", "rnd", "eqs", "rl"):
        assert getattr(cu, name).backend == "llvm", getattr(cu, name).fallback_reason
    rnd = random.Random(1)
    ints = [0, 1, -1, 2, 3, -7, 2**53, 2**53 + 1, -(2**53) - 1, 2**62, 2**63 - 1, -2**63,
            10**18, -10**18 + 7, 3 * 2**60 + 12345]
    floats = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, 9.3e18, -9.3e18, 9.2233720368547758e18,
              float("nan"), float("inf"), -float("inf"), 1e300]
    cases = []
    for _ in range(600):
        a = rnd.choice(ints + [rnd.randint(-2**63, 2**63 - 1), rnd.randint(-1000, 1000)])
        b = rnd.choice(ints + [rnd.randint(-2**63, 2**63 - 1), rnd.randint(-1000, 1000)])
        f = rnd.choice(floats + [float(a), float(a) + 0.5, rnd.uniform(-1e19, 1e19)])
        cases += [("td", (a, b)), ("dm", (a, b)), ("lt", (a, f)), ("rnd", (f,)),
                  ("fdm", (f, rnd.choice([0.0, 1.5, -2.0, float("inf"), f, 3.0]))),
                  ("rl", (rnd.randint(-20, 20), rnd.randint(-20, 20),
                          rnd.choice([1, 2, 3, -1, -2, -5, 0])))]
    cases += [("eqs", ([1, 2], [1, 2])), ("eqs", ([1, 2], [1, 3])), ("eqs", ([1], [1, 2]))]
    for name, args in cases:
        want = _outcome(getattr(vm, name), args)
        got = _outcome(getattr(cu, name), args)
        assert repr(want) == repr(got), (name, args, want, got)
