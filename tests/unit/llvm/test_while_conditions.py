"""A `while` whose condition is built with `and` / `or` branches out of the loop from each
test (codegen.emit_branching): results, the order conditions run in (side effects, errors
raised by a later test) and the values a condition makes and drops stay CPython's; and
the loop keeps one exit per test, so LLVM can unroll a loop by its counted exit."""

from __future__ import annotations

import pytest

import ember

from .outcomes import outcome

pytest.importorskip("llvmlite")

SRC = '''
from typing import List

def escape(n: int) -> int:
    total = 0
    for p in range(n):
        x = 0.0
        y = 0.0
        it = 0
        while it < 50 and x * x + y * y <= 4.0:
            t = x * x - y * y + p * 0.05 - 1.5
            y = 2.0 * x * y + 0.3
            x = t
            it = it + 1
        total = total + it
    return total

def either(xs: List[int], k: int) -> int:
    i = 0
    while i < len(xs) and (xs[i] < k or xs[i] % 7 == 0):
        i += 1
    return i

def three(a: int, b: int, c: int) -> int:
    n = 0
    while a > 0 and b > 0 and c > 0:
        a -= 1
        b -= 2
        c -= 3
        n += 1
    return n

def not_or(xs: List[int]) -> int:
    i = 0
    while not (i >= len(xs) or xs[i] == 0):
        i += 1
    return i

def raising_second(xs: List[int], d: int) -> int:
    i = 0
    while i < 10 and xs[i] // d > 0:
        i += 1
    return i

def log_calls(log: List[int], v: int) -> bool:
    log.append(v)
    return v < 3

def calls_in_order(n: int) -> List[int]:
    log: List[int] = []
    i = 0
    while log_calls(log, i) and (log_calls(log, 10 + i) or i < n):
        i += 1
    return log

def temp_lists(n: int) -> int:
    i = 0
    while i < n and i not in [3, 5] and len([i, i]) == 2:
        i += 1
    return i

def with_else(xs: List[int]) -> int:
    i = 0
    while i < len(xs) and xs[i] >= 0:
        if xs[i] == 99:
            break
        i += 1
    else:
        return -i
    return i
'''

CASES = [
    ("escape", (40,)), ("escape", (0,)),
    ("either", ([1, 2, 14, 9, 1], 3)), ("either", ([], 3)), ("either", ([7, 14, 21], 0)),
    ("three", (5, 9, 12)), ("three", (0, 1, 1)), ("three", (9, 9, 9)),
    ("not_or", ([1, 2, 0, 4],)), ("not_or", ([1, 2],)), ("not_or", ([],)),
    ("raising_second", ([5, 4, 3, 2, 1, 0, 1], 1)), ("raising_second", ([5, 4], 0)),
    ("raising_second", ([5, 4],  1)),
    ("calls_in_order", (1,)), ("calls_in_order", (5,)),
    ("temp_lists", (9,)), ("temp_lists", (2,)),
    ("with_else", ([1, 2, 3],)), ("with_else", ([1, 99, 3],)), ("with_else", ([1, -1],)),
]


@pytest.fixture(scope="module")
def units():
    return ember.CompilationUnit(SRC, backend="llvm"), ember.CompilationUnit(SRC)


@pytest.mark.parametrize("name, args", CASES)
def test_same_as_cpython_and_the_vm(units, name, args):
    native, vm = units
    fn = getattr(native, name)
    assert fn.backend == "llvm", fn.fallback_reason
    ns: dict = {}
    exec(compile(SRC, "<while_conditions>", "exec"), ns)  # noqa: S102 - the test's own text
    want = outcome(ns[name], args)
    assert outcome(fn, args) == want
    assert outcome(getattr(vm, name), args) == want


def test_each_test_exits_the_loop_itself(units):
    """The LLVM text has no merge of the two tests: both branch to the loop's exit."""
    from ember.llvm.module import plan_module

    sf = units[0].three
    text = plan_module(sf.module, [sf.entry], "w_").llvm_ir
    head = text.split('while.head:', 1)[1].split('while.body:', 1)[0]
    assert "phi" not in head and "select" not in head
    assert text.count('label %"while.done"') >= 3  # a > 0, b > 0, c > 0
