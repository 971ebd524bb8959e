"""Tensor typing: shape functions give result types, mismatches are ShapeErrors, indexing
and varargs sizes lower to the tensor operators' contracts."""

from __future__ import annotations

import pytest

from ember import errors, ops
from ember.frontend import compile_source
from ember.ir import parse_module, print_module, verify_module

for _m in ("tensor_elementwise", "tensor_shape", "tensor_reduce", "tensor_nn"):
    pytest.importorskip(f"ember.ops.{_m}")

pytestmark = pytest.mark.skipif("tensor.index" not in ops.REGISTRY,
                                reason="the tensor operators are not registered")


def ok(src: str) -> str:
    m = compile_source("import torch\nimport torch.nn.functional as F\n" + src, "t.py")
    verify_module(m)
    text = print_module(m)
    assert print_module(parse_module(text)) == text
    return text


def test_creation_and_shape_functions():
    text = ok("def f() -> torch.Tensor:\n    a = torch.zeros(3, 4, dtype=torch.float64)\n"
              "    return a @ torch.ones(4, 2, dtype=torch.float64)\n")
    assert "tensor.zeros" in text and ": tensor<f64, [3, 4]>" in text
    assert "tensor.matmul" in text and ": tensor<f64, [3, 2]>" in text


def test_matmul_shape_mismatch_is_a_shape_error():
    with pytest.raises(errors.ShapeError) as ei:
        compile_source("import torch\ndef h(n: int):\n    a = torch.zeros(3, 4)\n"
                       "    b = torch.ones(5, 6)\n    return a @ b\n", "t.py")
    assert ei.value.line == 5


def test_varargs_sizes_are_packed():
    text = ok("def f(x: torch.Tensor) -> torch.Tensor:\n    return x.view(2, -1).permute(1, 0)\n")
    assert "tensor.view" in text and "tensor.permute" in text
    assert text.count("list.new") == 2


def test_reduction_dims_are_not_varargs():
    # torch reads x.sum(1, True) as dim=1, keepdim=True (sum takes no varargs dims)
    text = ok("def f(x: torch.Tensor) -> torch.Tensor:\n    return x.sum(1, True)\n")
    assert "list.new" not in text and "const true" in text


def test_scalar_operands():
    text = ok("def f(x: torch.Tensor) -> torch.Tensor:\n    return 2.0 * x + 1\n")
    assert "tensor.add_scalar" in text


def test_indexing_spec():
    text = ok("def f(x: torch.Tensor, i: int) -> torch.Tensor:\n"
              "    y = x[i, 1:3, None, ...]\n    x[0, :] = 5.0\n    x[1] = y\n    return y\n")
    assert 'const "i,s110,n,e" : str' in text
    assert 'const "i,s000" : str' in text and "tensor.index_put_scalar" in text
    assert "tensor.index_put " in text


def test_refined_tensor_variables_keep_type_tensor():
    text = ok("def g(x: torch.Tensor, n: int):\n    y = torch.zeros(3, 4)\n"
              "    for i in range(n):\n        y = y @ x\n    z = torch.ones(2)\n"
              "    if n > 2:\n        z = torch.ones(5, 5)\n    return y, z\n")
    assert "-> tuple<tensor, tensor<f32>>" in text


def test_tensor_scalars_and_properties():
    text = ok("def f(x: torch.Tensor) -> float:\n"
              "    return float(x.sum()) + x.shape[0] + len(x) + x.size(1) + abs(x).dim()\n")
    for name in ("tensor.float_value", "tensor.size ", "tensor.len", "tensor.size_dim",
                 "tensor.dim"):
        assert name in text


def test_functional_calls_with_keywords():
    text = ok("def f(x: torch.Tensor) -> torch.Tensor:\n    return F.softmax(x, dim=-1)\n")
    assert "tensor.softmax" in text


def test_iterating_a_tensor_gives_rows_typed_from_its_type():
    text = print_module(compile_source(
        "import torch\ndef f(x: torch.Tensor) -> int:\n    n = 0\n"
        "    for r in torch.zeros(3, 4).long():\n        n += len(r.tolist())\n"
        "    return n\n"))
    assert "tensor.iter_len" in text and "tensor.select" in text
    assert "tensor.tolist_int_1" in text
