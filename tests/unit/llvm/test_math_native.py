"""Native math that CPython computes itself (math.hypot's vector_norm, m_remainder,
m_log, round(x, n) through correctly rounded decimal digits): bit for bit CPython's
results on random doubles, decimal-looking values, ties and special values, and CPython's
exceptions where it raises."""

from __future__ import annotations

import math
import random
import struct

import pytest

import ember

pytest.importorskip("llvmlite")

SRC = '''
import math
from typing import List, Optional, Tuple
def rnd(xs: List[float], ns: List[int]) -> List[float]:
    return [round(xs[i], ns[i]) for i in range(len(xs))]
def hyp(xs: List[float], ys: List[float]) -> List[float]:
    return [math.hypot(xs[i], ys[i]) for i in range(len(xs))]
def fmod1(x: float, y: float) -> float:
    return math.fmod(x, y)
def rem1(x: float, y: float) -> float:
    return math.remainder(x, y)
def log1(x: float) -> float:
    return math.log(x)
def logb(x: float, b: float) -> float:
    return math.log(x, b)
def logo(x: float, b: Optional[float]) -> float:
    return math.log(x, b)
def round1(x: float, n: int) -> float:
    return round(x, n)
def parts(x: float, n: int) -> Tuple[float, float, int, int, float, int]:
    return (x.real, x.imag, n.real, n.imag, x.conjugate(), n.conjugate())
'''

SPECIALS = [0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, -1e-310, 2.2250738585072014e-308,
            1.7976931348623157e308, 8.98846567431158e307, 6.6e307, 1.0, -1.0, 0.5, 2.5,
            2.675, 0.125, -0.375, 1e22, 5e22, 15.0, 250.0, -350.0, 9.5, 0.05]


@pytest.fixture(scope="module")
def cu():
    cu = ember.CompilationUnit(SRC, backend="llvm")
    for name in ("rnd", "hyp", "fmod1", "rem1", "log1", "logb", "logo", "round1", "parts"):
        assert getattr(cu, name).backend == "llvm", getattr(cu, name).fallback_reason
    return cu


def _doubles(rng, n):
    raw = [struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0] for _ in range(n)]
    nice = [rng.randint(-10**6, 10**6) / 10 ** rng.randint(0, 8) * 10.0 ** rng.randint(-30, 30)
            for _ in range(n)]
    return raw + nice + SPECIALS


def _bits(x):
    return "nan" if x != x else struct.pack("d", x)


def _outcome(f, *args):
    try:
        r = f(*args)
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return (type(e).__name__, str(e))
    return [_bits(v) for v in r] if isinstance(r, list) else _bits(r)


def test_round_n_is_cpythons(cu):
    rng = random.Random(5)
    xs = _doubles(rng, 3000)
    ns = [rng.randint(-330, 330) if i % 3 == 0 else rng.randint(-12, 12) for i in range(len(xs))]
    assert _outcome(cu.rnd, xs, ns) == _outcome(lambda a, b: [round(x, n) for x, n in zip(a, b)],
                                                xs, ns)
    for x in SPECIALS:
        for n in range(-25, 25):
            for v in (x, -x):
                assert _outcome(cu.round1, v, n) == _outcome(round, v, n), (v, n)


def test_round_n_overflow_is_cpythons(cu):
    with pytest.raises(OverflowError, match="rounded value too large to represent"):
        cu.round1(1.7976931348623157e308, -308)


def test_hypot_is_cpythons(cu):
    rng = random.Random(6)
    xs, ys = _doubles(rng, 3000), _doubles(rng, 3000)
    rng.shuffle(ys)
    assert _outcome(cu.hyp, xs, ys) == _outcome(
        lambda a, b: [math.hypot(x, y) for x, y in zip(a, b)], xs, ys)
    tiny = [5e-324, 1e-320, 2.0 ** -1023, 2.0 ** -1024, 3e-310]
    for x in tiny:
        for y in tiny:
            assert _bits(cu.hyp([x], [y])[0]) == _bits(math.hypot(x, y)), (x, y)


@pytest.mark.parametrize("name, ref", [("fmod1", math.fmod), ("rem1", math.remainder),
                                       ("logb", math.log)])
def test_two_argument_functions_are_cpythons(cu, name, ref):
    rng = random.Random(7)
    xs = _doubles(rng, 600)
    ys = xs[::-1] + [1.0, 2.0, -3.0]
    for x, y in zip(xs, ys):
        assert _outcome(getattr(cu, name), x, y) == _outcome(ref, x, y), (x, y)


def test_log_is_cpythons(cu):
    for x in _doubles(random.Random(8), 500):
        assert _outcome(cu.log1, x) == _outcome(math.log, x), x
        assert _outcome(cu.logo, x, None) == _outcome(math.log, x), x
        assert _outcome(cu.logo, x, 10.0) == _outcome(math.log, x, 10.0), x
    with pytest.raises(ZeroDivisionError):
        cu.logb(2.0, 1.0)
    with pytest.raises(ValueError, match="math domain error"):
        cu.logo(-1.0, None)


def test_real_parts_of_real_numbers(cu):
    assert cu.parts(-0.0, 5) == (-0.0, 0.0, 5, 0, -0.0, 5)
    assert math.copysign(1, cu.parts(-0.0, 5)[0]) == -1.0
