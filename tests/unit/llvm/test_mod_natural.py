"""`int.mod` with operands proven natural (passes/ranges: dividend >= 0, divisor >= 1)
runs as an unsigned remainder natively: the same values as CPython's `%` up to int64's
limits, while a mod whose operands are not proven keeps Python's sign rules and its
ZeroDivisionError."""

from __future__ import annotations

import pytest

import ember

from .outcomes import outcome

pytest.importorskip("llvmlite")

SRC = '''
def loop_mod(n: int) -> int:
    s = 0
    for i in range(n):
        s = (s + i * i) % 1000003
    return s

def refined(x: int, y: int) -> int:
    p = x % 9223372036854775807
    if y > 0:
        return p % y
    return -1

def signed(x: int, y: int) -> int:
    return x % y
'''

CASES = [
    ("loop_mod", (0,)), ("loop_mod", (1000,)), ("loop_mod", (3_000_000_000 // 10_000,)),
    ("refined", (9223372036854775806, 10)), ("refined", (-1, 3)), ("refined", (-(2**63), 7)),
    ("refined", (5, 0)), ("refined", (2**62 + 3, 2**62)), ("refined", (123, 1)),
    ("signed", (-7, 3)), ("signed", (7, -3)), ("signed", (-(2**63), -1)), ("signed", (5, 0)),
]


@pytest.fixture(scope="module")
def native():
    return ember.CompilationUnit(SRC, backend="llvm")


@pytest.mark.parametrize("name, args", CASES)
def test_same_as_cpython(native, name, args):
    fn = getattr(native, name)
    assert fn.backend == "llvm", fn.fallback_reason
    ns: dict = {}
    exec(compile(SRC, "<mod_natural>", "exec"), ns)  # noqa: S102 - the test's own text
    assert outcome(fn, args) == outcome(ns[name], args)


def test_proven_mods_are_natural(native):
    text = str(native.signed.graph)  # the whole unit's module
    assert "int.mod_natural %p, %y" in text and "int.mod %x, %y" in text
    assert "int.mod %x, %0" in text  # x % MAX: x may be negative
    loop = text[text.index("func @loop_mod"):].split("\n}", 1)[0]
    assert "int.mod_natural" in loop and "int.mod " not in loop
