"""Shape functions without torch: exact result types through the compiler, symbolic
dims, and compile-time ShapeErrors only for mismatches that can be proven."""

from __future__ import annotations

import pytest

from ember import errors, ops
from ember.frontend import compile_source
from ember.ir import print_module, verify_module
from ember.ops.tensorinfo import (
    ArgInfo,
    TensorInfo,
    broadcast,
    infer_result_type,
    promote_types,
    result_type,
)

HEAD = "from typing import List\nimport torch\nimport torch.nn.functional as F\n"


def ir(body: str, params: str = "") -> str:
    m = compile_source(HEAD + f"def f({params}):\n" + body, "t.py")
    verify_module(m)
    return print_module(m)


def result_of(expr: str, setup: str = "", params: str = "") -> str:
    """The IR type of `expr` (the function's return type)."""
    text = ir(setup + f"    return {expr}\n", params)
    line = next(x for x in text.splitlines() if x.startswith("export func @f"))
    return line.split("-> ")[1].rstrip(" {")


def t(x: str) -> str:
    return f"tensor<{x}>"


@pytest.mark.parametrize("expr,want", [
    ("torch.zeros(3, 4, dtype=torch.int32) + 0.5", "f32, [3, 4]"),
    ("torch.zeros(3, dtype=torch.int64) / torch.ones(3, dtype=torch.int64)", "f32, [3]"),
    ("torch.zeros(2, dtype=torch.bool) + 1", "i64, [2]"),
    ("torch.zeros(2, 3) > torch.zeros(3)", "bool, [2, 3]"),
    ("torch.zeros(2, 3) + torch.zeros(3, dtype=torch.float64)", "f64, [2, 3]"),
    ("torch.zeros(2, 3) + torch.tensor(1.0, dtype=torch.float64)", "f32, [2, 3]"),
    ("torch.zeros(2, dtype=torch.float16) + torch.zeros(2, dtype=torch.int64)", "f16, [2]"),
    ("torch.zeros(2, dtype=torch.uint8) + torch.zeros(2, dtype=torch.int8)", "i16, [2]"),
    ("torch.zeros(2, 3, dtype=torch.int32).sum()", "i64, []"),
    ("torch.zeros(2, 3, 4).sum(1, keepdim=True)", "f32, [2, 1, 4]"),
    ("torch.zeros(2, 3, 4).mean([0, -1])", "f32, [3]"),
    ("torch.zeros(2, 3, 4).amax((0, 2), True)", "f32, [1, 3, 1]"),
    ("torch.zeros(2, 3).argmax(1)", "i64, [2]"),
    ("torch.zeros(2, 3).std(0, False, True)", "f32, [1, 3]"),
    ("torch.zeros(6, 4).view(-1, 8)", "f32, [3, 8]"),
    ("torch.zeros((6, 4)).reshape((2, -1))", "f32, [2, 12]"),
    ("torch.zeros(2, 3, 4).permute(2, 0, 1)", "f32, [4, 2, 3]"),
    ("torch.zeros(2, 3, 4).transpose(0, -1)", "f32, [4, 3, 2]"),
    ("torch.flatten(torch.zeros(2, 3, 4), 1)", "f32, [2, 12]"),
    ("torch.zeros(2, 3).unsqueeze(-1)", "f32, [2, 3, 1]"),
    ("torch.zeros(2, 1, 3).squeeze(1)", "f32, [2, 3]"),
    ("torch.zeros(3, 1).expand(2, -1, 4)", "f32, [2, 3, 4]"),
    ("torch.zeros(2, 3).repeat(2, 1, 2)", "f32, [2, 2, 6]"),
    ("torch.cat([torch.zeros(2, 3), torch.zeros(5, 3)])", "f32, [7, 3]"),
    ("torch.stack([torch.zeros(2, 3), torch.zeros(2, 3)], -1)", "f32, [2, 3, 2]"),
    ("torch.zeros(4, 5, 6)[1:, None, ::2]", "f32, [3, 1, 3, 6]"),
    ("torch.zeros(4, 5, 6)[:, 1:4:2, -2:]", "f32, [4, 2, 2]"),
    ("torch.zeros(4, 5, 6)[..., -1]", "f32, [4, 5]"),
    ("torch.zeros(4, 5)[2]", "f32, [5]"),
    ("torch.zeros(4, 5) @ torch.zeros(5)", "f32, [4]"),
    ("torch.zeros(7, 4, 5) @ torch.zeros(5, 2)", "f32, [7, 4, 2]"),
    ("F.linear(torch.zeros(8, 784), torch.zeros(256, 784))", "f32, [8, 256]"),
    ("F.conv2d(torch.zeros(1, 3, 32, 32), torch.zeros(16, 3, 3, 3), None, 2, 1)",
     "f32, [1, 16, 16, 16]"),
    ("F.conv2d(torch.zeros(1, 4, 9, 9), torch.zeros(8, 1, 3, 3), padding='same', groups=4)",
     "f32, [1, 8, 9, 9]"),
    ("F.conv1d(torch.zeros(2, 4, 17), torch.zeros(6, 4, 3), None, 2, 1, 2)",
     "f32, [2, 6, 8]"),
    ("F.max_pool2d(torch.zeros(1, 2, 9, 9), 2, ceil_mode=True)", "f32, [1, 2, 5, 5]"),
    ("F.avg_pool2d(torch.zeros(1, 2, 9, 9), 3, 2, 1)", "f32, [1, 2, 5, 5]"),
    ("F.adaptive_avg_pool2d(torch.zeros(1, 2, 9, 9), (3, None))", "f32, [1, 2, 3, 9]"),
    ("F.embedding(torch.zeros(2, 5, dtype=torch.int64), torch.zeros(10, 4))", "f32, [2, 5, 4]"),
    ("torch.arange(5)", "i64, [?]"),
    ("torch.arange(0.0, 1.0, 0.25)", "f32, [?]"),
    ("torch.tensor([1, 2, 3])", "i64, [3]"),
    ("torch.full((2, 2), True)", "bool, [2, 2]"),
    ("torch.zeros(3).long().float()", "f32, [3]"),
    ("F.softmax(torch.zeros(2, 3), -1)", "f32, [2, 3]"),
    ("torch.where(torch.zeros(3) > 0, torch.zeros(2, 1, dtype=torch.int32), 0.5)",
     "f32, [2, 3]"),
])
def test_result_types(expr, want):
    assert result_of(expr) == t(want)


def test_tuple_results():
    text = ir("    v, i = torch.zeros(2, 3).max(1, True)\n    return i\n")
    assert "-> tensor<i64, [2, 1]>" in text
    text = ir("    out, h, c = torch.lstm(x, [], w, True, 2, 0.0, False, True, True)\n"
              "    return out\n", "x: torch.Tensor, w: List[torch.Tensor]")
    assert "tensor.lstm" in text


@pytest.mark.parametrize("body,line,what", [
    ("    a = torch.zeros(3)\n    return a + torch.zeros(4)\n", 6, "broadcast"),
    ("    return torch.cat([torch.zeros(2, 3), torch.zeros(2, 4)], 0)\n", 5, "differs"),
    ("    return torch.zeros(3, 4).view(5, 3)\n", 5, "12 elements"),
    ("    return torch.zeros(3, 4) @ torch.ones(5, 6)\n", 5, "inner dimensions"),
    ("    return F.linear(torch.zeros(2, 3), torch.zeros(4, 5))\n", 5, "features"),
    ("    return F.conv2d(torch.zeros(1, 3, 8, 8), torch.zeros(4, 2, 3, 3))\n", 5, "channels"),
    ("    return torch.zeros(3)[5]\n", 5, "out of bounds"),
    ("    return torch.arange(5).mean()\n", 5, "floating point"),
    ("    return torch.zeros(2, 3).permute(1, 1)\n", 5, "permute"),
    ("    return torch.stack([torch.zeros(2), torch.zeros(3)])\n", 5, "equal shape"),
    ("    return torch.zeros(2, 3).sum(2)\n", 5, "out of range"),
    ("    return torch.zeros(2, 3) @ torch.zeros(3, 2, dtype=torch.float64)\n", 5, "dtypes"),
])
def test_proven_mismatches_are_shape_errors_at_the_line(body, line, what):
    with pytest.raises(errors.ShapeError) as ei:
        compile_source(HEAD + "def f():\n" + body, "t.py")
    assert ei.value.line == line
    assert what in str(ei.value)


@pytest.mark.parametrize("body", [
    "    return torch.cat([x, torch.zeros(2, 3)], 0)\n",
    "    return x @ torch.zeros(5, 6)\n",
    "    return x + torch.zeros(4)\n",
    "    return x.view(5, 3)\n",
    "    return F.conv2d(x, torch.zeros(4, 2, 3, 3))\n",
    "    return x[5]\n",
    "    return x.mean()\n",
])
def test_unknown_shapes_never_raise(body):
    ir(body, "x: torch.Tensor")


# ----------------------------------------------------------------------------- shape functions


def tensor(dtype, *shape):
    return ArgInfo(dtype, tuple(shape), None, True, "tensor")


def const(v, kind=None):
    return ArgInfo(None, None, v, False, kind or type(v).__name__)


def test_symbolic_dims_flow_through():
    x = tensor("float32", "N", 784)
    w = tensor("float32", 256, 784)
    assert ops.get("tensor.linear").shape_fn([x, w, const(None, "none")]) == \
        TensorInfo("float32", ("N", 256))
    assert broadcast(("N", 3), (1, 3)) == ("N", 3)
    assert broadcast(("N", 3), ("M", 3)) == (None, 3)
    assert broadcast((None, 3), (5, 1)) == (5, 3)
    conv = ops.get("tensor.conv2d").shape_fn(
        [tensor("float32", "N", 3, 32, 32), tensor("float32", 8, 3, 3, 3), const(None, "none"),
         const(1), const(1), const(1), const(1)])
    assert conv == TensorInfo("float32", ("N", 8, 32, 32))
    view = ops.get("tensor.view").shape_fn([tensor("float32", "N", 4), const([-1, 2])])
    assert view == TensorInfo("float32", (None, 2))
    red = ops.get("tensor.sum").shape_fn([tensor("int32", "N", 4), const(1), const(True),
                                          const(None, "none")])
    assert red == TensorInfo("int64", ("N", 1))


def test_promotion_rules():
    # torch's documented rules (torch.result_type / torch.promote_types)
    assert promote_types("uint8", "int8") == "int16"
    assert promote_types("float16", "int64") == "float16"
    assert promote_types("bool", "uint8") == "uint8"
    assert result_type(["int32"], [], ["float"]) == "float32"
    assert result_type(["bool"], [], ["int"]) == "int64"
    assert result_type(["float32"], ["float64"]) == "float32"
    assert result_type(["int32"], ["float64"]) == "float64"
    assert result_type(["uint8"], ["int64"]) == "uint8"
    assert result_type([], ["int32", "float16"], ["float"]) == "float16"
    # an unknown rank leaves the dtype open exactly when it matters
    unknown = ArgInfo("float64", None, None, True)
    assert infer_result_type([tensor("float32", 3), unknown]) is None
    assert infer_result_type([tensor("float64", 3), unknown]) == "float64"


def test_every_tensor_operator_is_documented_and_typed():
    for d in ops.all_ops():
        if not d.name.startswith("tensor."):
            continue
        assert d.doc, d.name
        assert all(p.name.isidentifier() for p in d.schema.params), d.schema
        returns_tensors = "Tensor" in str(d.schema.ret) and d.schema.ret.name != "List"
        assert d.shape_fn is not None or not returns_tensors, d.name


@pytest.mark.parametrize("expr,want", [
    ("F.pad(torch.zeros(1, 2, 5, 6), (1, 2, 0, 3))", "f32, [1, 2, 8, 9]"),
    ("F.pad(torch.zeros(1, 2, 5, 6), [-1, 1])", "f32, [1, 2, 5, 6]"),
    ("F.interpolate(torch.zeros(1, 2, 5, 6), scale_factor=2.0)", "f32, [1, 2, 10, 12]"),
    ("F.interpolate(torch.zeros(1, 2, 5), size=9, mode='linear')", "f32, [1, 2, 9]"),
])
def test_resize_result_types(expr, want):
    assert result_of(expr) == t(want)
