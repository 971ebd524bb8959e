"""Elementwise tensor operators: arithmetic, comparisons, math, activations.

Kernels follow torch's dtype rules (an int tensor with a float scalar is
float32; true division of ints is float32) and keep float32 float32.
"""

from __future__ import annotations

import math

import numpy as np

from ember.ops.tensor_common import (
    as_float,
    as_float_info,
    binary_info,
    compare_info,
    div_info,
    match_dtypes,
    reg,
    same_as_first,
    with_scalar,
)
from ember.ops.tensorinfo import TensorInfo, broadcast, promote

# ----------------------------------------------------------------------------- arithmetic


def _tt(fn):
    def kernel(a, b):
        if a.dtype != b.dtype:
            a, b = match_dtypes(a, b)
        return fn(a, b)
    return kernel


def _ts(fn):
    def kernel(a, s):
        return fn(with_scalar(a, s), s)
    return kernel


def _rts(fn):
    def kernel(a, s):
        return fn(s, with_scalar(a, s))
    return kernel


def _div(a, b):
    return np.true_divide(as_float(a), b if not isinstance(b, np.ndarray) else as_float(b))


_ARITH = [("add", np.add, True), ("sub", np.subtract, False), ("mul", np.multiply, True),
          ("floordiv", np.floor_divide, False), ("mod", np.remainder, False),
          ("pow", np.power, False)]
for _n, _fn, _comm in _ARITH:
    reg(f"tensor.{_n}", "(Tensor self, Tensor other) -> Tensor", _tt(_fn),
        (f"Tensor.__{_n}__", f"torch.{_n}" if _n not in ("floordiv", "mod") else
         ("torch.floor_divide" if _n == "floordiv" else "torch.remainder"), f"Tensor.{_n}"),
        shape=binary_info, elementwise=True, commutative=_comm)
    reg(f"tensor.{_n}_scalar", "(Tensor self, Scalar other) -> Tensor", _ts(_fn),
        (f"Tensor.__{_n}__", f"torch.{_n}", f"Tensor.{_n}"), shape=binary_info,
        elementwise=True)
    reg(f"tensor.r{_n}_scalar", "(Tensor self, Scalar other) -> Tensor", _rts(_fn),
        (f"Tensor.__r{_n}__",), shape=binary_info, elementwise=True)
reg("tensor.truediv", "(Tensor self, Tensor other) -> Tensor", lambda a, b: _div(a, b),
    ("Tensor.__truediv__", "torch.div", "Tensor.div", "torch.true_divide"), shape=div_info,
    elementwise=True)
reg("tensor.truediv_scalar", "(Tensor self, Scalar other) -> Tensor",
    lambda a, s: np.true_divide(as_float(a), s), ("Tensor.__truediv__", "torch.div",
                                                  "Tensor.div"), shape=div_info,
    elementwise=True)
reg("tensor.rtruediv_scalar", "(Tensor self, Scalar other) -> Tensor",
    lambda a, s: np.true_divide(s, as_float(a)), ("Tensor.__rtruediv__",), shape=div_info,
    elementwise=True)
def matmul_info(args):
    """torch.matmul's shape rules; a known inner-dimension clash is a ShapeMismatch."""
    from ember.ops.registry import ShapeMismatch
    from ember.ops.tensorinfo import fmt, same_dim
    a, b = args[0], args[1]
    dtype = promote(a.dtype, b.dtype)
    if a.shape is None or b.shape is None or not a.shape or not b.shape:
        return TensorInfo(dtype, None)
    k1 = a.shape[-1]
    k2 = b.shape[-2] if len(b.shape) >= 2 else b.shape[0]
    if same_dim(k1, k2) is False:
        raise ShapeMismatch(f"matmul of {fmt(a.shape)} and {fmt(b.shape)}: inner dimensions "
                            f"{k1} and {k2} differ")
    if len(a.shape) == 1 and len(b.shape) == 1:
        return TensorInfo(dtype, ())
    if len(b.shape) == 1:
        return TensorInfo(dtype, a.shape[:-1])
    if len(a.shape) == 1:
        return TensorInfo(dtype, b.shape[:-2] + b.shape[-1:])
    batch = broadcast(a.shape[:-2], b.shape[:-2], "broadcast the batch dimensions of")
    return TensorInfo(dtype, batch + (a.shape[-2], b.shape[-1]))


reg("tensor.matmul", "(Tensor self, Tensor other) -> Tensor", _tt(np.matmul),
    ("Tensor.__matmul__", "torch.matmul", "Tensor.matmul", "torch.mm", "Tensor.mm",
     "torch.bmm", "Tensor.bmm"), shape=matmul_info)
reg("tensor.neg", "(Tensor self) -> Tensor", np.negative, ("Tensor.__neg__", "torch.neg",
                                                           "Tensor.neg"), shape=same_as_first)
reg("tensor.pos", "(Tensor self) -> Tensor", lambda a: a, ("Tensor.__pos__",),
    shape=same_as_first)
reg("tensor.invert", "(Tensor self) -> Tensor", np.invert, ("Tensor.__invert__",
                                                            "torch.logical_not_bool"),
    shape=same_as_first)

# ----------------------------------------------------------------------------- comparisons

for _n, _fn in [("eq", np.equal), ("ne", np.not_equal), ("lt", np.less),
                ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal)]:
    reg(f"tensor.{_n}", "(Tensor self, Tensor other) -> Tensor", _tt(_fn),
        (f"Tensor.__{_n}__", f"torch.{_n}", f"Tensor.{_n}"), shape=compare_info)
    reg(f"tensor.{_n}_scalar", "(Tensor self, Scalar other) -> Tensor", _fn,
        (f"Tensor.__{_n}__", f"torch.{_n}", f"Tensor.{_n}"), shape=compare_info)

for _n, _fn in [("and", np.logical_and), ("or", np.logical_or), ("xor", np.logical_xor)]:
    reg(f"tensor.logical_{_n}", "(Tensor self, Tensor other) -> Tensor", _fn,
        (f"torch.logical_{_n}", f"Tensor.logical_{_n}", f"Tensor.__{_n}__"),
        shape=compare_info)
reg("tensor.logical_not", "(Tensor self) -> Tensor", np.logical_not,
    ("torch.logical_not", "Tensor.logical_not"),
    shape=lambda a: TensorInfo("bool", a[0].shape))


def _where_info(args):
    c, a, b = args
    shape = broadcast(broadcast(c.shape, a.shape), b.shape) if a.is_tensor and b.is_tensor \
        else None
    return TensorInfo(promote(a.dtype, b.dtype) if b.is_tensor else a.dtype, shape)


reg("tensor.where", "(Tensor condition, Tensor self, Tensor other) -> Tensor",
    lambda c, a, b: np.where(c, *match_dtypes(a, b)), ("torch.where",), shape=_where_info)
reg("tensor.where_scalar", "(Tensor condition, Tensor self, Scalar other) -> Tensor",
    lambda c, a, s: np.where(c, a, np.asarray(s, dtype=a.dtype)), ("torch.where",),
    shape=lambda a: TensorInfo(a[1].dtype, broadcast(a[0].shape, a[1].shape)))
reg("tensor.maximum", "(Tensor self, Tensor other) -> Tensor", _tt(np.maximum),
    ("torch.maximum", "torch.max", "Tensor.maximum"), shape=binary_info)
reg("tensor.minimum", "(Tensor self, Tensor other) -> Tensor", _tt(np.minimum),
    ("torch.minimum", "torch.min", "Tensor.minimum"), shape=binary_info)


def _clamp(x, lo, hi):
    if lo is None and hi is None:
        return x
    return np.clip(as_float(x) if x.dtype.kind != "f" else x, lo, hi)


reg("tensor.clamp", "(Tensor self, float? min=None, float? max=None) -> Tensor", _clamp,
    ("torch.clamp", "Tensor.clamp", "torch.clip", "Tensor.clip"), shape=same_as_first)

# ----------------------------------------------------------------------------- math


def _unary_float(fn):
    def kernel(x):
        return fn(as_float(x))
    return kernel


_MATH = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos,
         "tanh": np.tanh, "log1p": np.log1p, "expm1": np.expm1, "log2": np.log2,
         "tan": np.tan, "atan": np.arctan, "asin": np.arcsin, "acos": np.arccos}
for _n, _fn in _MATH.items():
    reg(f"tensor.{_n}", "(Tensor self) -> Tensor", _unary_float(_fn),
        (f"torch.{_n}", f"Tensor.{_n}"), shape=as_float_info)
reg("tensor.rsqrt", "(Tensor self) -> Tensor", lambda x: 1.0 / np.sqrt(as_float(x)),
    ("torch.rsqrt", "Tensor.rsqrt"), shape=as_float_info)
reg("tensor.abs", "(Tensor self) -> Tensor", np.abs, ("torch.abs", "Tensor.abs",
                                                      "Tensor.__abs__"), shape=same_as_first)
for _n, _fn in [("floor", np.floor), ("ceil", np.ceil), ("round", np.round),
                ("trunc", np.trunc), ("sign", np.sign)]:
    reg(f"tensor.{_n}", "(Tensor self) -> Tensor", _fn, (f"torch.{_n}", f"Tensor.{_n}"),
        shape=same_as_first)
reg("tensor.square", "(Tensor self) -> Tensor", np.square, ("torch.square", "Tensor.square"),
    shape=same_as_first)
reg("tensor.reciprocal", "(Tensor self) -> Tensor", lambda x: 1.0 / as_float(x),
    ("torch.reciprocal", "Tensor.reciprocal"), shape=as_float_info)

# ----------------------------------------------------------------------------- activations


def _sigmoid(x):
    x = as_float(x)
    return (0.5 * (1.0 + np.tanh(0.5 * x))).astype(x.dtype, copy=False)


def _erf(x):
    """erf, vectorized (numpy has none): Abramowitz-Stegun 7.1.26 in float64 (|err| < 1.5e-7)."""
    t64 = np.asarray(x, dtype=np.float64)
    s = np.sign(t64)
    a = np.abs(t64)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-a * a)
    return s * y


def _gelu(x, approximate):
    x = as_float(x)
    if approximate == "tanh":
        c = math.sqrt(2.0 / math.pi)
        out = 0.5 * x * (1.0 + np.tanh(c * (x + 0.044715 * x * x * x)))
    else:
        out = 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))
    return out.astype(x.dtype, copy=False)


def _softmax(x, dim):
    x = as_float(x)
    e = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


def _log_softmax(x, dim):
    x = as_float(x)
    shifted = x - np.max(x, axis=dim, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))


def _softplus(x, beta, threshold):
    x = as_float(x)
    bx = beta * x
    return np.where(bx > threshold, x, np.log1p(np.exp(np.minimum(bx, threshold))) / beta
                    ).astype(x.dtype, copy=False)


def _elu(x, alpha):
    x = as_float(x)
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0))).astype(x.dtype, copy=False)


_F = "torch.nn.functional"
reg("tensor.relu", "(Tensor self) -> Tensor", lambda x: np.maximum(x, 0),
    ("torch.relu", f"{_F}.relu", "Tensor.relu"), shape=same_as_first, elementwise=True)
reg("tensor.relu6", "(Tensor self) -> Tensor", lambda x: np.clip(x, 0, 6),
    (f"{_F}.relu6",), shape=same_as_first, elementwise=True)
reg("tensor.leaky_relu", "(Tensor self, float negative_slope=0.01) -> Tensor",
    lambda x, s: np.where(x >= 0, x, x * np.asarray(s, dtype=x.dtype)),
    (f"{_F}.leaky_relu",), shape=same_as_first, elementwise=True)
reg("tensor.hardtanh", "(Tensor self, float min_val=-1.0, float max_val=1.0) -> Tensor",
    lambda x, lo, hi: np.clip(x, lo, hi), (f"{_F}.hardtanh",), shape=same_as_first)
reg("tensor.sigmoid", "(Tensor self) -> Tensor", _sigmoid,
    ("torch.sigmoid", f"{_F}.sigmoid", "Tensor.sigmoid"), shape=as_float_info, elementwise=True)
reg("tensor.tanh_act", "(Tensor self) -> Tensor", lambda x: np.tanh(as_float(x)),
    (f"{_F}.tanh",), shape=as_float_info, elementwise=True)
reg("tensor.gelu", "(Tensor self, str approximate='none') -> Tensor", _gelu,
    (f"{_F}.gelu",), shape=as_float_info, elementwise=True)
reg("tensor.silu", "(Tensor self) -> Tensor", lambda x: as_float(x) * _sigmoid(x),
    (f"{_F}.silu",), shape=as_float_info, elementwise=True)
reg("tensor.hardswish", "(Tensor self) -> Tensor",
    lambda x: x * (np.clip(x + 3.0, 0.0, 6.0) / 6.0).astype(x.dtype, copy=False),
    (f"{_F}.hardswish",), shape=same_as_first, elementwise=True)
reg("tensor.hardsigmoid", "(Tensor self) -> Tensor",
    lambda x: (np.clip(x + 3.0, 0.0, 6.0) / 6.0).astype(x.dtype, copy=False),
    (f"{_F}.hardsigmoid",), shape=same_as_first, elementwise=True)
reg("tensor.elu", "(Tensor self, float alpha=1.0) -> Tensor", _elu, (f"{_F}.elu",),
    shape=as_float_info, elementwise=True)
reg("tensor.softplus", "(Tensor self, float beta=1.0, float threshold=20.0) -> Tensor",
    _softplus, (f"{_F}.softplus",), shape=as_float_info, elementwise=True)
reg("tensor.softmax", "(Tensor self, int dim) -> Tensor", _softmax,
    ("torch.softmax", f"{_F}.softmax", "Tensor.softmax"), shape=as_float_info)
reg("tensor.log_softmax", "(Tensor self, int dim) -> Tensor", _log_softmax,
    ("torch.log_softmax", f"{_F}.log_softmax", "Tensor.log_softmax"), shape=as_float_info)
reg("tensor.erf", "(Tensor self) -> Tensor",
    lambda x: _erf(x).astype(as_float(x).dtype, copy=False), ("torch.erf", "Tensor.erf"),
    shape=as_float_info)
