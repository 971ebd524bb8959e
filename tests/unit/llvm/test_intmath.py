"""Integer math natively (llvm/ops_intmath.py): math.gcd, lcm, factorial, isqrt, comb,
perm, prod of ints and pow(base, exp, mod) equal CPython's on random and edge values, and
raise the kernel's ValueError / OverflowError (ember's int64) where it does."""

from __future__ import annotations

import random

import pytest

import ember

from .outcomes import outcome

pytest.importorskip("llvmlite")

SRC = '''
from typing import List
import math

def gcd(a: int, b: int) -> int:
    return math.gcd(a, b)

def lcm(a: int, b: int) -> int:
    return math.lcm(a, b)

def factorial(n: int) -> int:
    return math.factorial(n)

def isqrt(n: int) -> int:
    return math.isqrt(n)

def comb(n: int, k: int) -> int:
    return math.comb(n, k)

def perm(n: int, k: int) -> int:
    return math.perm(n, k)

def prod(xs: List[int]) -> int:
    return math.prod(xs)

def pow_mod(b: int, e: int, m: int) -> int:
    return pow(b, e, m)
'''

MIN, MAX = -(1 << 63), (1 << 63) - 1
EDGES = [0, 1, -1, 2, -2, 3, 7, 12, 20, 21, 62, 63, 64, 66, 67, 1000, 10 ** 9 + 7,
         (1 << 32) - 1, 1 << 32, (1 << 62) + 1, MAX, MIN, MIN + 1, 3037000499, 3037000500]


@pytest.fixture(scope="module")
def unit():
    ns: dict = {}
    exec(compile(SRC, "im.py", "exec"), ns)  # noqa: S102 - the CPython oracle
    return ember.CompilationUnit(SRC, "im.py", backend="llvm"), ns


def _kernel_outcome(ns, name, args):
    """CPython's result where it fits int64, else the kernel's OverflowError."""
    got = outcome(ns[name], args)
    if got[0] == "ok" and isinstance(got[1], int) and not MIN <= got[1] <= MAX:
        return ("err", "OverflowError")
    return got[:3] if got[0] == "err" else got


def _same(cu, ns, name, args):
    got = outcome(getattr(cu, name), args)
    want = _kernel_outcome(ns, name, args)
    if want == ("err", "OverflowError"):
        return got[:2] == want
    return got[:3] == want[:3] if got[0] == "err" else got == want


def test_native(unit):
    cu, _ = unit
    for name in ("gcd", "lcm", "factorial", "isqrt", "comb", "perm", "prod", "pow_mod"):
        assert getattr(cu, name).backend == "llvm", getattr(cu, name).fallback_reason


def test_random(unit):
    cu, ns = unit
    r = random.Random(11)

    def val():
        return r.choice([r.choice(EDGES), r.randint(-100, 100), r.randint(MIN, MAX),
                         r.randint(0, 70), r.randint(-(1 << 31), 1 << 31)])
    for _ in range(3000):
        a, b = val(), val()
        for name, args in (("gcd", (a, b)), ("lcm", (a, b)), ("factorial", (r.randint(-2, 25),)),
                           ("isqrt", (a,)), ("comb", (r.choice([a, r.randint(0, 70)]),
                                                       r.choice([r.randint(-2, 70), r.randint(-2, 70) - 70 * (b < 0)]))),
                           ("perm", (r.choice([a, r.randint(0, 30)]), r.randint(-1, 25))),
                           ("prod", ([val() for _ in range(r.randint(0, 4))],)),
                           ("prod", ([r.randint(-9, 9) for _ in range(r.randint(0, 25))],)),
                           ("pow_mod", (a, r.choice([r.randint(0, 200), r.randint(0, MAX)]),
                                        r.choice([b, r.randint(1, 50), -r.randint(1, 50)])))):
            assert _same(cu, ns, name, args), (name, args, outcome(getattr(cu, name), args),
                                               outcome(ns[name], args))


def test_isqrt_squares(unit):
    cu, _ = unit
    for k in (1 << 31, 3037000499, 4 * 10 ** 9):
        for n in (k * k - 1, k * k, k * k + 1):
            if n <= MAX:
                assert cu.isqrt(n) == __import__("math").isqrt(n)


def test_negative_exponent_leaves_for_the_vm(unit):
    cu, _ = unit
    assert cu.pow_mod(3, -1, 7) == pow(3, -1, 7)
    assert outcome(cu.pow_mod, (2, -1, 4))[:2] == ("err", "ValueError")
