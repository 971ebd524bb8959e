"""Optional and Union: refinement of locals, `x = None` variables typed from their later
assignments, and what the checker says when a value may be None."""

from __future__ import annotations

import pytest

import ember
from ember import errors
from ember.frontend import compile_source
from ember.ir import print_module, verify_module
from tests.e2e.corpus import outcome, same_outcome

SRC = '''
from typing import Dict, List, Optional, Union
def best_of(xs: List[int]) -> int:
    best = None
    for x in xs:
        if best is None or x > best:
            best = x
    return -1 if best is None else best
def last_nonempty(xs: List[str]) -> str:
    last = None
    i = 0
    while i < len(xs):
        if xs[i]:
            last = xs[i]
        i += 1
    if last is None:
        return "?"
    return last
def first_big(d: Dict[str, int]) -> int:
    found = None
    for k, v in d.items():
        if v > 2:
            found = v
            break
    return found if found is not None else 0
def parse_or_none(s: str) -> int:
    v = None
    try:
        v = int(s)
    except ValueError:
        pass
    return -1 if v is None else v
def branch_none(n: int) -> str:
    x = None
    if n > 0:
        x = "pos"
    return "none" if x is None else x
def early_exit(x: Optional[int]) -> int:
    if x is None:
        return 0
    return x * 2
def falsy(x: Optional[str]) -> str:
    if not x:
        return "empty"
    return x.upper()
def default_or(x: Optional[int], d: int) -> int:
    x = x or d
    return x + 1
def unions(v: Union[int, str, List[int]]) -> int:
    if isinstance(v, (int, str)):
        if isinstance(v, str):
            return len(v)
        return v
    return sum(v)
def asserted(x: Optional[int]) -> int:
    assert x is not None
    return x + 1
def while_refined(x: Optional[int]) -> int:
    while x is not None and x > 0:
        x = x - 3 if x > 3 else None
    return -1 if x is None else x
'''

CASES = [("best_of", ([3, 5, 1],)), ("best_of", ([],)), ("last_nonempty", (["a", "", "b"],)),
         ("last_nonempty", ([],)), ("first_big", ({"a": 1, "b": 3},)), ("first_big", ({},)),
         ("parse_or_none", ("12",)), ("parse_or_none", ("x",)), ("branch_none", (1,)),
         ("branch_none", (0,)), ("early_exit", (None,)), ("early_exit", (3,)),
         ("falsy", (None,)), ("falsy", ("",)), ("falsy", ("ab",)), ("default_or", (None, 5)),
         ("default_or", (0, 5)), ("default_or", (2, 5)), ("unions", (3,)), ("unions", ("abc",)),
         ("unions", ([1, 2],)), ("asserted", (1,)), ("asserted", (None,)),
         ("while_refined", (10,)), ("while_refined", (None,))]


@pytest.fixture(scope="module")
def unit():
    return ember.CompilationUnit(SRC, filename="optional_test.py")


@pytest.fixture(scope="module")
def python():
    ns: dict = {}
    exec(compile(SRC, "optional_test.py", "exec"), ns)
    return ns


@pytest.mark.parametrize("entry, args", CASES, ids=[f"{e}{i}" for i, (e, _) in
                                                     enumerate(CASES)])
def test_like_cpython(unit, python, entry, args):
    want = outcome(python[entry], args)
    got = outcome(getattr(unit, entry), args)
    assert same_outcome(want, got), (got, want)


def test_none_variable_in_a_loop_is_optional():
    m = compile_source(SRC)
    verify_module(m)
    text = print_module(m)
    func = text[text.index("func @best_of"):]
    assert "optional<i64>" in func[:func.index("\n}")]


def test_none_variable_used_as_a_number():
    with pytest.raises(errors.TypeCheckError) as ei:
        compile_source("def f() -> int:\n    best = None\n    for x in range(3):\n"
                       "        best = best + x\n    return 0\n")
    assert ei.value.line == 4 and "best: Optional[int] = None" in ei.value.message


def test_probe_does_not_hide_errors_of_called_functions():
    with pytest.raises(errors.TypeCheckError) as ei:
        compile_source("def f(n: int) -> int:\n    best = None\n    for i in range(n):\n"
                       "        best = g(i)\n    return 0 if best is None else best\n"
                       "def g(x: int) -> int:\n    return x + 'a'\n")
    assert [d.span.line for d in ei.value.diagnostics] == [7]


def test_probe_errors_are_reported_once():
    with pytest.raises(errors.TypeCheckError) as ei:
        compile_source("def f(n: int) -> int:\n    best = None\n    for i in range(n):\n"
                       "        best = i\n        y = i + 'a'\n    return 0\n")
    assert len(ei.value.diagnostics) == 1 and ei.value.line == 5


def test_try_variables_are_ssa_after_the_try():
    text = print_module(compile_source(SRC))
    func = text[text.index("func @parse_or_none"):]
    func = func[:func.index("\n}")]
    assert func.count("var.get") == 1 and "narrow" in func
