"""Activation functions, shrinkage, GLU, softmax and softmin, as torch.nn.functional defines
them.

Each activation with an `inplace` flag in torch takes it here too: with
inplace=True the kernel overwrites the input and returns it (F.relu(x,
inplace=True), relu_). Kernels make as few passes as numpy allows and write
into the one fresh result array.
"""

from __future__ import annotations

import math

import numpy as np

from ember.ops.tensor_common import (
    F,
    arr,
    as_float_info,
    check_dim,
    float_only_info,
    need_float,
    quiet,
    reg,
    row_sums,
    same_as_first,
)
from ember.ops.tensor_math import erfc
from ember.ops.registry import ShapeMismatch
from ember.ops.tensorinfo import TensorInfo, fmt


def _target(x, inplace, what):
    """Where a float-valued activation writes: x itself, or a fresh float array."""
    if inplace:
        need_float(x, what + "_")
        return x
    return np.empty(x.shape, x.dtype if x.dtype.kind == "f" else np.float32)


# ----------------------------------------------------------------------------- piecewise linear


def relu(x, inplace=False):
    """max(x, 0) (NaN stays NaN)."""
    out = x if inplace else None
    if x.dtype.kind == "f":
        return arr(np.clip(x, 0.0, np.inf, out=out))  # clip beats np.maximum on floats
    if x.dtype == np.bool_:
        raise RuntimeError("relu is not implemented for bool tensors")
    return arr(np.maximum(x, 0, out=out))


def hardtanh(x, lo, hi, inplace=False):
    """clamp(x, min_val, max_val)."""
    if lo > hi:
        raise RuntimeError("hardtanh: min_val cannot be greater than max_val")
    if x.dtype.kind != "f" and (isinstance(lo, float) or isinstance(hi, float)):
        lo, hi = int(lo), int(hi)
    return arr(np.clip(x, lo, hi, out=x if inplace else None))


def relu6(x, inplace=False):
    """min(max(x, 0), 6)."""
    return hardtanh(x, 0, 6, inplace)


def leaky_relu(x, slope, inplace=False):
    """x where x > 0, else negative_slope * x."""
    need_float(x, "leaky_relu")
    neg = np.clip(x, -np.inf, 0.0)
    neg *= slope - 1.0  # x + (slope - 1) * min(x, 0)
    return arr(np.add(x, neg, out=x if inplace else neg))


def threshold(x, th, value, inplace=False):
    """x where x > threshold, else value (NaN stays NaN)."""
    out = x if inplace else x.copy()
    np.copyto(out, np.asarray(value).astype(x.dtype), where=x <= th)
    return out


def prelu(x, weight):
    """x where x >= 0, else weight * x (weight per channel, dim 1)."""
    need_float(x, "prelu")
    w = weight.reshape((-1,) + (1,) * (x.ndim - 2)) if weight.size > 1 and x.ndim > 1 \
        else weight.reshape(())
    return arr(np.where(x >= 0, x, x * w.astype(x.dtype, copy=False)))


# ----------------------------------------------------------------------------- smooth


def sigmoid(x, out=None):
    """1 / (1 + exp(-x)) through tanh (no overflow warnings, two cheap passes)."""
    if x.dtype.kind != "f":
        x = x.astype(np.float32)
    out = arr(np.multiply(x, 0.5, out=out))  # 0-d: a numpy scalar, made an array
    np.tanh(out, out=out)
    out *= 0.5
    out += 0.5
    return arr(out)


def _sigmoid(x):
    return sigmoid(x)


def silu(x, inplace=False):
    """x * sigmoid(x)."""
    s = sigmoid(x)
    return arr(np.multiply(x, s, out=_target(x, inplace, "silu") if inplace else s))


def hardsigmoid(x, inplace=False):
    """clamp(x / 6 + 1/2, 0, 1)."""
    out = _target(x, inplace, "hardsigmoid")
    np.multiply(x, 1.0 / 6.0, out=out)
    out += 0.5
    return arr(np.clip(out, 0.0, 1.0, out=out))


def hardswish(x, inplace=False):
    """x * clamp(x + 3, 0, 6) / 6, in four passes."""
    if x.dtype.kind != "f":
        need_float(x, "hardswish")
    t = np.add(x, 3.0)
    np.clip(t, 0.0, 6.0, out=t)
    t *= 1.0 / 6.0
    return arr(np.multiply(x, t, out=x if inplace else t))


def elu(x, alpha, inplace=False, scale=1.0, input_scale=1.0):
    """x where x > 0, else alpha * (exp(x) - 1) (selu and celu are scaled forms)."""
    need_float(x, "elu")
    with quiet():
        neg = np.clip(x, -np.inf, 0.0)
        if input_scale != 1.0:
            neg *= input_scale
        np.expm1(neg, out=neg)
        neg *= alpha
        out = np.where(x > 0, x, neg)
    if scale != 1.0:
        out *= scale
    if inplace:
        np.copyto(x, out)
        return x
    return arr(out)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def gelu(x, approximate):
    """x * Φ(x) exactly (erf), or its tanh approximation."""
    need_float(x, "gelu")
    if approximate == "tanh":
        inner = x * x
        inner *= 0.044715
        inner += 1.0
        inner *= x
        inner *= math.sqrt(2.0 / math.pi)
        np.tanh(inner, out=inner)
        inner += 1.0
        inner *= x
        inner *= 0.5
        return arr(inner)
    if approximate != "none":
        raise RuntimeError(f"approximate argument must be either none or tanh, got "
                           f"'{approximate}'")
    phi = erfc(-x * (1.0 / math.sqrt(2.0)))
    phi *= x
    phi *= 0.5
    return arr(phi)


def softplus(x, beta, th):
    """log(1 + exp(beta * x)) / beta, linear where beta * x > threshold."""
    need_float(x, "softplus")
    bx = np.multiply(x, beta)
    with quiet():
        soft = np.logaddexp(bx, 0.0)
    if beta != 1:
        soft /= beta
    return arr(np.where(bx > th, x, soft.astype(x.dtype, copy=False)))


def mish(x, inplace=False):
    """x * tanh(softplus(x))."""
    with quiet():
        t = np.tanh(np.logaddexp(x, 0.0).astype(x.dtype, copy=False))
    return arr(np.multiply(x, t, out=x if inplace else t))


def logsigmoid(x):
    """log(sigmoid(x)) = -softplus(-x), stable for large |x|."""
    need_float(x, "logsigmoid")
    return arr(-np.logaddexp(0.0, -x).astype(x.dtype, copy=False))


def softsign(x):
    """x / (1 + |x|)."""
    d = np.abs(x) if x.dtype.kind == "f" else np.abs(x).astype(np.float32)
    d += 1.0
    return arr(np.divide(x, d, out=d))


# ----------------------------------------------------------------------------- softmax


def _softmax_dim(x, dim):
    if dim is None:  # torch's legacy implicit choice
        dim = 0 if x.ndim in (0, 1, 3) else 1
    return check_dim(dim, x.ndim)


_TINY_SUM = 1e-30
"""Row sums of exp(x - global max) above this keep every row's leading terms normal
floats, so the shifted softmax equals the per-row-max one to rounding; else fall back."""

_NO_SHIFT = 40.0
"""Below this global max, float32/64 rows take exp(x) unshifted: exp(40) * any row length
stays far from overflow, and the row sums then show any underflow as a shift would."""


def softmax_last(x):
    """Softmax over the last dim. The shift is the global max (one fast pass instead of a
    per-row reduction, which numpy does slowly for short rows), or none when that max is
    small; rows whose sum underflows (max far below the global one, or all -inf) are
    redone with their own max. No float warning can arise before that fallback:
    x - max <= 0, and the sums divided by are positive."""
    m = float(x.max())
    if math.isfinite(m):
        if m < _NO_SHIFT and x.dtype.itemsize >= 4:
            e = np.exp(x)
        else:
            e = np.subtract(x, m)
            np.exp(e, out=e)
        tot = row_sums(e)
        if tot.min() > _TINY_SUM:
            e /= tot
            return e
    return _softmax_rows(x)


def _softmax_rows(x):
    """Softmax over the last dim shifted by each row's own max."""
    with quiet():
        e = np.subtract(x, x.max(axis=-1, keepdims=True))  # a row of -inf gives nan
        np.exp(e, out=e)
        e /= row_sums(e)
    return e


def softmax(x, dim, dtype=None):
    """exp(x - max) / sum along dim, in four passes over x."""
    if dtype is not None:
        x = x.astype(dtype)
    need_float(x, "softmax")
    dim = _softmax_dim(x, dim)
    if x.ndim == 0:
        return np.ones((), x.dtype)
    if dim == x.ndim - 1:
        return softmax_last(x)
    with quiet():  # a row of -inf gives nan, as in torch
        e = np.subtract(x, x.max(axis=dim, keepdims=True))
        np.exp(e, out=e)
        e /= e.sum(axis=dim, keepdims=True)
    return e


def log_softmax(x, dim, dtype=None):
    """x - max - log(sum(exp(x - max))) along dim."""
    if dtype is not None:
        x = x.astype(dtype)
    need_float(x, "log_softmax")
    dim = _softmax_dim(x, dim)
    if x.ndim == 0:
        return np.zeros((), x.dtype)
    with quiet():
        s = np.subtract(x, x.max(axis=dim, keepdims=True))
        s -= np.log(np.exp(s).sum(axis=dim, keepdims=True))
    return s


def _softmax_info(args):
    dtype = args[2].const if len(args) > 2 and args[2].kind == "dtype" else None
    if dtype is not None:
        return TensorInfo(dtype, args[0].shape)
    return float_only_info("softmax")(args)


# ----------------------------------------------------------------------------- shrinkage, GLU


def hardshrink(x, lambd=0.5):
    """x where |x| > lambd, else 0 (NaN stays NaN)."""
    return arr(np.where(np.abs(x) <= lambd, np.zeros((), x.dtype), x))


def softshrink(x, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""
    need_float(x, "softshrink")
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    out = np.clip(x, -lambd, lambd)
    np.subtract(x, out, out=out)
    return out


def tanhshrink(x):
    """x - tanh(x)."""
    t = np.tanh(x) if x.dtype.kind == "f" else np.tanh(x.astype(np.float32))
    return arr(np.subtract(x, t, out=t))


def glu(x, dim=-1):
    """a * sigmoid(b), where a and b are the halves of x along dim."""
    need_float(x, "glu")
    if x.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = check_dim(dim, x.ndim)
    if x.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size "
                           f"{x.shape[d]}")
    a, b = np.split(x, 2, axis=d)
    return np.multiply(a, _sigmoid(b))


def _glu_info(args):
    x, dim = args[0], args[1].const if len(args) > 1 else -1
    float_only_info("glu")(args)
    if x.shape is None or not isinstance(dim, int) or not -len(x.shape) <= dim < len(x.shape):
        return TensorInfo(x.dtype, None)
    shape = list(x.shape)
    size = shape[dim]
    if isinstance(size, int):
        if size % 2:
            raise ShapeMismatch(f"glu: dimension {dim} of {fmt(x.shape)} has odd size {size}")
        size //= 2
    shape[dim] = size
    return TensorInfo(x.dtype, tuple(shape))


def softmin(x, dim, dtype=None):
    """softmax(-x) along dim."""
    if dtype is not None:
        x = x.astype(dtype)
    need_float(x, "softmin")
    return softmax(np.negative(x), dim)


# ----------------------------------------------------------------------------- registration

def _any_rank(kernel):
    """The kernel for 0-d tensors too: the kernels above compute in place into their
    temporaries (out=), which numpy gives as scalars, not arrays, for 0-d operands; a 0-d
    tensor runs as one element and gets its 0-d result back (or itself, in place)."""
    def run(x, *params):
        if not (isinstance(x, np.ndarray) and x.ndim == 0):
            return kernel(x, *params)
        out = kernel(x.reshape(1), *params)
        if isinstance(out, np.ndarray) and np.shares_memory(out, x):
            return x
        return arr(np.asarray(out).reshape(()))
    run.__doc__ = kernel.__doc__
    return run


def _inplace_form(kernel):
    """The x.act_() form of an activation kernel taking a trailing inplace flag."""
    return lambda x, *params: kernel(x, *params, True)


_INPLACE = "bool inplace=False"
_ACTS = [
    # name, schema params, kernel, python names
    ("relu", "", relu, ("torch.relu", "Tensor.relu", f"{F}.relu"), same_as_first),
    ("relu6", "", relu6, (f"{F}.relu6",), same_as_first),
    ("hardtanh", "float min_val=-1.0, float max_val=1.0, ", hardtanh, (f"{F}.hardtanh",),
     same_as_first),
    ("leaky_relu", "float negative_slope=0.01, ", leaky_relu, (f"{F}.leaky_relu",),
     float_only_info("leaky_relu")),
    ("hardsigmoid", "", hardsigmoid, (f"{F}.hardsigmoid",), as_float_info),
    ("hardswish", "", hardswish, (f"{F}.hardswish",), float_only_info("hardswish")),
    ("silu", "", silu, (f"{F}.silu",), as_float_info),
    ("mish", "", mish, (f"{F}.mish",), float_only_info("mish")),
    ("elu", "float alpha=1.0, ", elu, (f"{F}.elu",), float_only_info("elu")),
    ("selu", "", lambda x, inplace: elu(x, _SELU_ALPHA, inplace, _SELU_SCALE),
     ("torch.selu", f"{F}.selu"), float_only_info("selu")),
    ("celu", "float alpha=1.0, ", lambda x, a, inplace: elu(x, a, inplace, 1.0, 1.0 / a),
     ("torch.celu", f"{F}.celu"), float_only_info("celu")),
    ("threshold", "float threshold, float value, ", threshold,
     ("torch.threshold", f"{F}.threshold"), same_as_first),
]
for _n, _params, _k, _names, _info in _ACTS:
    _k = _any_rank(_k)
    reg(f"tensor.{_n}", f"(Tensor self, {_params}{_INPLACE}) -> Tensor", _k, _names, _info,
        may_raise=True, elementwise=True,
        doc=f"{(_k.__doc__ or _n).strip()} (inplace=True overwrites self)")
    reg(f"tensor.{_n}_", f"(Tensor self{', ' + _params.rstrip(', ') if _params else ''})"
        " -> Tensor",
        _inplace_form(_k),
        (f"torch.{_n}_", f"Tensor.{_n}_", f"{F}.{_n}_"), same_as_first, may_raise=True,
        doc=f"In-place {_n}: overwrites self and returns it.")

reg("tensor.sigmoid", "(Tensor self) -> Tensor", _sigmoid,
    ("torch.sigmoid", "Tensor.sigmoid", f"{F}.sigmoid", "torch.special.expit"), as_float_info,
    elementwise=True, doc="1 / (1 + exp(-x)).")
reg("tensor.sigmoid_", "(Tensor self) -> Tensor",
    lambda x: (need_float(x, "sigmoid_"), sigmoid(x, out=x))[1],
    ("torch.sigmoid_", "Tensor.sigmoid_"), same_as_first, may_raise=True,
    doc="In-place sigmoid.")
reg("tensor.gelu", "(Tensor self, str approximate='none') -> Tensor", _any_rank(gelu),
    (f"{F}.gelu",), float_only_info("gelu"), may_raise=True, elementwise=True,
    doc="x * Φ(x), exact (erf) or with approximate='tanh'.")
reg("tensor.softplus", "(Tensor self, float beta=1.0, float threshold=20.0) -> Tensor",
    softplus, (f"{F}.softplus",), float_only_info("softplus"), may_raise=True,
    doc="log(1 + exp(beta * x)) / beta, linear above the threshold.")
reg("tensor.logsigmoid", "(Tensor self) -> Tensor", logsigmoid, (f"{F}.logsigmoid",),
    float_only_info("logsigmoid"), may_raise=True, doc="log(sigmoid(x)), computed stably.")
reg("tensor.softsign", "(Tensor self) -> Tensor", _any_rank(softsign), (f"{F}.softsign",),
    as_float_info, doc="x / (1 + |x|).")
reg("tensor.prelu", "(Tensor self, Tensor weight) -> Tensor", prelu,
    ("torch.prelu", f"{F}.prelu"), float_only_info("prelu"), may_raise=True,
    doc="x where x >= 0, else weight * x, weight per channel.")
for _n, _k in (("softmax", softmax), ("log_softmax", log_softmax)):
    reg(f"tensor.{_n}", "(Tensor self, int? dim=None, ScalarType? dtype=None) -> Tensor", _k,
        (f"torch.{_n}", f"Tensor.{_n}", f"{F}.{_n}", f"torch.special.{_n}"), _softmax_info,
        may_raise=True, doc=(_k.__doc__ or "").strip())
reg("tensor.softmin", "(Tensor self, int? dim=None, ScalarType? dtype=None) -> Tensor", softmin,
    (f"{F}.softmin",), _softmax_info, may_raise=True, doc="softmax(-x) along dim.")
for _n, _k in (("softmax", softmax), ("log_softmax", log_softmax), ("softmin", softmin)):
    reg(f"tensor.{_n}_stacklevel", "(Tensor self, int? dim=None, int _stacklevel=3, "
        "ScalarType? dtype=None) -> Tensor", (lambda k: lambda x, d, s, dt: k(x, d, dt))(_k),
        (f"{F}.{_n}",), lambda a: _softmax_info([a[0], a[1], a[3]]), may_raise=True,
        doc=f"F.{_n} called with its Python signature's positional _stacklevel (unused)")
for _n, _k in (("hardshrink", hardshrink), ("softshrink", softshrink)):
    reg(f"tensor.{_n}", "(Tensor self, float lambd=0.5) -> Tensor", _any_rank(_k),
        (f"torch.{_n}", f"Tensor.{_n}", f"{F}.{_n}"),
        same_as_first if _n == "hardshrink" else float_only_info(_n), may_raise=True,
        elementwise=True)
reg("tensor.tanhshrink", "(Tensor self) -> Tensor", _any_rank(tanhshrink), (f"{F}.tanhshrink",),
    as_float_info, elementwise=True)
reg("tensor.glu", "(Tensor self, int dim=-1) -> Tensor", glu, ("torch.glu", f"{F}.glu"),
    _glu_info, may_raise=True)
