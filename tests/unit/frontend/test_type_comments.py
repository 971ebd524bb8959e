"""PEP 484 function type comments (typecomments.py), as TorchScript reads them."""

from __future__ import annotations

import importlib.util
import sys
import textwrap

import pytest

import ember
from ember import errors
from ember.errors import Source
from ember.frontend import ast as A
from ember.frontend.parser import parse_module


def _def(text: str) -> A.FunctionDef:
    (node,) = [n for n in parse_module(Source("t.py", text)).body
               if isinstance(n, A.FunctionDef)]
    return node


def _ann(node):
    return [None if a.annotation is None else (a.annotation.span.line, a.annotation.span.col)
            for a in node.args]


def test_the_comment_becomes_annotations_with_spans_in_the_comment():
    node = _def("def f(x, y):\n    # type: (int, List[float]) -> float\n    return x\n")
    assert _ann(node) == [(2, 14), (2, 19)]
    assert (node.returns.span.line, node.returns.span.col) == (2, 35)
    assert isinstance(node.args[1].annotation, A.Subscript)


def test_per_parameter_comments_and_no_return_type():
    node = _def("def f(a,  # type: int\n      b=lambda q: q,  # type: Callable[[int], int]\n"
                "      ):\n    return a\n")
    assert _ann(node) == [(1, 19), (2, 31)]
    assert node.returns is None


def test_a_header_colon_inside_brackets_is_not_the_end_and_strings_are_not_comments():
    node = _def("def f(x=lambda q: q, s='# type: (str) -> int'):\n    return 1\n")
    assert _ann(node) == [None, None]


def test_nested_defs_and_methods():
    cu = ember.CompilationUnit(textwrap.dedent('''
        class A:
            def __init__(self, v):
                # type: (int) -> None
                self.v = v

            def get(self, k):  # type: (int) -> int
                def inner(z):
                    # type: (int) -> int
                    return z * 2
                return inner(self.v) + k


        def f(v, k):
            # type: (int, int) -> int
            return A(v).get(k)
        '''))
    assert cu.f(3, 1) == 7


@pytest.mark.parametrize("comment, cls, col, match", [
    ("(int, flot) -> int", errors.NameResolutionError, 19, "flot"),
    ("(int) -> int", errors.ParseError, 13, "1 type(s) for 2 parameter(s)"),
    ("(int, int -> int", errors.ParseError, 13, "never closed"),
    ("(int, int) => int", errors.ParseError, 24, "expected '->'"),
    ("int, int", errors.ParseError, 13, "looks like (int, float) -> float"),
    ("(int, int) -> ", errors.ParseError, 26, "expected a type"),
    ("(int, [) -> int", errors.ParseError, 13, "never closed"),
])
def test_bad_comments_are_compile_errors_at_the_comment(comment, cls, col, match):
    with pytest.raises(cls) as ei:
        ember.CompilationUnit(f"def f(x, y):\n    # type: {comment}\n    return x\n")
    assert (ei.value.line, ei.value.col) == (2, col), str(ei.value)
    assert match in str(ei.value)


def test_a_per_parameter_comment_with_no_parameter_on_its_line():
    with pytest.raises(errors.ParseError) as ei:
        ember.CompilationUnit("def f(\n    # type: int\n    x):\n    return x\n")
    assert ei.value.line == 2


def test_script_reads_comments_in_files(tmp_path):
    path = tmp_path / "ember_type_comment_mod.py"
    path.write_text("from typing import List\n\n\ndef f(xs, k):\n"
                    "    # type: (List[int], int) -> List[int]\n"
                    "    return [x * k for x in xs]\n")
    spec = importlib.util.spec_from_file_location("ember_type_comment_mod", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    try:
        spec.loader.exec_module(mod)
        assert ember.script(mod.f)([1, 2], 3) == [3, 6]
    finally:
        sys.modules.pop(spec.name)


def test_torchscript_reads_the_same_comments():
    torch = pytest.importorskip("torch")
    for text in ("def f(x, y):\n    # type: (int, float) -> float\n    return x + y\n",
                 "def f(x, y):\n    # type: (int, float)\n    return x + y\n"):
        assert torch.jit.CompilationUnit(text).f(1, 2.5) == ember.CompilationUnit(text).f(1, 2.5)
