"""The entry points: compile_function (with and without a module) and compile_source."""

from __future__ import annotations

import sys
import textwrap
import types

import pytest

from ember import errors
from ember.frontend import compile_function, compile_source
from ember.ir import Module, print_module, verify_module


@pytest.fixture
def pymod(tmp_path):
    """Write source to a real module file (ember compiles from source) and import it."""
    made = []

    def make(src: str) -> types.ModuleType:
        name = f"ember_fe_test_{len(made)}_{abs(hash(src)) % 10**8}"
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(src))
        import importlib.util
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        made.append(name)
        return mod

    yield make
    for name in made:
        sys.modules.pop(name, None)


SRC = """
from typing import List

K = 3
TABLE = [1, 2, 3]

def g(x: int) -> int:
    return x + K

def f(x: int) -> int:
    return g(x) * 2

def h(x: int) -> int:
    return g(x) - 1

def uses_table(i: int) -> int:
    return TABLE[i]

class Box:
    def __init__(self, v: int):
        self.v = v

def make(v: int) -> int:
    return Box(v).v
"""


def test_compile_function_reaches_callees(pymod):
    m = pymod(SRC)
    mod, sym = compile_function(m.f)
    assert sym == "f" and mod.entries == ["f"]
    assert set(mod.funcs) == {"f", "g"}
    verify_module(mod)


def test_compile_function_into_an_existing_module(pymod):
    m = pymod(SRC)
    mod, _ = compile_function(m.f)
    same, sym = compile_function(m.h, module=mod)
    assert same is mod and sym == "h"
    assert set(mod.funcs) == {"f", "g", "h"}  # g compiled once
    assert mod.entries == ["f", "h"]
    compile_function(m.make, module=mod)
    compile_function(m.make, module=mod)
    assert mod.entries == ["f", "h", "make"] and list(mod.classes) == ["Box"]
    verify_module(mod)


def test_compile_function_module_avoids_existing_symbols(pymod):
    m = pymod(SRC)
    mod = compile_source("def g(y: str) -> str:\n    return y\n")
    compile_function(m.f, module=mod)
    assert "g" in mod.funcs and "g.2" in mod.funcs
    assert "@g.2" in print_module(mod)
    verify_module(mod)


def test_failed_compile_leaves_the_module_unchanged(pymod):
    m = pymod(SRC + "\ndef bad(x: int) -> int:\n    return g(x) + 'a'\n")
    mod = Module()
    compile_function(m.f, module=mod)
    before = (set(mod.funcs), list(mod.entries))
    with pytest.raises(errors.TypeCheckError):
        compile_function(m.bad, module=mod)
    assert (set(mod.funcs), list(mod.entries)) == before


def test_non_constant_global_is_an_error_only_when_used(pymod):
    m = pymod(SRC)
    compile_function(m.f)
    with pytest.raises(errors.NameResolutionError) as ei:
        compile_function(m.uses_table)
    assert "global 'TABLE' is a list" in ei.value.message


def test_compile_source_every_def_is_an_entry():
    mod = compile_source("import math\nfrom typing import List\nN: int = 3\nX = 2.5\n"
                         "T = (1, 'a')\nDATA = [1, 2]\n"
                         "def a(x: float) -> float:\n    return math.sqrt(x) + X + N\n"
                         "def b() -> str:\n    return T[1]\n")
    assert mod.entries == ["a", "b"]
    verify_module(mod)


def test_compile_source_list_global_used():
    with pytest.raises(errors.NameResolutionError) as ei:
        compile_source("DATA = [1, 2]\ndef a() -> int:\n    return DATA[0]\n")
    assert ei.value.line == 3


def test_compile_source_bad_top_level_statement():
    with pytest.raises(errors.UnsupportedError) as ei:
        compile_source("print('hi')\ndef a() -> int:\n    return 1\n")
    assert ei.value.line == 1


def test_error_note_names_the_function_and_its_caller(pymod):
    m = pymod("def g(x: int) -> int:\n    return x + 'a'\n\n"
              "def f(x: int) -> int:\n    return g(x)\n")
    with pytest.raises(errors.TypeCheckError) as ei:
        compile_function(m.f)
    text = str(ei.value)
    assert "note: in function 'g'" in text
    assert "because function 'f' uses it" in text


def test_all_errors_are_collected_first_first():
    src = "def f(x: int) -> int:\n" + "".join(
        f"    y{i} = x + 'a'\n" for i in range(30)) + "    return x\n"
    with pytest.raises(errors.TypeCheckError) as ei:
        compile_source(src)
    e = ei.value
    assert e.line == 2
    assert len(e.diagnostics) == errors.MAX_ERRORS
    assert [d.span.line for d in e.diagnostics] == list(range(2, 2 + errors.MAX_ERRORS))


def test_errors_in_several_functions_are_reported_together():
    with pytest.raises(errors.CompileError) as ei:
        compile_source("def f(x: int) -> int:\n    return x + 'a'\n"
                       "def g(x: int) -> int:\n    return undefined_name\n")
    assert [d.span.line for d in ei.value.diagnostics] == [2, 4]
    assert isinstance(ei.value, errors.TypeCheckError)


def test_poisoned_values_do_not_cascade():
    with pytest.raises(errors.TypeCheckError) as ei:
        compile_source("def f(x: int) -> int:\n    y = x + 'a'\n    z = y * 2\n"
                       "    w = z.foo()\n    return w + len(z)\n")
    assert len(ei.value.diagnostics) == 1
