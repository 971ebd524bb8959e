"""Slice assignment and starred unpacking natively: random lists, bounds and steps against
CPython (results, argument lists after the call, exception type and message), aliasing
(`xs[a:b] = xs`), list-holding elements, and no leaks."""

from __future__ import annotations

import os
import random

import pytest

import ember
from tests.unit.llvm.outcomes import outcome as _outcome

pytest.importorskip("llvmlite")
SRC = '''
from typing import List, Optional
def f(xs: List[int], ys: List[int], a: Optional[int], b: Optional[int], c: Optional[int]) -> List[int]:
    xs[a:b:c] = ys
    return xs
def same(xs: List[List[int]], a: Optional[int], b: Optional[int], c: Optional[int]) -> List[List[int]]:
    xs[a:b:c] = xs
    return xs
def nested(xs: List[List[int]], ys: List[List[int]], a: Optional[int], b: Optional[int], c: Optional[int]) -> int:
    xs[a:b:c] = ys
    ys.append([7])
    ys[0].append(8) if len(ys) > 1 else None
    return len(xs) * 100 + sum([len(x) for x in xs])
def star(xs: List[int]) -> int:
    a, *rest, b = xs
    return a + len(rest) * 10 + b
def floats(xs: List[float]) -> List[float]:
    xs[1:] = xs[:1]
    xs[::-1] = xs
    return xs
'''
NAMES = ("f", "same", "nested", "star", "floats")


@pytest.fixture(scope="module")
def units():
    ns: dict = {}
    exec(compile(SRC, "<setslice>", "exec"), ns)  # noqa: S102 - the test's own source
    return ns, ember.CompilationUnit(SRC, backend="llvm")


def test_every_function_is_native(units):
    _, cu = units
    for name in NAMES:
        assert getattr(cu, name).backend == "llvm", getattr(cu, name).fallback_reason


def test_slice_assignment_agrees_with_cpython(units):
    py, cu = units
    rnd = random.Random(7)
    bounds = [None, 0, 1, 2, -1, -3, 5, 9, -9]
    for _ in range(800):
        xs = [rnd.randrange(100) for _ in range(rnd.randrange(7))]
        ys = [rnd.randrange(100) for _ in range(rnd.randrange(5))]
        a, b = rnd.choice(bounds), rnd.choice(bounds)
        c = rnd.choice([None, 1, 2, -1, -2, 3, 0])
        for name, args in (("f", (xs, ys, a, b, c)), ("same", ([[x] for x in xs], a, b, c)),
                           ("nested", ([[x] for x in xs], [[y, y] for y in ys], a, b, c))):
            want, got = _outcome(py[name], args), _outcome(getattr(cu, name), args)
            assert repr(want) == repr(got), (name, args, want, got)


def test_starred_unpacking_and_float_lists(units):
    py, cu = units
    for xs in ([], [1], [1, 2], [1, 2, 3, 4]):
        assert repr(_outcome(py["star"], (xs,))) == repr(_outcome(cu.star, (xs,)))
    for xs in ([], [1.5], [1.5, 2.5, float("inf")]):
        assert repr(_outcome(py["floats"], (xs,))) == repr(_outcome(cu.floats, (xs,)))


def _rss_kb() -> int:
    with open(f"/proc/{os.getpid()}/status") as fh:
        return next(int(ln.split()[1]) for ln in fh if ln.startswith("VmRSS"))


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
def test_no_leaks(units):
    _, cu = units
    def calls():
        def fresh():
            return [[i] * 200 for i in range(40)]
        cu.same(fresh(), 1, 30, None)
        cu.same(fresh(), None, None, -1)
        cu.nested(fresh(), fresh()[:20], None, None, -2)
        cu.nested(fresh(), fresh()[:3], 2, 9, None)
        with pytest.raises(ValueError):
            cu.nested(fresh(), fresh()[:3], None, None, 2)
    for _ in range(100):
        calls()
    before = _rss_kb()
    for _ in range(600):  # a leaked copy would keep 40 x 1.6 KB per call
        calls()
    assert _rss_kb() - before < 20_000
