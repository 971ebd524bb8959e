"""Which operators a fused group (`tensor.fused`, passes/fuse.py) may hold, and their
`out=` twins: the same computation as the operator's kernel, written into a buffer the
caller owns.

A twin `twin(out, *args)` computes exactly what `kernel(*args)` computes, bit for bit, for
arguments whose kernel result has `out`'s dtype and shape (the lite runtime's fused
executor, mobile/fused.py, learns those from one unfused run per call signature). It
returns the array holding the result: `out`, or a fresh array where the twin falls back to
the kernel (a dtype or a mode the twin does not cover). Twins mirror their kernels'
branches line for line (tensor_elementwise, tensor_activation, tensor_math): dtypes come
from the same torch.result_type helpers, and each ufunc runs the same loop, only with
`out=`. tests/unit/ops/test_fusion_twins.py checks every twin against its kernel.

`INPLACE_SAFE` twins may be given an `out` that is their first tensor operand's buffer
(they read it only before writing any element of it, or element by element).
"""

from __future__ import annotations

import math

import numpy as np

from ember.ops import tensor_activation as A
from ember.ops import tensor_math as M
from ember.ops.tensor_common import (
    fit_scalar, float_dtype, operands_dtype, quiet, scalar_dtype, tensors_dtype,
)
from ember.ops.tensor_elementwise import (
    _multiply, _no_bool_sub, _no_complex_extremum, _not_complex,
)

# ----------------------------------------------------------------------------- vocabulary

_BINARY = ("add", "sub", "mul", "truediv", "maximum", "minimum",
           "eq", "ne", "lt", "le", "gt", "ge")
_SCALAR = ("add", "sub", "mul", "truediv", "eq", "ne", "lt", "le", "gt", "ge")
_REFLECTED = ("add", "sub", "mul", "truediv")
_UNARY = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin",
          "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
          "atanh", "reciprocal", "erf", "erfc", "abs", "neg", "sign", "floor", "ceil",
          "trunc", "frac", "square", "round")
_ACTIVATIONS = ("relu", "relu6", "hardtanh", "leaky_relu", "hardsigmoid", "hardswish",
                "silu", "mish", "elu", "selu", "celu", "threshold", "sigmoid", "gelu",
                "softplus", "logsigmoid", "softsign", "tanhshrink", "hardshrink",
                "softshrink")
_OTHER = ("clamp", "clamp_min", "clamp_max", "where", "where_ts", "where_st", "add_alpha",
          "sub_alpha", "isnan", "isinf", "isfinite", "to_float", "to_double", "to_half",
          "to_int", "to_long", "to_short", "to_char", "to_byte", "to_bool")

ELEMENTWISE = frozenset(
    [f"tensor.{n}" for n in _BINARY] + [f"tensor.{n}_scalar" for n in _SCALAR] +
    [f"tensor.r{n}_scalar" for n in _REFLECTED] +
    [f"tensor.{n}" for n in _UNARY + _ACTIVATIONS + _OTHER])
"""Operators computed element by element (with broadcasting and scalar operands): the
body of a fused group. Left out: those that may raise on some element's value
(integer floor division, modulo and powers), so that a fused group raises only where
its first unfused run raised."""

REDUCTIONS = frozenset({"tensor.softmax", "tensor.log_softmax", "tensor.layer_norm"})
"""Operators reducing over the last dimension (given a constant dim of -1, or a
one-element normalized shape) that may end a group."""

PRODUCERS = frozenset({"tensor.linear", "tensor.conv2d"})
"""Operators that may start a group, which then holds their epilogue."""


def kind(name: str) -> str | None:
    """"elementwise", "reduction", "producer", or None for an operator no group holds."""
    if name in ELEMENTWISE:
        return "elementwise"
    if name in REDUCTIONS:
        return "reduction"
    if name in PRODUCERS:
        return "producer"
    return None


def _const(v):
    """(True, value) if IR value v is defined by a scalar `const` op, else (False, None).
    Duck-typed: ember.ops does not import the IR."""
    op = getattr(v, "op", None)
    if op is None or op.name != "const":
        return False, None
    return True, op.attrs.get("value")


def region_op_problem(op) -> str | None:
    """Why IR op `op` may not be part of a fused group (None if it may): an operator no
    group holds, an `inplace` flag that is not the constant False, a reduction that is not
    over the last dimension."""
    if op.name == "const":
        v = op.attrs.get("value")
        ok = v is None or type(v) in (bool, int, float, str)
        return None if ok else "is a constant of a kind a group does not hold"
    k = kind(op.name)
    if k is None:
        return "is not an operator a fused group may hold"
    from ember.ops.registry import get

    params = get(op.name).schema.params
    for p, v in zip(params, op.operands):
        if p.name == "inplace" and _const(v) != (True, False):
            return "needs inplace to be the constant False"
    if op.name in ("tensor.softmax", "tensor.log_softmax"):
        if _const(op.operands[1]) != (True, -1) or _const(op.operands[2]) != (True, None):
            return "must reduce over dim -1 with no dtype"
    return None


# ----------------------------------------------------------------------------- twins


def _binary(ufunc, check=None):
    def twin(out, a, b):
        if check is not None:
            check(out.dtype, a, b)
        return ufunc(a, b, out=out, dtype=out.dtype, casting="unsafe")
    return twin


def _scalar(ufunc, check=None, reflected=False):
    """tensor_elementwise.ts_kernel with out=."""
    def twin(out, a, s):
        if check is None and type(s) is float and a.dtype.kind == "f" and a.ndim:
            return ufunc(s, a, out=out) if reflected else ufunc(a, s, out=out)
        rt = scalar_dtype(a, s)
        if check is not None:
            check(rt, s, a) if reflected else check(rt, a, s)
        if rt == a.dtype:
            s = fit_scalar(s, rt)
            return ufunc(s, a, out=out) if reflected else ufunc(a, s, out=out)
        return ufunc(s, a, out=out, dtype=rt, casting="unsafe") if reflected else \
            ufunc(a, s, out=out, dtype=rt, casting="unsafe")
    return twin


def _truediv(out, a, b):
    with quiet():
        return np.true_divide(a, b, out=out, dtype=out.dtype, casting="unsafe")


def _truediv_scalar(out, a, s):
    rt = float_dtype(scalar_dtype(a, s))
    if s != 0 and rt == a.dtype:
        return np.true_divide(a, s, out=out)
    with quiet():
        return np.true_divide(a, s, out=out, dtype=rt, casting="unsafe")


def _rtruediv_scalar(out, a, s):
    with quiet():
        return np.true_divide(s, a, out=out, dtype=out.dtype, casting="unsafe")


def _compare(ufunc, name):
    ordering = name not in ("eq", "ne")

    def twin(out, a, b):
        if a.dtype != b.dtype:
            rt = tensors_dtype(a, b)
            a, b = a.astype(rt, copy=False), b.astype(rt, copy=False)
        if ordering:
            _not_complex(a.dtype, f"{name}_cpu")
        return ufunc(a, b, out=out)
    return twin


def _compare_scalar(ufunc, name):
    ordering = name not in ("eq", "ne")

    def twin(out, a, s):
        rt = scalar_dtype(a, s)
        if ordering:
            _not_complex(rt, f"{name}_cpu")
        if rt != a.dtype:
            a = a.astype(rt)
        return ufunc(a, fit_scalar(s, rt), out=out)
    return twin


def _float_unary(fn):
    """tensor_math._float_kernel with out=."""
    def twin(out, x):
        with quiet():
            if x.dtype.kind not in "fc":
                x = x.astype(np.float32)
            return fn(x, out=out)
    return twin


def _relu(out, x, inplace):
    if x.dtype.kind == "f":
        return np.clip(x, 0.0, np.inf, out=out)
    if x.dtype == np.bool_:
        raise RuntimeError("relu is not implemented for bool tensors")
    return np.maximum(x, 0, out=out)


def _hardtanh(out, x, lo, hi, inplace=False):
    if lo > hi:
        raise RuntimeError("hardtanh: min_val cannot be greater than max_val")
    if x.dtype.kind != "f" and (isinstance(lo, float) or isinstance(hi, float)):
        lo, hi = int(lo), int(hi)
    return np.clip(x, lo, hi, out=out)


def _relu6(out, x, inplace):
    return _hardtanh(out, x, 0, 6)


def _sigmoid(out, x):
    if x.dtype.kind != "f":
        x = x.astype(np.float32)
    np.multiply(x, 0.5, out=out)
    np.tanh(out, out=out)
    out *= 0.5
    out += 0.5
    return out


def _silu(out, x, inplace):
    _sigmoid(out, x)
    return np.multiply(x, out, out=out)


def _hardsigmoid(out, x, inplace):
    np.multiply(x, 1.0 / 6.0, out=out)
    out += 0.5
    return np.clip(out, 0.0, 1.0, out=out)


def _hardswish(out, x, inplace):
    if x.dtype.kind != "f":
        return A.hardswish(x)
    np.add(x, 3.0, out=out)
    np.clip(out, 0.0, 6.0, out=out)
    out *= 1.0 / 6.0
    return np.multiply(x, out, out=out)


def _leaky_relu(out, x, slope, inplace):
    if x.dtype.kind != "f":
        return A.leaky_relu(x, slope)
    np.clip(x, -np.inf, 0.0, out=out)
    out *= slope - 1.0
    return np.add(x, out, out=out)


def _gelu(out, x, approximate):
    if approximate != "tanh" or x.dtype.kind != "f":
        return A.gelu(x, approximate)
    np.multiply(x, x, out=out)
    out *= 0.044715
    out += 1.0
    out *= x
    out *= math.sqrt(2.0 / math.pi)
    np.tanh(out, out=out)
    out += 1.0
    out *= x
    out *= 0.5
    return out


def _clamp(out, x, lo, hi):
    if lo is None and hi is None or operands_dtype(x, lo, hi) != x.dtype:
        return M.clamp(x, lo, hi)
    return M.clamp(x, lo, hi, out=out)


def _same_dtype(ufunc):
    def twin(out, x):
        return ufunc(x, out=out)
    return twin


def _int_identity(ufunc):
    """tensor_math._same_dtype(ufunc, int_identity=True): ints are copied unchanged."""
    def twin(out, x):
        if x.dtype.kind in "biu":
            np.copyto(out, x)
            return out
        return ufunc(x, out=out)
    return twin


def _twins() -> dict:
    t = {}
    for n, uf, check in (("add", np.add, None), ("sub", np.subtract, _no_bool_sub),
                         ("mul", _multiply, None),
                         ("maximum", np.maximum, _no_complex_extremum("maximum")),
                         ("minimum", np.minimum, _no_complex_extremum("minimum"))):
        t[f"tensor.{n}"] = _binary(uf, check)
    for n, uf, check in (("add", np.add, None), ("sub", np.subtract, _no_bool_sub),
                         ("mul", _multiply, None)):
        t[f"tensor.{n}_scalar"] = _scalar(uf, check)
        t[f"tensor.r{n}_scalar"] = _scalar(uf, check, reflected=True)
    t["tensor.truediv"] = _truediv
    t["tensor.truediv_scalar"] = _truediv_scalar
    t["tensor.rtruediv_scalar"] = _rtruediv_scalar
    for n, uf in (("eq", np.equal), ("ne", np.not_equal), ("lt", np.less),
                  ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal)):
        t[f"tensor.{n}"] = _compare(uf, n)
        t[f"tensor.{n}_scalar"] = _compare_scalar(uf, n)
    for n in ("exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "sin", "cos", "tan",
              "sinh", "cosh", "tanh", "reciprocal"):
        t[f"tensor.{n}"] = _float_unary(M._FLOATING[n])
    t["tensor.exp2"] = _float_unary(M._exp2)
    t["tensor.rsqrt"] = _float_unary(M._rsqrt)
    t["tensor.abs"] = _same_dtype(M._abs)
    t["tensor.neg"] = _same_dtype(M._neg)
    for n, uf in (("floor", np.floor), ("ceil", np.ceil), ("trunc", np.trunc)):
        t[f"tensor.{n}"] = _int_identity(uf)
    t["tensor.square"] = _same_dtype(np.square)
    t.update({"tensor.relu": _relu, "tensor.relu6": _relu6, "tensor.hardtanh": _hardtanh,
              "tensor.sigmoid": _sigmoid, "tensor.silu": _silu,
              "tensor.hardsigmoid": _hardsigmoid, "tensor.hardswish": _hardswish,
              "tensor.leaky_relu": _leaky_relu, "tensor.gelu": _gelu,
              "tensor.clamp": _clamp})
    return t


TWINS = _twins()
"""Operator name -> its out= twin (operators without one run their kernel)."""

INPLACE_SAFE = frozenset(
    [f"tensor.{n}" for n in ("add", "sub", "mul", "maximum", "minimum", "truediv")] +
    [f"tensor.{n}_scalar" for n in ("add", "sub", "mul", "truediv")] +
    [f"tensor.r{n}_scalar" for n in ("add", "sub", "mul", "truediv")] +
    [f"tensor.{n}" for n in ("exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "sin",
                             "cos", "tan", "sinh", "cosh", "tanh", "reciprocal", "abs",
                             "square", "neg", "exp2", "rsqrt", "floor", "ceil", "trunc",
                             "relu", "relu6", "hardtanh", "sigmoid", "hardsigmoid",
                             "clamp")])
"""Twins that may write over their first tensor operand (one ufunc pass, or every pass
after the first reads only `out`). A comparison's bool result never shares a buffer
with its float operand, so comparisons need not be listed."""
