"""Floats in containers natively: sorts (stable, so -0.0 and 0.0 keep their order, as in
timsort), membership, index, count, remove and equality. A NaN — whose place in a sort
depends on timsort's exact comparisons, and whose identity CPython's containers consult
— makes the call leave for the VM (a deopt): results are CPython's either way."""

from __future__ import annotations

import math
import random

import pytest

import ember

pytest.importorskip("llvmlite")

SRC = '''
from typing import List, Tuple
def srt(xs: List[float], rev: bool) -> List[float]:
    ys = sorted(xs, reverse=rev)
    xs.sort()
    xs.append(1.5)
    return ys
def keyed(xs: List[float]) -> List[float]:
    return sorted(xs, key=lambda v: -v)
def pairs(xs: List[Tuple[float, int]]) -> List[Tuple[float, int]]:
    return sorted(xs)
def members(xs: List[float], x: float) -> Tuple[bool, int, int, bool]:
    i = xs.index(x) if x in xs else -1
    ys = list(xs)
    if x in ys:
        ys.remove(x)
    return (x in xs, i, xs.count(x), ys == xs)
def same(xs: List[float], ys: List[float]) -> bool:
    return xs == ys
'''


@pytest.fixture(scope="module")
def cus():
    return ember.CompilationUnit(SRC, backend="llvm"), ember.CompilationUnit(SRC)


def _bits(v):
    if isinstance(v, float):
        return ("nan",) if v != v else (v, math.copysign(1.0, v))
    if isinstance(v, (list, tuple)):
        return type(v)(_bits(x) for x in v)
    return v


def _outcome(f, *a):
    try:
        return ("ok", _bits(f(*a)), _bits(a))
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return (type(e).__name__, str(e))


def test_they_compile_natively(cus):
    native, _ = cus
    for name in ("srt", "keyed", "pairs", "members", "same"):
        assert getattr(native, name).backend == "llvm", getattr(native, name).fallback_reason


def _lists(rng):
    pool = [0.0, -0.0, 1.0, -1.0, 2.5, 1e300, -math.inf, math.inf, 3.0, 3.0]
    for n in range(40):
        xs = [rng.choice(pool) for _ in range(rng.randint(0, 9))]
        if n % 4 == 0:
            xs.append(math.nan)
            rng.shuffle(xs)
        yield xs


def test_sorts_are_cpythons(cus):
    native, vm = cus
    rng = random.Random(3)
    for xs in _lists(rng):
        for rev in (False, True):
            for name, args in (("srt", (rev,)), ("keyed", ()), ("pairs", ())):
                a = [(x, i % 3) for i, x in enumerate(xs)] if name == "pairs" else xs
                want = _outcome(getattr(vm, name), list(a), *args)
                assert _outcome(getattr(native, name), list(a), *args) == want, (name, a)


def test_membership_and_equality_are_cpythons(cus):
    native, vm = cus
    nan = math.nan
    rng = random.Random(4)
    for xs in _lists(rng):
        for x in [0.0, -0.0, 3.0, 7.0, math.inf, nan] + xs[:2]:
            assert _outcome(native.members, list(xs), x) == _outcome(vm.members, list(xs), x)
        assert native.same(xs, list(xs)) == (xs == list(xs))
    # the same NaN object: equal to itself in a container (identity), as in CPython
    xs = [1.0, nan]
    assert native.members(xs, nan) == (True, 1, 1, False) == vm.members(xs, nan)
    assert native.same(xs, xs) is True and native.same([nan], [float("nan")]) is False


def test_a_deopt_leaves_the_arguments_as_they_came(cus):
    native, _ = cus
    xs = [2.0, math.nan, 1.0]
    out = native.srt(xs, False)
    assert _bits(xs) == _bits(sorted([2.0, math.nan, 1.0]) + [1.5])  # the VM's run, once
    assert len(out) == 3


def test_only_a_nan_leaves_native_code(cus, monkeypatch):
    from ember.llvm import boundary

    native, _ = cus
    seen = []
    real = boundary.NativeFunction._deopt

    def counting(self, ctx):
        hit = real(self, ctx)
        seen.append(hit)
        return hit
    monkeypatch.setattr(boundary.NativeFunction, "_deopt", counting)
    native.srt([2.0, -0.0, 0.0, 1.0], True)
    native.members([2.0, 1.0], 1.0)
    assert seen == []
    native.srt([2.0, math.nan], False)
    native.members([2.0, 1.0], math.nan)
    assert seen == [True, True]


FINALLY = '''
from typing import List
def count_sorted(xs: List[float]) -> int:
    n = -1
    try:
        ys = sorted(xs)
        n = len(ys)
    finally:
        return n
def loop_sorted(xs: List[float]) -> int:
    total = 0
    for k in range(3):
        try:
            total += len(sorted(xs)) + k
        finally:
            if k == 1:
                break
    return total
'''


def test_a_deopt_is_not_ended_by_a_finally_region():
    """CPython sorts, then returns len from the finally: a deopt at the sort must reach
    the VM even though the finally region returns (or breaks)."""
    native = ember.CompilationUnit(FINALLY, backend="llvm")
    for name in ("count_sorted", "loop_sorted"):
        f = getattr(native, name)
        assert f.backend == "llvm", f.fallback_reason
        for xs in ([2.0, 1.0], [math.nan, 1.0, 3.0]):
            want = {"count_sorted": len(xs), "loop_sorted": 2 * len(xs) + 1}[name]
            assert f(list(xs)) == want, (name, xs)
