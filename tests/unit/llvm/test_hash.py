"""hash() natively: CPython's value for ints (modulo 2**61 - 1), floats (_Py_HashDouble),
bools and tuples of them (xxHash-style), on 20,000 random values; a list is unhashable
(the kernel's TypeError); a NaN's hash (its identity) is the VM's."""

from __future__ import annotations

import math
import random

import pytest

import ember

from .outcomes import outcome

pytest.importorskip("llvmlite")

SRC = '''
from typing import List, Tuple

def h(x: int, y: float, b: bool) -> List[int]:
    return [hash(x), hash(y), hash(b), hash((x, y)), hash((x, (b, y))), hash(())]

def unhashable(xs: List[int]) -> int:
    return hash(xs)

def nan_hash(y: float) -> bool:
    return hash(y) == hash(y)
'''

SPECIAL = [0.0, -0.0, 1.5, -2.5, 1e300, 5e-324, math.inf, -math.inf, 2.0 ** 61, 2.0 ** 62,
           -1.0, 0.1, 1.23456789e15, 2.0 ** 61 - 2.0 ** 9]
INTS = [0, -1, -2, 2 ** 61 - 1, 2 ** 61, -2 ** 63, 2 ** 63 - 1, 2 ** 62]


@pytest.fixture(scope="module")
def unit():
    cu = ember.CompilationUnit(SRC, "hash.py", backend="llvm")
    ns: dict = {}
    exec(compile(SRC, "hash.py", "exec"), ns)  # noqa: S102 - the CPython oracle
    return cu, ns


def test_native(unit):
    cu, _ = unit
    assert all(getattr(cu, f).backend == "llvm" for f in ("h", "unhashable", "nan_hash"))


def test_random_values(unit):
    cu, ns = unit
    r = random.Random(5)
    for _ in range(20000):
        x = r.choice(INTS + [r.randint(-2 ** 63, 2 ** 63 - 1), r.randint(-99, 99)])
        y = r.choice(SPECIAL + [r.uniform(-1e6, 1e6), r.random() * 10.0 ** r.randint(-320, 300),
                                float(r.randint(-2 ** 60, 2 ** 60))])
        b = r.random() < 0.5
        assert cu.h(x, y, b) == ns["h"](x, y, b), (x, y, b)


def test_unhashable_and_nan(unit):
    cu, ns = unit
    assert outcome(cu.unhashable, ([1],)) == outcome(ns["unhashable"], ([1],))
    assert cu.nan_hash(math.nan) is True
