"""Annotations -> IR types, and the types inferred for unannotated code."""

from __future__ import annotations

import pytest

from ember import errors
from ember.frontend import compile_source
from ember.ir import types as T

HEADER = ("from typing import Any, Callable, Dict, Final, List, NamedTuple, Optional, Tuple, "
          "Union\nimport torch\n")


def param_type(annotation: str, prelude: str = "") -> T.Type:
    m = compile_source(HEADER + prelude + f"def f(x: {annotation}) -> None:\n    pass\n")
    return m.funcs["f"].type.params[0]


@pytest.mark.parametrize("ann, want", [
    ("int", T.I64), ("float", T.F64), ("bool", T.BOOL), ("str", T.STR), ("None", T.NONE),
    ("torch.Tensor", T.TENSOR), ("List[int]", T.ListType(T.I64)),
    ("list[str]", T.ListType(T.STR)), ("Dict[str, float]", T.DictType(T.STR, T.F64)),
    ("dict[int, List[bool]]", T.DictType(T.I64, T.ListType(T.BOOL))),
    ("Tuple[int, str]", T.TupleType((T.I64, T.STR))), ("Tuple[()]", T.TupleType(())),
    ("tuple[float, float]", T.TupleType((T.F64, T.F64))),
    ("Optional[int]", T.OptionalType(T.I64)), ("int | None", T.OptionalType(T.I64)),
    ("Union[int, str]", T.make_union([T.I64, T.STR])),
    ("Union[int, None, str]", T.make_union([T.I64, T.STR, T.NONE])),
    ("Final[int]", T.I64), ("'List[int]'", T.ListType(T.I64)),
    ("Callable[[int, str], float]", T.FunctionType((T.I64, T.STR), T.F64)),
    ("Exception", T.EXC), ("List", T.ListType(T.TENSOR)),
])
def test_annotation(ann, want):
    assert param_type(ann) == want


def test_unannotated_parameter_is_a_tensor():
    m = compile_source("def f(x, n: int) -> int:\n    return n\n")
    assert m.funcs["f"].type.params[0] == T.TENSOR


def test_class_and_namedtuple_annotations():
    prelude = ("class P(NamedTuple):\n    a: int\n    b: str = 'x'\n"
               "class C:\n    def __init__(self, v: int):\n        self.v = v\n")
    assert param_type("P", prelude) == T.ClassType("P")
    m = compile_source(HEADER + prelude + "def f(c: C, p: P) -> Optional[C]:\n    return c\n")
    assert m.funcs["f"].type.params == (T.ClassType("C"), T.ClassType("P"))
    assert m.funcs["f"].type.ret == T.OptionalType(T.ClassType("C"))
    assert m.classes["P"].kind == "namedtuple"
    assert m.classes["P"].fields == [("a", T.I64), ("b", T.STR)]
    assert m.classes["C"].fields == [("v", T.I64)]


@pytest.mark.parametrize("ann, cls, text", [
    ("Tuple", errors.TypeCheckError, "needs element types"),
    ("Dict[int]", errors.TypeCheckError, "key and a value"),
    ("frob", errors.NameResolutionError, "unknown type 'frob'"),
    ("bytes", errors.UnsupportedError, "no bytes"),
    ("Callable[int, int]", errors.TypeCheckError, "Callable[[int, str], float]"),
    ("'List[int'", errors.TypeCheckError, "cannot parse the annotation"),
])
def test_bad_annotations(ann, cls, text):
    with pytest.raises(cls) as ei:
        param_type(ann)
    assert text in ei.value.message and ei.value.line == 3


def test_any_parameters_make_one_instance_per_argument_types():
    m = compile_source(HEADER + "def ident(x: Any) -> Any:\n    return x\n"
                       "def f(n: int, s: str) -> str:\n    return str(ident(n)) + ident(s)\n")
    instances = sorted(str(f.type) for name, f in m.funcs.items() if name.startswith("ident"))
    assert len(instances) == 2 and "ident" not in m.entries
    assert any("(i64) -> i64" in t for t in instances) and any("(str) -> str" in t
                                                               for t in instances)


def test_any_on_a_local_takes_the_values_type():
    text = func_text("def f(n: int) -> Dict[str, Union[int, str]]:\n"
                     "    y: Dict[str, Any] = {'a': n, 'b': 'x'}\n    return y\n")
    assert "dict<str, union<i64, str>>" in text


def test_any_on_a_field_is_a_type_error():
    with pytest.raises(errors.TypeCheckError) as ei:
        compile_source(HEADER + "class B:\n    v: Any\n\n    def __init__(self, n: int):\n"
                       "        self.v = n\n\ndef f(n: int) -> int:\n    return B(n).v\n")
    assert "only supported on the parameters" in ei.value.message


def func_text(src: str, name: str = "f") -> str:
    from ember.ir import print_module
    text = print_module(compile_source(HEADER + src))
    start = text.index(f"func @{name}(")
    return text[start:text.index("\n}", start)]


def test_inferred_return_and_empty_container_defaults():
    m = compile_source("def f(n: int):\n    if n > 0:\n        return None\n    return n\n"
                       "def g():\n    return [], {}\n")
    assert m.funcs["f"].type.ret == T.OptionalType(T.I64)
    assert m.funcs["g"].type.ret == T.TupleType((T.ListType(T.TENSOR),
                                                 T.DictType(T.STR, T.TENSOR)))


def test_annotated_empty_containers_take_the_annotation():
    m = compile_source(HEADER + "def f() -> Dict[str, List[int]]:\n"
                       "    xs: List[int] = []\n    d: Dict[str, List[int]] = {}\n"
                       "    d['a'] = xs\n    return d\n")
    assert m.funcs["f"].type.ret == T.DictType(T.STR, T.ListType(T.I64))


def test_empty_list_argument_takes_the_parameter_type():
    text = func_text("def g(xs: List[int]) -> int:\n    return len(xs)\n"
                     "def f() -> int:\n    return g([]) + len(sorted([]))\n")
    assert "list.new : list<i64>" in text


def test_variable_keeps_its_first_type_and_refines():
    text = func_text("def f(x: Optional[int]) -> int:\n    y: Optional[int] = 3\n"
                     "    if x is not None:\n        return x + y\n    return 0\n")
    assert "narrow %x : i64" in text
