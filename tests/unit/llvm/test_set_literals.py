"""A set literal of three or more elements that CPython's compiler folds to constants
(literals, and operators on them within its folding limits) is built from a frozenset,
so its order is not that of adding the elements one by one: ember decides it as CPython
does, on the VM and natively."""

from __future__ import annotations

import pytest

import ember

from .outcomes import outcome
from .test_sets import _same

pytest.importorskip("llvmlite")


LITERALS = ["{13, 24, -2, 9223372036854775807, -9223372036854775807 - 1}",
            "{13, 24, -2, 1 << 62, 7}", "{1 << 62, 2 ** 61, 3 * 5, 40}",
            "{0 ** 200, 1 << 40 >> 40, 8, 16}", "{-(-8), +16, ~24, 32 // 3, 64 % 7}",
            "{8, 16, 24, n}", "{n, 8, 16, 24, 32}", "{2 ** 50 // 2 ** 40, 24, 40}",
            "{8.0, 16.0, -0.0, 0.0, 1.5 * 2}", "{True, False, not True}",
            "{-2, -1, -9223372036854775807 - 1, 24, 40}", "{-1, -2, 6, 14, 22}"]


@pytest.mark.parametrize("literal", LITERALS)
@pytest.mark.parametrize("backend", ["vm", "llvm"])
def test_literal_order(literal, backend):
    """A literal of three or more elements that CPython's compiler folds to constants is
    built from a frozenset (another order than adding them one by one)."""
    kind = "float" if "." in literal else "bool" if "True" in literal else "int"
    src = (f"from typing import List\n\ndef f(n: {kind}) -> List[{kind}]:\n"
           f"    return list({literal})\n")
    ns: dict = {}
    exec(compile(src, "lit.py", "exec"), ns)  # noqa: S102 - the CPython oracle
    cu = ember.CompilationUnit(src, "lit.py", backend=backend)
    arg = {"int": 5, "float": 2.5, "bool": True}[kind]
    assert _same(outcome(ns["f"], (arg,)), outcome(cu.f, (arg,)))


@pytest.mark.parametrize("literal", ["{'a' + 'b', 'c', 'd', 'e' * 2, 'f', 'g', 'h', 'i'}",
                                     "{'ab' * 3000, 'y', 'z', 'w', 'v'}",
                                     "{(1,) + (2,), (3, 4), (5, 6)}"])
def test_sequence_literal_order(literal):
    """str and tuple + / * fold as CPython folds them (within its size limits)."""
    kind = "Tuple[int, int]" if "(" in literal else "str"
    src = (f"from typing import List, Tuple\n\ndef f() -> List[{kind}]:\n"
           f"    return list({literal})\n")
    ns: dict = {}
    exec(compile(src, "lit.py", "exec"), ns)  # noqa: S102 - the CPython oracle
    assert ember.CompilationUnit(src, "lit.py").f() == ns["f"]()
