"""IR text: print -> parse -> print is exact; parse errors point at the text."""

from pathlib import Path

import numpy as np
import pytest

import ember.ir as I
from ember.errors import IRParseError
from ember.ir import types as T

HERE = Path(__file__).parent


def roundtrip(text: str) -> str:
    m = I.parse_module(text)
    once = I.print_module(m)
    twice = I.print_module(I.parse_module(once))
    assert once == twice
    return once


def test_sample_roundtrips_and_verifies():
    out = roundtrip((HERE / "sample_structured.ir").read_text())
    I.verify_module(I.parse_module(out))


@pytest.mark.parametrize("text", [
    "i64", "f64", "c128", "bool", "str", "none", "exc", "dtype", "tensor", "tensor<f32>",
    "tensor<c64, [2]>", "list<c128>", "tensor<c128>",
    "tensor<?, [3, ?, N]>", "tensor<f32, []>", "list<list<i64>>", "dict<str, tensor<i64>>",
    "tuple<>", "tuple<i64, str>", "optional<list<f64>>", "union<f64, i64, str>",
    "fn<(i64, f64) -> bool>", "fn<() -> none>", "var<i64>", "!Point",
])
def test_types_roundtrip(text):
    assert str(I.parse_type(text)) == text


def test_union_normalizes():
    assert T.make_union([T.I64, T.NONE]) == T.OptionalType(T.I64)
    assert str(T.make_union([T.STR, T.I64, T.I64])) == "union<i64, str>"
    assert str(T.make_union([T.STR, T.I64, T.NONE])) == "union<i64, none, str>"


def test_constants_roundtrip_exactly():
    values = ["1e+300", "-0.0", "nan", "inf", "-inf", "0.1", "5e-324"]
    body = "\n".join(f"  %v{i} = const {v} : f64" for i, v in enumerate(values))
    text = f"func @f() -> none {{\n{body}\n  %n = const none : none\n  return %n\n}}\n"
    out = roundtrip(text)
    for v in values:
        assert f"const {v} : f64" in out


def test_complex_constants_roundtrip_exactly():
    values = ["complex(1.0, -2.5)", "complex(-0.0, 0.0)", "complex(0.0, -0.0)",
              "complex(nan, inf)", "complex(-inf, 5e-324)", "complex(1e+300, 0.1)"]
    body = "\n".join(f"  %v{i} = const {v} : c128" for i, v in enumerate(values))
    text = f"func @f() -> none {{\n{body}\n  %n = const none : none\n  return %n\n}}\n"
    out = roundtrip(text)
    for v in values:
        assert f"const {v} : c128" in out
    ops = next(iter(I.parse_module(out).funcs.values())).body.ops
    assert repr(ops[1].value) == "(-0+0j)" and repr(ops[2].value) == "-0j"


@pytest.mark.parametrize("text, match", [
    ("complex(1, 2.0)", "a complex part must be a float literal"),
    ("complex(1.0)", "expected ','"),
    ("complex(1.0, 2.0) : f64", "does not have type f64"),
])
def test_bad_complex_constants(text, match):
    if ":" not in text:
        text += " : c128"
    src = f"func @f() -> none {{\n  %v = const {text}\n  %n = const none : none\n  return %n\n}}\n"
    with pytest.raises(Exception, match=match):
        I.verify_module(I.parse_module(src))


def test_string_constants_escape():
    s = 'a"b\\c\n\t\u00e9\ud800'
    m = I.Module()
    f = I.FuncOp("f", T.FunctionType((), T.STR), I.Loc("x.py", 1, 1))
    m.add_func(f)
    b = I.IRBuilder(f.body, I.Loc("x.py", 2, 5))
    v = b.const(s, T.STR)
    b.create("return", [v])
    out = roundtrip(I.print_module(m))
    m2 = I.parse_module(out)
    assert next(iter(m2.funcs.values())).body.ops[0].value == s


def test_names_are_uniqued_and_stable():
    m = I.Module()
    f = I.FuncOp("f", T.FunctionType((T.I64,), T.I64), I.Loc("x.py", 1, 1), ["x"])
    m.add_func(f)
    b = I.IRBuilder(f.body, I.Loc("x.py", 2, 5))
    a = b.const(1, T.I64, name="x")
    c = b.const(2, T.I64, name="x")
    d = b.const(3, T.I64)
    b.create("return", [c])
    out = roundtrip(I.print_module(m))
    assert "%x.1 = const 1" in out and "%x.2 = const 2" in out and "%0 = const 3" in out
    assert a is not c and d is not None


def test_tensor_constants_roundtrip():
    m = I.Module()
    m.add_tensor("w", np.arange(6, dtype=np.float32).reshape(2, 3))
    f = I.FuncOp("f", T.FunctionType((), T.TensorType("f32", (2, 3))), I.Loc("x.py", 1, 1))
    m.add_func(f)
    b = I.IRBuilder(f.body, I.Loc("x.py", 2, 5))
    v = b.const(I.SymbolRef("w"), T.TensorType("f32", (2, 3)))
    b.create("return", [v])
    out = roundtrip(I.print_module(m))
    m2 = I.parse_module(out)
    np.testing.assert_array_equal(m2.tensors["w"].data, m.tensors["w"].data)
    I.verify_module(m2)


def test_classes_roundtrip():
    text = ("class @Point {x: i64, y: f64}\n\nnamedtuple @P {a: str}\n\n"
            "exception @MyErr(ValueError) {}\n\n"
            "func @f(%p: !Point) -> !Point {\n  return %p\n}\n")
    assert roundtrip(text) == text


@pytest.mark.parametrize("text, line, col, match", [
    ("func @f() -> i64 {\n  return %x\n}\n", 2, 10, "undefined value %x"),
    ("func @f() -> i64 {\n  %a = nosuch.op : i64\n}\n", 2, 8, "unknown op"),
    ("func @f() -> i64 {\n  %a = const 1 : i64\n  %a = const 2 : i64\n}\n", 3, 3, "defined twice"),
    ("func @f() -> wat {\n}\n", 1, 14, "unknown type"),
    ("func @f() -> i64 {\n  %a = const 1 : i64, i64\n}\n", 2, 3, "1 results but 2 types"),
    ("func @f( -> i64 {}", 1, 10, "expected"),
    ("func @f() -> i64 {\n  %a = const 1 : i64 $\n}\n", 2, 22, "unexpected character"),
])
def test_parse_errors_point_at_text(text, line, col, match):
    with pytest.raises(IRParseError) as ei:
        I.parse_module(text)
    e = ei.value
    assert (e.line, e.col) == (line, col)
    assert match in e.message
    assert "^" in str(e)
