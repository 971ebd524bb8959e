"""Builtins emitted by the frontend, run against CPython (values and types must agree)."""

from __future__ import annotations

import math

import pytest

import ember
from ember.frontend import compile_source
from ember.ir import print_module

SRC = '''
from typing import Dict, List, Optional, Tuple
def longest(xs: List[str]) -> str:
    return max(xs, key=lambda s: len(s)) + min(xs, key=len)
def with_default(xs: List[int]) -> int:
    return max(xs, default=-1) + min([x for x in xs if x > 100], default=7)
def argmax(d: Dict[str, int]) -> str:
    return max(d, key=lambda k: d[k])
def iterables(n: int) -> int:
    return sum(range(n)) + max(range(n)) + len(sorted("hello"))
def by_second(ps: List[Tuple[str, int]]) -> Tuple[str, int]:
    return min(ps, key=lambda p: p[1])
def neg_max(xs: List[int]) -> int:
    return max(xs, key=lambda x: -x)
def sorted_dict(d: Dict[str, int]) -> List[str]:
    return sorted(d, reverse=True) + sorted([k for k, v in d.items() if v > 1])
def fmt(x: float, n: int) -> str:
    w = 10
    return f"{x:{w}.{n}f}|{n:05d}|{x:e}|{x:%}|{n:,}|{'q'!r}" + \\
        "{:>8.3f}|{:<5}|{:^7}|{:+d}|{:x}|{{}}|{!r}".format(x, "ab", "mid", n, 255, "s")
def percent(a: int, b: str) -> str:
    return "%d-%s-%5.2f-%x-%%" % (a, b, 1.5, 255)
def joins(xs: List[int]) -> str:
    return ",".join(str(x) for x in xs) + "|" + " ".join([str(x * 2) for x in reversed(xs)])
def zips(a: List[int], b: List[str], c: List[float]) -> List[str]:
    return [f"{x}{y}{z}" for x, y, z in zip(a, b, c)]
def enum(xs: List[str]) -> List[Tuple[int, str]]:
    return [(i, s) for i, s in enumerate(xs, 10)]
def any_all(xs: List[int]) -> Tuple[bool, bool]:
    return any(x > 3 for x in xs), all(x > 0 for x in xs if x != 2)
def conv(s: str) -> Tuple[int, float, bool, str]:
    return int(s), float(s), bool(s), str(int(s) * 2)
def rounding(x: float) -> Tuple[int, float, int]:
    return round(x), round(x, 1), abs(-3)
def divmods(a: int, b: int) -> Tuple[int, int]:
    return divmod(a, b)
'''

CASES = [
    ("longest", (["a", "bbb", "cc", "ddd"],)), ("with_default", ([3, 1, 2],)),
    ("with_default", ([],)), ("argmax", ({"a": 1, "b": 5, "c": 5},)), ("iterables", (5,)),
    ("by_second", ([("a", 3), ("b", 1), ("c", 1)],)), ("neg_max", ([],)),
    ("neg_max", ([4, 2, 2, 9],)), ("sorted_dict", ({"b": 1, "a": 2, "c": 3},)),
    ("fmt", (3.14159, 2)), ("percent", (7, "s")), ("joins", ([1, 2, 3],)),
    ("zips", ([1, 2, 3], ["a", "b"], [1.5, 2.5, 3.5])), ("enum", (["a", "b"],)),
    ("any_all", ([1, 2, 5],)), ("any_all", ([],)), ("conv", ("12",)), ("rounding", (2.45,)),
    ("rounding", (-2.5,)), ("divmods", (-7, 2)), ("divmods", (7, 0)),
]


@pytest.fixture(scope="module")
def unit():
    return ember.CompilationUnit(SRC, filename="builtins_test.py")


@pytest.fixture(scope="module")
def python():
    ns: dict = {}
    exec(compile(SRC, "builtins_test.py", "exec"), ns)
    return ns


def outcome(fn, args):
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - the exception is the compared result
        return ("raise", type(e).__name__, str(e))


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.parametrize("entry, args", CASES, ids=[f"{e}{i}" for i, (e, _) in
                                                     enumerate(CASES)])
def test_like_cpython(unit, python, entry, args):
    want = outcome(python[entry], args)
    got = outcome(getattr(unit, entry), args)
    assert got[0] == want[0] and (same(got[1], want[1]) if got[0] == "ok" else
                                  got[1:] == want[1:]), (got, want)


def test_hidden_helper_variables_do_not_name_ir_values():
    text = print_module(compile_source(SRC))
    assert "$" not in text and "v__" not in text


_MATH_SRC = '''
import math
def fact(n: int) -> int:
    return math.factorial(n)
def floor(x: float) -> int:
    return math.floor(x)
def ceil(x: float) -> int:
    return math.ceil(x)
def trunc(x: float) -> int:
    return math.trunc(x)
def gcd(a: int, b: int) -> int:
    return math.gcd(a, b)
def rnd(x: float) -> int:
    return round(x)
'''


@pytest.mark.parametrize("entry, args, message", [
    ("fact", (25,), "math.factorial(25)"), ("floor", (1e19,), "math.floor(1e+19)"),
    ("ceil", (-1e19,), "math.ceil(-1e+19)"),
    ("trunc", (2.0 ** 63,), "math.trunc(9.223372036854776e+18)"),
    ("gcd", (-2 ** 63, 0), "math.gcd(-9223372036854775808, 0)"), ("rnd", (1e19,), "round(1e+19)"),
])
def test_int_results_outside_int64_overflow(entry, args, message, tmp_path):
    unit = ember.CompilationUnit(_MATH_SRC)
    fn = getattr(unit, entry)
    fn.save(tmp_path / "m.ember")
    for f in (fn, ember.mobile.load(tmp_path / "m.ember")):
        with pytest.raises(OverflowError) as ei:
            f(*args)
        assert str(ei.value) == "int64 overflow: " + message


def test_int_results_inside_int64_are_cpython_s():
    unit = ember.CompilationUnit(_MATH_SRC)
    assert unit.fact(20) == math.factorial(20)
    assert unit.gcd(-2 ** 63, 6) == 2 and unit.floor(-2.5) == -3
    with pytest.raises(ValueError, match="not defined for negative values"):
        unit.fact(-1)
