"""The call boundary with large lists: the argument check of List[int]/List[float]/
List[bool]/List[str] runs in C loops (element types, int64's range) with the VM's
verdicts (a bool among ints, an int past int64, a float among ints: TypeError naming the
parameter); an argument list the native code left byte for byte as it was is not
rewritten, and one it changed gets its new contents (-0.0 for 0.0 included)."""

from __future__ import annotations

import pytest

import ember

pytest.importorskip("llvmlite")

SRC = '''
from typing import List

def total(xs: List[int]) -> int:
    return sum(xs)

def negate_zeros(xs: List[float]) -> int:
    n = 0
    for i in range(len(xs)):
        if xs[i] == 0.0:
            xs[i] = -xs[i]
            n += 1
    return n

def grow(xs: List[int]) -> int:
    xs.append(len(xs))
    return len(xs)

def flags(bs: List[bool]) -> int:
    return len([b for b in bs if b])
'''


@pytest.fixture(scope="module", params=["vm", "llvm"])
def unit(request):
    return ember.CompilationUnit(SRC, "bl.py", backend=request.param)


@pytest.mark.parametrize("bad", [[1, True], [1, 2 ** 63], [1, 2.0], [1, "a"], (1, 2)])
@pytest.mark.parametrize("n", [1, 40])
def test_checks(unit, bad, n):
    arg = list(bad) * n if isinstance(bad, list) else bad
    if isinstance(bad, tuple):  # a tuple for a List parameter is converted, as TorchScript does
        assert unit.total(arg) == 3
        return
    with pytest.raises(TypeError, match="xs"):
        unit.total(arg)


def test_large_lists(unit):
    xs = list(range(100_000))
    assert unit.total(xs) == sum(xs) and xs == list(range(100_000))
    fs = [1.5, 0.0, 2.0] * 1000
    assert unit.negate_zeros(fs) == 1000
    assert all(str(f) == "-0.0" for f in fs[1::3])
    ys = list(range(50))
    assert unit.grow(ys) == 51 and ys[-1] == 50
    assert unit.flags([True, False] * 500) == 500
