"""Rebinding a variable to a value of another type (TorchScript's rule): allowed in the
block that bound the name, an error in a nested block (branch, loop body)."""

from __future__ import annotations

import pytest

import ember
from ember import errors


def run(src: str, name: str, *args):
    unit = ember.CompilationUnit(src)
    return getattr(unit, name)(*args)


def fails(src: str, cls=errors.TypeCheckError) -> errors.CompileError:
    with pytest.raises(cls) as ei:
        ember.CompilationUnit(src)
    return ei.value


def test_rebinding_in_the_same_block_gives_the_name_a_new_type():
    src = ("from typing import List\n"
           "def f(n: int) -> int:\n"
           "    x = n + 1\n"
           "    x = [x, n]\n"
           "    x = str(sum(x))\n"
           "    return len(x)\n")
    assert run(src, "f", 40) == 2


def test_parameters_may_be_rebound():
    src = ("from typing import Dict, List\n"
           "def f(d: Dict[str, int]) -> int:\n"
           "    d = list(d.values())\n"
           "    return d[-1]\n")
    assert run(src, "f", {"a": 1, "b": 5}) == 5


def test_a_name_first_bound_in_both_branches_may_be_rebound_after_the_join():
    src = ("def f(c: bool) -> int:\n"
           "    if c:\n"
           "        s = 'ab'\n"
           "    else:\n"
           "        s = 'xyz'\n"
           "    s = len(s)\n"
           "    return s\n")
    assert run(src, "f", True) == 2 and run(src, "f", False) == 3


def test_rebinding_inside_a_branch_only_shadows_a_name_bound_there():
    src = ("def f(c: bool) -> str:\n"
           "    if c:\n"
           "        y = 1\n"
           "        y = 'one'\n"
           "        return y\n"
           "    return 'none'\n")
    assert run(src, "f", True) == "one"


def test_a_name_bound_in_an_enclosing_block_keeps_its_type():
    e = fails("def f(c: bool) -> int:\n"
              "    y = 1\n"
              "    if c:\n"
              "        y = 'one'\n"
              "    return 0\n")
    assert e.line == 4 and "variable 'y' has type int" in e.message


def test_a_loop_body_keeps_the_type_of_a_name_bound_before_the_loop():
    e = fails("def f(n: int) -> int:\n"
              "    y = 1\n"
              "    for i in range(n):\n"
              "        y = [i]\n"
              "    return 0\n")
    assert e.line == 4


def test_annotated_locals_and_numbers_keep_their_type():
    e = fails("def f(n: int) -> int:\n"
              "    y: int = 1\n"
              "    y = 'a'\n"
              "    return 0\n")
    assert e.line == 3
    e = fails("def f(n: int) -> float:\n"
              "    y = 1.5\n"
              "    y = n\n"
              "    return y\n")
    assert e.line == 3 and "float(...)" in e.message
