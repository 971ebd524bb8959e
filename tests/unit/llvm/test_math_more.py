"""float.is_integer, math.modf and torch._check natively: bit for bit CPython's on random
doubles and the specials (signed zeros, infinities, NaN), and the VM's errors."""

from __future__ import annotations

import math
import random
import struct

import pytest

import ember

pytest.importorskip("llvmlite")
SRC = '''
from typing import Tuple
import math
import torch
def isint(x: float) -> bool:
    return x.is_integer()
def mf(x: float) -> Tuple[float, float]:
    return math.modf(x)
def chk(x: int) -> int:
    torch._check(x > 0, "x must be positive")
    torch._check(x < 100)
    return x * 2
'''
SPECIALS = [0.0, -0.0, 1.0, -3.0, 2.5, -2.5, math.inf, -math.inf, math.nan, 1e300, -1e-300,
            4503599627370497.0, 0.1, 2.0 ** 52 + 0.5, -(2.0 ** 53)]


def _bits(v):
    return tuple(struct.pack("<d", t) if t == t else b"nan" for t in v) if isinstance(v, tuple) \
        else v


@pytest.fixture(scope="module")
def cu():
    unit = ember.CompilationUnit(SRC, backend="llvm")
    for name in ("isint", "mf", "chk"):
        assert getattr(unit, name).backend == "llvm", getattr(unit, name).fallback_reason
    return unit


def test_is_integer_and_modf_are_cpythons(cu):
    rnd = random.Random(5)
    values = SPECIALS + [struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0]
                         for _ in range(5000)]
    for v in values:
        assert cu.isint(v) is v.is_integer(), v
        assert _bits(cu.mf(v)) == _bits(math.modf(v)), v


def test_torch_check_raises_the_vms_runtime_error(cu):
    vm = ember.CompilationUnit(SRC)
    assert cu.chk(5) == 10
    for x in (-1, 0, 100, 150):
        with pytest.raises(RuntimeError) as native:
            cu.chk(x)
        with pytest.raises(RuntimeError) as interpreted:
            vm.chk(x)
        assert str(native.value) == str(interpreted.value)
