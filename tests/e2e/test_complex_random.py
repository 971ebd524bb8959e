"""Random complex expressions, differential against CPython: each program mixes complex,
float, int and bool operands with + - * / **, unary -, abs, .real/.imag/.conjugate(),
complex(), cmath functions, == / != and str(); ember in process and after save ->
ember.mobile.load give CPython's values (signed zeros and NaNs included) or its exception
type and message, on inputs that include zeros, infinities and NaNs."""

from __future__ import annotations

import random

import pytest

import ember
from ember import mobile

from .corpus import outcome, same_outcome

_PARAMS = (("z", "complex"), ("w", "complex"), ("x", "float"), ("n", "int"), ("b", "bool"))
_VALUES = {
    "complex": [0j, complex(-0.0, -0.0), 1 + 2j, -0.5j, 3 - 4j, complex(float("inf"), 1.0),
                complex(float("nan"), -2.0), 1e300 + 1e300j, complex(2.0, -0.0), 1j],
    "float": [0.0, -0.0, 1.5, -2.25, 1e-300, float("inf"), float("nan"), 3.0],
    "int": [0, 1, -3, 7, 2],
    "bool": [True, False],
}
_CMATH = ("sqrt", "exp", "log", "log10", "sin", "cos", "tanh", "asin", "atanh", "acosh")


def _complex_expr(r: random.Random, depth: int) -> str:
    if depth <= 0 or r.random() < 0.25:
        return r.choice(["z", "w", "1j", "(2 - 0.5j)", "complex(x, n)", "complex(n)",
                         "-0j", "z.conjugate()"])
    kind = r.randrange(6)
    a = _complex_expr(r, depth - 1)
    if kind == 0:
        other = r.choice([_complex_expr(r, depth - 1), "x", "n", "b", "2.5", "3"])
        op = r.choice(["+", "-", "*", "/"])
        return f"({a} {op} {other})" if r.random() < 0.5 else f"({other} {op} {a})"
    if kind == 1:
        return f"({a} ** {r.choice(['2', '-1', '0.5', 'n', 'w', '3'])})"
    if kind == 2:
        return f"(-{a})"
    if kind == 3:
        return f"cmath.{r.choice(_CMATH)}({a})"
    if kind == 4:
        return f"complex({_real_expr(r, depth - 1)}, {_real_expr(r, depth - 1)})"
    return f"({a} if {_bool_expr(r, depth - 1)} else {_complex_expr(r, depth - 1)})"


def _real_expr(r: random.Random, depth: int) -> str:
    if depth <= 0 or r.random() < 0.3:
        return r.choice(["x", "2.0", "-0.0"])
    a = _complex_expr(r, depth - 1)
    return r.choice([f"{a}.real", f"{a}.imag", f"abs({a})", f"cmath.phase({a})"])


def _bool_expr(r: random.Random, depth: int) -> str:
    a, b = _complex_expr(r, depth - 1), r.choice(["z", "w", "x", "n", "1j"])
    return r.choice([f"({a} == {b})", f"({a} != {b})", f"bool({a})",
                     f"cmath.isfinite({a})", f"cmath.isnan({a})"])


def _program(seed: int) -> str:
    r = random.Random(seed)
    params = ", ".join(f"{p}: {t}" for p, t in _PARAMS)
    body = [f"    c{i} = {_complex_expr(r, 4)}" for i in range(4)]
    body.append(f"    f0 = {_real_expr(r, 3)}")
    body.append(f"    t0 = {_bool_expr(r, 3)}")
    body.append("    return [c0, c1, c2, c3], f0, t0, [str(c0), repr(c1), f'{c2:.3g}', str(f0)]")
    return ("import cmath\nfrom typing import List, Tuple\n\n\n"
            f"def f({params}) -> Tuple[List[complex], float, bool, List[str]]:\n"
            + "\n".join(body) + "\n")


def _inputs(seed: int, count: int):
    r = random.Random(seed ^ 0x5A5A)
    for _ in range(count):
        yield tuple(r.choice(_VALUES[t]) for _, t in _PARAMS)


@pytest.mark.parametrize("seed", range(80))
def test_random_complex_program_agrees_with_cpython(seed, tmp_path):
    text = _program(seed)
    scope: dict = {}
    exec(compile(text, f"<complex {seed}>", "exec"), scope)  # the test's own program
    cu = ember.CompilationUnit(text, filename=f"complex_{seed}.py")
    cu.f.save(tmp_path / "f.ember")
    loaded = mobile.load(tmp_path / "f.ember")
    for args in _inputs(seed, 12):
        want = outcome(scope["f"], args)
        for engine, fn in (("in process", cu.f), ("loaded", loaded)):
            got = outcome(fn, args)
            assert same_outcome(want, got), f"{engine} {args!r}\n{text}\n{got!r} != {want!r}"
