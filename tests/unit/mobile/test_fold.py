"""Expression folding (mobile/fold.py): translated code keeps temporaries on CPython's
stack, and runs exactly as the unfolded code does (values, effects in order, exceptions
and their lines)."""

from __future__ import annotations

import pytest

import ember
from ember.mobile import translate
from ember.mobile.runtime import translated_source

from ..passes.int_programs import ARGS, Generator

HEADER = "from typing import List\n\n"


def _source(text: str, name: str = "f") -> str:
    return translated_source(getattr(ember.CompilationUnit(HEADER + text), name).program)


def test_single_use_temporaries_fold_into_their_reader():
    text = _source("def f(a: float, b: float) -> float:\n    return a * a + b * b\n")
    assert "return r0 * r0 + r1 * r1" in text


def test_a_value_read_twice_stays_in_its_register():
    text = _source("def f(a: int) -> int:\n    x = a % 7\n    y = x + 1\n    return x * y\n")
    assert "= r0 % 7\n" in text and " + 1)" in text


def test_no_fold_past_an_operation_that_may_raise():
    src = """
def g(xs: List[int]) -> int:
    xs.append(1)
    return 5

def f(xs: List[int]) -> int:
    t = g(xs)
    return xs[0] + t
"""
    cu = ember.CompilationUnit(HEADER + src)
    assert cu.f([]) == 6  # xs[0] is read after g appended, as in CPython
    text = translated_source(cu.f.program)
    assert "xs" not in text and "r0[0] + _fn" not in text


def test_short_circuit_operands_stay_conditional():
    src = """
def g(xs: List[int]) -> int:
    xs.append(1)
    if len(xs) > 100:
        return 0
    return 1

def f(xs: List[int], c: bool) -> int:
    if c and g(xs) > 0:
        return 10 + len(xs)
    return len(xs)
"""
    cu = ember.CompilationUnit(HEADER + src)
    assert (cu.f([], False), cu.f([], True)) == (0, 11)
    assert " and " in translated_source(cu.f.program)


def test_while_condition_becomes_one_expression():
    src = """
def f(xs: List[int], n: int) -> int:
    i = 0
    while i < n and xs[i] > 0:
        i = i + 1
    return i
"""
    text = _source(src)
    assert "while r" in text and " and r0[r" in text and "while True" not in text
    cu = ember.CompilationUnit(HEADER + src)
    assert cu.f([3, 2, 0, 5], 4) == 2 and cu.f([1, 1], 2) == 2


def test_errors_keep_the_line_of_the_folded_expression(tmp_path):
    path = tmp_path / "div.py"
    src = "def f(a: float, b: float) -> float:\n    q = a / b\n    return q + 1.0\n"
    path.write_text(src)
    cu = ember.CompilationUnit(src, filename=str(path))
    assert "return r0 / r1 + 1.0" in translated_source(cu.f.program)
    with pytest.raises(ZeroDivisionError) as ei:
        cu.f(1.0, 0.0)
    lines = [(tb.tb_frame.f_code.co_filename, tb.tb_lineno) for tb in _walk(ei.value)]
    assert (str(path), 2) in lines


def _walk(e):
    tb = e.__traceback__
    while tb is not None:
        yield tb
        tb = tb.tb_next


def test_nothing_folds_inside_try():
    src = """
def f(a: int, b: int) -> int:
    r = 0
    try:
        r = a * 2
        r = r // b
    except ZeroDivisionError:
        return r + 100
    return r
"""
    cu = ember.CompilationUnit(HEADER + src)
    assert (cu.f(3, 0), cu.f(3, 2)) == (106, 3)


def _outcome(fn, args):
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return ("raise", type(e).__name__, str(e))


@pytest.mark.parametrize("seed", range(40))
def test_folded_code_matches_unfolded_code(seed, monkeypatch):
    """Random integer programs, many of which overflow: same values, same errors."""
    source = Generator(seed).program()
    folded = ember.CompilationUnit(source).f
    monkeypatch.setattr(translate, "fold_function", lambda body: body)
    plain = ember.CompilationUnit(source).f
    for args in [(a, b, n) for a in ARGS[::4] for b in ARGS[1::5] for n in ARGS[2::6]]:
        assert _outcome(folded, args) == _outcome(plain, args), (args, source)


def test_field_reads_stay_after_calls_that_may_set_them():
    src = """
class Box:
    def __init__(self, v: float):
        self.v = v

def bump(b: Box) -> float:
    b.v = b.v + 10.0
    if b.v > 1000.0:
        return 0.0
    return 1.0

def f(x: float) -> float:
    b = Box(x)
    t = bump(b)
    return b.v + t
"""
    cu = ember.CompilationUnit(HEADER + src)
    assert cu.f(1.0) == 12.0
    assert ".f0 + _fn" not in translated_source(cu.f.program)


def _fold(src: str) -> str:
    """fold_function on Python statements (every name a variable), unparsed."""
    import ast
    import textwrap

    from ember.mobile.fold import fold_function

    body = ast.parse(textwrap.dedent(src)).body
    for n in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(n, ast.stmt):
            n.lineno = 1
    return ast.unparse(ast.Module(body=fold_function(body), type_ignores=[]))


@pytest.mark.parametrize("src, want", [
    ("v = g()\nx = v + 1\nreturn x", "return g() + 1"),
    ("v = g()\nw = h()\nreturn v * w", "return g() * h()"),
    ("v = g()\nx = a[i] + v\nreturn x", "v = g()\nreturn a[i] + v"),
    ("v = g()\nx = o.f0 + v\nreturn x", "v = g()\nreturn o.f0 + v"),
    ("v = g()\nxs.append(v)", "xs.append(g())"),
    ("v = g()\nx = v if c else d\nreturn x", "v = g()\nreturn v if c else d"),
    ("v = g()\nx = c if d else v\nreturn x", "v = g()\nreturn c if d else v"),
    ("v = g()\nif a and v:\n    return 1\nreturn 0", "v = g()\nif a and v:\n    return 1\nreturn 0"),
    ("v = g()\nx = v + v\nreturn x", "v = g()\nreturn v + v"),
    ("v = g()\na[v] = h()", "v = g()\na[v] = h()"),
    ("v = g()\nv = v + 1\nreturn v", "return g() + 1"),
])
def test_fold_rules(src, want):
    assert _fold(src) == want


@pytest.mark.parametrize("src", [
    # v is read again after the statement that reads it: inside a try, after a loop that
    # a break leaves, in the next iteration.
    "v = g()\nx = v + 1\ntry:\n    y = v\nexcept E:\n    pass\nreturn x",
    "while c:\n    v = g()\n    w = v + 1\n    if w:\n        break\nelse:\n    v = 0\nreturn v",
    "v = 0\nfor i in r:\n    w = v + 1\n    v = g()\n    x = v\nreturn w",
])
def test_values_live_later_are_not_folded(src):
    assert "v = g()" in _fold(src)


def ast_roundtrip(src: str) -> str:
    import ast

    return ast.unparse(ast.parse(src))


def test_and_or_tests_become_one_condition():
    assert _fold("if a:\n    v = b < 2\nelse:\n    v = False\nif not v:\n    return 1") == \
        "if not (a and b < 2):\n    return 1"
    assert _fold("if a:\n    v = True\nelse:\n    v = b\nif v:\n    return 1") == \
        "if a or b:\n    return 1"
    # v is read afterwards: the if stays.
    src = "if a:\n    v = b\nelse:\n    v = False\nif v:\n    return v\nreturn 0"
    assert _fold(src) == ast_roundtrip(src)


def test_while_true_with_exit_test_becomes_while_condition():
    src = "while True:\n    v = i < n\n    if not v:\n        break\n    i = i + 1\nreturn i"
    assert _fold(src) == "while i < n:\n    i = i + 1\nreturn i"
    src = "while True:\n    v = i < n\n    if not v:\n        x = True\n        break\n    i = 1"
    assert _fold(src).startswith("while True:")


def test_a_long_chain_of_single_use_values_folds_to_bounded_depth():
    from ember import mobile
    from ember.interpreter.assembler import assemble
    from ember.mobile import fold

    n = 3 * fold._MAX_DEPTH + 7  # thousands failed: nesting past Python's recursion limit
    lines = ["function f(x: str) -> str", "  .entry f"]
    lines += [f"  KCALL r{i + 1} str.lower (r{i})" for i in range(n)]
    lines.append(f"  RETURN r{n}")
    text = "\n".join(lines)
    src = translated_source(assemble(text))
    assert src.count("_k0(") == n
    assert 3 <= src.count("\n    r") <= 5  # a statement every _MAX_DEPTH + 1 calls
    assert mobile.build(assemble(text))("AbC") == "abc"
    long = "\n".join(lines[:2] + [f"  KCALL r{i + 1} str.lower (r{i})" for i in range(3000)] +
                     ["  RETURN r3000"])
    assert mobile.build(assemble(long))("X") == "x"
