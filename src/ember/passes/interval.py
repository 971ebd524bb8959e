"""Integer intervals for the range analysis: closed `(lo, hi)` pairs of Python ints.

Arithmetic is exact (Python ints never wrap), so `add(a, b)` is the set of every exact
sum; whether that set fits in int64 is a separate question (`fits`). An i64 value at run
time is always within `I64`: an operation whose exact result leaves int64 raises instead
of producing a value, so a result's interval is the exact one met with `I64`.
"""

from __future__ import annotations

from math import isqrt

from ember.ops.int64 import INT64_MAX, INT64_MIN

I64 = (INT64_MIN, INT64_MAX)
"""Every i64 value."""

LEN_MAX = (1 << 60) - 1
"""An upper bound of every list, str, dict and tuple length. CPython caps a list at
PY_SSIZE_T_MAX / sizeof(PyObject *) = 2**60 - 1 items, and 2**60 characters or entries
would need more memory than any 64-bit address space holds."""

INDEX = (-LEN_MAX, LEN_MAX - 1)
"""Every index that a sequence access can accept without raising IndexError."""

SQRT_MAX = isqrt(INT64_MAX)
"""The largest x with x * x in int64."""


def const(c: int):
    return (c, c)


def fits(r) -> bool:
    """Is every value of interval r an int64?"""
    return INT64_MIN <= r[0] and r[1] <= INT64_MAX


def meet(a, b):
    """The intersection of a and b, or None if it is empty."""
    lo = a[0] if a[0] >= b[0] else b[0]
    hi = a[1] if a[1] <= b[1] else b[1]
    return (lo, hi) if lo <= hi else None


def clamp(r):
    """r met with int64 (the values an i64 result can actually take); I64 if disjoint."""
    return meet(r, I64) or I64


def hull(*rs):
    """The smallest interval holding every interval in rs."""
    if len(rs) == 2:
        a, b = rs
        return (a[0] if a[0] <= b[0] else b[0], a[1] if a[1] >= b[1] else b[1])
    return (min(r[0] for r in rs), max(r[1] for r in rs))


def widen(old, new):
    """Jump a bound that keeps growing to the int64 limit, so loop analysis terminates."""
    return (old[0] if new[0] >= old[0] else INT64_MIN,
            old[1] if new[1] <= old[1] else INT64_MAX)


def add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def sub(a, b):
    return (a[0] - b[1], a[1] - b[0])


def mul(a, b):
    ps = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    return (min(ps), max(ps))


def square(a):
    """x * x for one x in a (never negative, unlike mul(a, a))."""
    lo = 0 if a[0] <= 0 <= a[1] else min(a[0] * a[0], a[1] * a[1])
    return (lo, max(a[0] * a[0], a[1] * a[1]))


def neg(a):
    return (-a[1], -a[0])


def absolute(a):
    if a[0] >= 0:
        return a
    if a[1] <= 0:
        return neg(a)
    return (0, max(-a[0], a[1]))


def floordiv(a, b):
    """a // b over the nonzero divisors in b (None if b is only zero)."""
    parts = [p for p in (meet(b, (b[0], -1)), meet(b, (1, b[1]))) if p is not None]
    if not parts:
        return None
    qs = [x // y for p in parts for x in a for y in p]
    return (min(qs), max(qs))


def mod(a, b):
    """a % b over the nonzero divisors in b (None if b is only zero); the result has the
    divisor's sign (Python's rule)."""
    if b == (0, 0):
        return None
    if b[0] > 0:
        if a[0] >= 0:
            return (0, min(a[1], b[1] - 1))
        return (0, b[1] - 1)
    if b[1] < 0:
        if a[1] <= 0:
            return (max(a[0], b[0] + 1), 0)
        return (b[0] + 1, 0)
    m = max(-b[0], b[1]) - 1
    return (-m, m)


def bit_and(a, b):
    """a & b: bounded by a nonnegative operand."""
    his = [r[1] for r in (a, b) if r[0] >= 0]
    return (0, min(his)) if his else I64


def rshift(a, b):
    """a >> b for a nonnegative shift count (I64 otherwise)."""
    if b[0] < 0:
        return I64
    ends = [a[0] >> b[0], a[0] >> b[1], a[1] >> b[0], a[1] >> b[1]]
    return (min(ends), max(ends))


def add_operand(a, b):
    """The values of a for which a + y fits in int64 for some y in b."""
    return meet(a, (INT64_MIN - b[1], INT64_MAX - b[0])) or a


def sub_minuend(a, b):
    """The values of a for which a - y fits in int64 for some y in b."""
    return meet(a, (INT64_MIN + b[0], INT64_MAX + b[1])) or a


def sub_subtrahend(a, b):
    """The values of b for which x - b fits in int64 for some x in a."""
    return meet(b, (a[0] - INT64_MAX, a[1] - INT64_MIN)) or b


def mul_operand(a, b):
    """The values of a for which a * y fits in int64 for some y in b, when b >= 1."""
    if b[0] < 1:
        return a
    return meet(a, (-((1 << 63) // b[0]), INT64_MAX // b[0])) or a
