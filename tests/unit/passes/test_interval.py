"""Interval arithmetic (passes/interval.py) against brute force: every rule is sound (it
holds every exact result) and tight (the bounds are attained), on small intervals and on
windows next to the int64 limits."""

from __future__ import annotations

import itertools
import random

import pytest

from ember.ops.int64 import INT64_MAX, INT64_MIN
from ember.passes import interval as I

SMALL = [(lo, hi) for lo in range(-6, 7) for hi in range(lo, 7)]
EDGES = [(INT64_MAX - 4, INT64_MAX), (INT64_MIN, INT64_MIN + 4), (-3, 3), (1, 4), (-4, -1),
         (3037000497, 3037000501), (-3037000501, -3037000497)]


def _hull(values):
    values = list(values)
    return (min(values), max(values)) if values else None


def _values(r):
    return range(r[0], r[1] + 1)


def _pairs(rs):
    r = random.Random(0)
    pairs = list(itertools.product(rs, rs))
    return r.sample(pairs, min(len(pairs), 400))


_BINARY = [
    (I.add, lambda x, y: x + y), (I.sub, lambda x, y: x - y), (I.mul, lambda x, y: x * y),
    (I.floordiv, lambda x, y: x // y if y else None), (I.mod, lambda x, y: x % y if y else None),
]


@pytest.mark.parametrize("fn, exact", _BINARY, ids=lambda f: getattr(f, "__name__", ""))
def test_binary_rules_are_exact_hulls(fn, exact):
    for a, b in _pairs(SMALL) + list(itertools.product(EDGES[:4], EDGES[2:5])):
        want = _hull(v for x in _values(a) for y in _values(b)
                     if (v := exact(x, y)) is not None)
        got = fn(a, b)
        if fn in (I.add, I.sub, I.mul, I.floordiv):
            assert got == want, (fn.__name__, a, b)
        else:
            assert want is None and got is None or got[0] <= want[0] and want[1] <= got[1], \
                (fn.__name__, a, b, got, want)


def test_mod_is_tight_for_constant_divisors():
    for a in SMALL:
        for c in (-5, -2, -1, 1, 2, 5):
            want = _hull(x % c for x in _values(a))
            got = I.mod(a, (c, c))
            assert got[0] <= want[0] and want[1] <= got[1], (a, c)
            if a[1] - a[0] >= abs(c) - 1:
                assert got == want, (a, c, got)
            if 0 <= a[0] and a[1] < c:  # x % c == x
                assert got[1] == want[1], (a, c, got)
            if c < a[0] and a[1] <= 0:
                assert got[0] == want[0], (a, c, got)


@pytest.mark.parametrize("fn, exact", [(I.neg, lambda x: -x), (I.absolute, abs),
                                       (I.square, lambda x: x * x)],
                         ids=["neg", "abs", "square"])
def test_unary_rules_are_exact_hulls(fn, exact):
    for a in SMALL + EDGES:
        assert fn(a) == _hull(exact(x) for x in _values(a)), a


def test_bitwise_rules_are_sound():
    for a, b in _pairs(SMALL):
        got = I.bit_and(a, b)
        want = _hull(x & y for x in _values(a) for y in _values(b))
        assert got[0] <= want[0] and want[1] <= got[1], (a, b)
        if a[0] >= 0 and b[0] >= 0 and (a[1] in _values(b) or b[1] in _values(a)):
            assert got[1] == want[1], (a, b)
        if b[0] >= 0:
            assert I.rshift(a, b) == _hull(x >> y for x in _values(a) for y in _values(b))


def _fits(v):
    return INT64_MIN <= v <= INT64_MAX


_ACCEPTS = [
    (I.add_operand, lambda x, y: x + y, False), (I.sub_minuend, lambda x, y: x - y, False),
    (I.sub_subtrahend, lambda x, y: x - y, True), (I.mul_operand, lambda x, y: x * y, False),
]


@pytest.mark.parametrize("fn, exact, second", _ACCEPTS, ids=lambda f: getattr(f, "__name__", ""))
def test_accepted_operands_are_exact(fn, exact, second):
    """The operand values for which some other operand gives a result in int64."""
    windows = EDGES + [(INT64_MAX // 3 - 2, INT64_MAX // 3 + 2), (-(1 << 62) - 2, -(1 << 62) + 2)]
    for a, b in itertools.product(windows, windows):
        if fn is I.mul_operand and b[0] < 1:
            continue
        if second:
            want = _hull(y for y in _values(b) if any(_fits(exact(x, y)) for x in _values(a)))
            got = fn(a, b)
        else:
            want = _hull(x for x in _values(a) if any(_fits(exact(x, y)) for y in _values(b)))
            got = fn(a, b)
        # No accepted value means the op always raises: the rule then keeps the operand.
        assert got == (want or (b if second else a)), (fn.__name__, a, b, got, want)


def test_widen_jumps_growing_bounds_to_the_limits():
    assert I.widen((0, 5), (0, 6)) == (0, INT64_MAX)
    assert I.widen((0, 5), (-1, 5)) == (INT64_MIN, 5)
    assert I.widen((0, 5), (1, 4)) == (0, 5)


def test_limits():
    assert I.SQRT_MAX ** 2 <= INT64_MAX < (I.SQRT_MAX + 1) ** 2
    assert I.INDEX == (-I.LEN_MAX, I.LEN_MAX - 1)
    assert I.LEN_MAX == (1 << 60) - 1
