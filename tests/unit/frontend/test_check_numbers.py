"""Number types: arithmetic promotes, storing a value never converts it (Python keeps
the int), call arguments follow PEP 484's numeric tower."""

from __future__ import annotations

import pytest

from ember import errors
from ember.frontend import compile_source
from ember.ir import print_module, verify_module


def ok(src: str) -> str:
    m = compile_source(src, "t.py")
    verify_module(m)
    return print_module(m)


def fails(src: str) -> errors.CompileError:
    with pytest.raises(errors.TypeCheckError) as ei:
        compile_source(src, "t.py")
    return ei.value


def test_arithmetic_promotes():
    text = ok("def f(a: int, b: float) -> float:\n    return a + b\n")
    assert "int.to_float %a" in text and "float.add" in text


def test_int_truediv_is_float():
    assert "int.truediv" in ok("def f(a: int, b: int) -> float:\n    return a / b\n")


def test_negative_constant_exponent_is_float_pow():
    text = ok("def f() -> float:\n    return 2 ** -1\n")
    assert "float.pow" in text
    assert "int.pow" in ok("def f(n: int) -> int:\n    return 2 ** n\n")


def test_bool_arithmetic_is_int():
    assert "bool.to_int" in ok("def f(a: bool) -> int:\n    return a + 1\n")


@pytest.mark.parametrize("src, line", [
    ("def f(x: int) -> float:\n    return x\n", 2),
    ("def f(x: int) -> float:\n    y: float = 0\n    return y\n", 2),
    ("def f(x: int) -> float:\n    y = 1.5\n    y = x\n    return y\n", 3),
    ("def f(x: int) -> int:\n    return x > 1\n", 2),
    ("from typing import List\ndef f(x: int) -> List[float]:\n    return [1.5, x]\n", 3),
    ("def f(x: int, c: bool) -> float:\n    return x if c else 1.5\n", 2),
    ("from typing import List\ndef f(xs: List[float]) -> None:\n    xs.append(1)\n", 3),
    ("def f(a: float) -> float:\n    return max(a, 2)\n", 2),
])
def test_storing_never_converts(src, line):
    e = fails(src)
    assert e.line == line


def test_conversion_hint():
    e = fails("def f(x: int) -> float:\n    return x\n")
    assert "float(...)" in e.message


def test_returns_of_int_and_float_do_not_join():
    e = fails("def f(x: int):\n    if x > 0:\n        return 1\n    return 2.5\n")
    assert "returns both int and float" in e.message


def test_call_arguments_follow_the_numeric_tower():
    text = ok("import math\ndef g(x: float, k: float = 2.0) -> float:\n    return x * k\n"
              "def f(n: int) -> float:\n    return g(n, k=3) + math.sqrt(n)\n")
    assert text.count("int.to_float") == 3


def test_int_in_float_list_membership_converts():
    assert "list.contains" in ok("from typing import List\n"
                                 "def f(xs: List[float]) -> bool:\n    return 1 in xs\n")
