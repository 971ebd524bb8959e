"""Scoping, dead code and definite assignment in the type checker / emitter."""

from __future__ import annotations

import pytest

from ember import errors
from ember.frontend import compile_source
from ember.ir import parse_module, print_module, verify_module


def ok(src: str) -> str:
    m = compile_source(src, "t.py")
    verify_module(m)
    text = print_module(m)
    assert print_module(parse_module(text)) == text
    return text


def fails(src: str, cls=errors.CompileError) -> errors.CompileError:
    with pytest.raises(cls) as ei:
        compile_source(src, "t.py")
    return ei.value


def test_name_assigned_later_is_local_not_global():
    e = fails("k = 5\ndef f(n: int) -> int:\n    x = k\n    k = 3\n    return x\n",
              errors.NameResolutionError)
    assert e.line == 3 and "read before it is assigned" in e.message


def test_walrus_target_is_local():
    e = fails("y = 1\ndef f(n: int) -> int:\n    a = y\n    if (y := n) > 0:\n"
              "        return y\n    return a\n", errors.NameResolutionError)
    assert e.line == 3


def test_global_constant_still_readable():
    text = ok("K = 5\ndef f(n: int) -> int:\n    return n + K\n")
    assert "const 5" in text


def test_code_after_continue_keeps_the_block_terminated():
    text = ok("def f(n: int) -> int:\n    i = 0\n    j = 0\n    while i < n:\n"
              "        i += 1\n        if i > 2:\n            continue\n            j += 1\n"
              "        else:\n            j += 2\n    return j\n")
    assert "continue" in text


def test_dead_code_is_still_type_checked():
    e = fails("def f(n: int) -> int:\n    return n\n    x = n + 'a'\n", errors.TypeCheckError)
    assert e.line == 3


def test_dead_code_returns_do_not_change_the_inferred_type():
    text = ok("def f(n: int):\n    return n\n    return 'a'\n")
    assert "-> i64" in text


def test_loop_variable_after_loop_is_a_checked_slot():
    text = ok("def f(n: int) -> int:\n    for i in range(n):\n        y = i\n    return y\n")
    assert "var.new : var<i64>" in text and "UnboundLocalError" in text


def test_loop_variable_not_read_after_the_loop_stays_an_ssa_value():
    text = ok("def f(n: int) -> int:\n    t = 0\n    for i in range(n):\n        t += i\n"
              "    return t\n")
    assert "var.new" not in text


def test_loop_variable_read_before_its_first_assignment_raises_at_run_time():
    import ember
    cu = ember.CompilationUnit("def f(n: int) -> int:\n    t = 0\n    for i in range(n):\n"
                               "        if i > 0:\n            t += y\n        y = i\n"
                               "    return t + y\n")
    assert cu.f(3) == 1 + 2
    with pytest.raises(UnboundLocalError, match="local variable 'y'"):
        cu.f(0)


def test_for_target_defined_before_loop_is_carried():
    ok("def f(n: int) -> int:\n    i = -1\n    for i in range(n):\n        pass\n    return i\n")


def test_error_in_one_branch_does_not_crash_the_merge():
    e = fails("from typing import List, Tuple\n"
              "def f(n: int, cols: List[int]) -> Tuple[int, str]:\n    count = 0\n"
              "    for c in range(n):\n        if c > 1:\n"
              "            count += f(n, cols)\n    return count\n", errors.TypeCheckError)
    assert e.line == 6 and len(e.diagnostics) == 2


def test_try_slot_typed_on_one_path_checks_the_others():
    e = fails("def f(s: str) -> int:\n    try:\n        v = len(s) > 2\n"
              "    except ValueError:\n        v = 0\n    return 1\n", errors.TypeCheckError)
    assert e.line == 5 and "variable 'v' has type bool" in e.message


def test_aug_assign_to_a_method_attribute_is_an_error_not_a_crash():
    e = fails("from typing import List\ndef f(xs: List[int]) -> None:\n    xs.append += 1\n")
    assert e.line == 3


def test_lambda_assigned_twice_needs_an_annotation():
    e = fails("def f(n: int, c: bool) -> int:\n    g = lambda x: x + 1\n    if c:\n"
              "        g = lambda x: x * 2\n    return g(n)\n", errors.TypeCheckError)
    assert "Callable" in e.message


def test_lambda_assigned_to_an_int_variable():
    e = fails("def f(n: int) -> int:\n    best = 0\n    best = lambda q: q\n    return best\n",
              errors.TypeCheckError)
    assert e.line == 3 and "lambda" in e.message


def test_def_in_each_branch_is_a_function_value():
    text = ok("def f(n: int, c: bool) -> int:\n    if c:\n        def g(x: int) -> int:\n"
              "            return x + 1\n    else:\n        def g(x: int) -> int:\n"
              "            return x * 2\n    return g(n)\n")
    assert "call_indirect" in text and "closure" in text


def test_nested_def_reading_a_later_local_is_compiled_at_its_first_call():
    import ember
    cu = ember.CompilationUnit("def f(n: int) -> int:\n    def g() -> int:\n        return k\n"
                               "    k = n\n    return g()\n")
    assert cu.f(3) == 3


def test_nested_def_called_before_the_later_local_is_assigned():
    e = fails("def f(n: int) -> int:\n    def g() -> int:\n        return k\n"
              "    a = g()\n    k = 3\n    return a\n", errors.UnsupportedError)
    assert e.line == 2 and "'k'" in e.message


def test_class_constants_static_methods_and_field_defaults():
    text = ok("class Acc:\n    LIMIT = 10\n    count: int = 0\n"
              "    def __init__(self, start: int):\n        self.total = start\n"
              "    @staticmethod\n    def double(x: int) -> int:\n        return x * 2\n"
              "def f(n: int) -> int:\n    a = Acc(n)\n"
              "    return a.count + a.LIMIT + Acc.LIMIT + Acc.double(a.total)\n")
    assert "{callee = @Acc.double}" in text
    assert '{field = "count"}' in text


def test_builtin_name_assigned_locally_is_local():
    e = fails("def f(n: int) -> int:\n    for d in range(2, n):\n        range = 3\n"
              "    return n\n", errors.NameResolutionError)
    assert e.line == 2 and "'range'" in e.message
