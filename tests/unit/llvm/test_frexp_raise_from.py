"""math.frexp / math.ldexp natively (CPython's results, special values and the
OverflowError of a finite x that overflows included), and `raise E from None` / `from` a
constant exception: the native raise carries the same __cause__ and
__suppress_context__ as the VM's."""

from __future__ import annotations

import math
import random

import pytest

import ember

from .outcomes import outcome

pytest.importorskip("llvmlite")

SRC = '''
from typing import Tuple
import math

def fr(x: float) -> Tuple[float, int]:
    return math.frexp(x)

def ld(x: float, i: int) -> float:
    return math.ldexp(x, i)

def quiet(n: int) -> int:
    try:
        return 10 // n
    except ZeroDivisionError:
        raise RuntimeError("n must not be zero") from None

def from_class(n: int) -> int:
    if n < 0:
        raise ValueError("negative") from TypeError
    return n

def caught(n: int) -> int:
    try:
        return from_class(n)
    except ValueError:
        return -1
'''

VALUES = [0.0, -0.0, 1.0, -2.5, 1e300, -1e-300, 5e-324, 2.2250738585072014e-308, math.inf,
          -math.inf, 0.1, 123456.75]


@pytest.fixture(scope="module")
def unit():
    ns: dict = {}
    exec(compile(SRC, "fr.py", "exec"), ns)  # noqa: S102 - the CPython oracle
    return ember.CompilationUnit(SRC, "fr.py", backend="llvm"), ns


def _same(a, b):
    return repr(a) == repr(b)


def test_native(unit):
    cu, _ = unit
    for name in ("fr", "ld", "quiet", "from_class", "caught"):
        assert getattr(cu, name).backend == "llvm", getattr(cu, name).fallback_reason


def test_frexp_ldexp(unit):
    cu, ns = unit
    r = random.Random(3)
    xs = VALUES + [r.uniform(-1, 1) * 10.0 ** r.randint(-320, 308) for _ in range(3000)]
    for x in xs + [math.nan]:
        assert _same(outcome(cu.fr, (x,)), outcome(ns["fr"], (x,))), x
        for i in (0, 3, -3, r.randint(-2200, 2200), 10 ** 18, -10 ** 18, 1 << 62):
            assert _same(outcome(cu.ld, (x, i)), outcome(ns["ld"], (x, i))), (x, i)


@pytest.mark.parametrize("name, arg", [("quiet", 0), ("from_class", -1)])
def test_cause(unit, name, arg):
    cu, ns = unit
    vm = ember.CompilationUnit(SRC, "fr.py")
    seen = []
    for fn in (getattr(cu, name), getattr(vm, name), ns[name]):
        with pytest.raises(Exception) as info:
            fn(arg)
        e = info.value
        seen.append((type(e), str(e), repr(e.__cause__), e.__suppress_context__))
    assert seen[0] == seen[1] == seen[2]
    assert cu.caught(-1) == -1 and cu.caught(2) == 2
