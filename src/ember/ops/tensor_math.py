"""Elementwise unary math on tensors (exp, log, sqrt, trig, rounding, erf, ...) and clamp.

Transcendental functions of int/bool tensors give float32, as in torch; rounding
functions of int tensors return them unchanged. Each has an in-place form
(`exp_`, `floor_`, `clamp_`) that stores into self and returns it.
"""

from __future__ import annotations

import math

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import (
    arr,
    as_float_info,
    binary_info,
    float_dtype,
    operands_dtype,
    quiet,
    reg,
    same_as_first,
    tensors_dtype,
)
from ember.ops.tensorinfo import TensorInfo, broadcast, infer_result_type

# ----------------------------------------------------------------------------- erf


def _erfc_nonneg(z: np.ndarray) -> np.ndarray:
    """erfc(z) for z >= 0 in float64, relative error < 1.2e-7 (Numerical Recipes' erfcc)."""
    t = 1.0 / (1.0 + 0.5 * z)
    p = 0.17087277
    for c in (-0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806, 0.09678418,
              0.37409196, 1.00002368):
        p = p * t + c
    return t * np.exp(p * t - z * z - 1.26551223)


def _erf_series(x: np.ndarray) -> np.ndarray:
    """erf(x) for |x| <= 0.5 by its Maclaurin series (8 terms, error < 1e-12)."""
    x2 = x * x
    term, total = x, x.copy()
    for n in range(1, 8):
        term = term * (-x2) / n
        total += term / (2 * n + 1)
    return total * (2.0 / math.sqrt(math.pi))


def erf(x: np.ndarray) -> np.ndarray:
    """Vectorized erf (numpy has none), computed in float64, result in x's float dtype."""
    dt = float_dtype(x.dtype)
    x64 = x.astype(np.float64)
    if dt == np.float64:  # the approximation is float32-accurate; libm's erf is exact
        return arr(np.asarray(_ERF64(x64), dtype=np.float64))
    a = np.abs(x64)
    out = arr(np.copysign(1.0 - _erfc_nonneg(a), x64))  # writable even when 0-d
    small = a <= 0.5
    if small.any():
        out[small] = _erf_series(x64[small])
    return arr(out.astype(dt))


_ERF64 = np.frompyfunc(math.erf, 1, 1)
_ERFC64 = np.frompyfunc(math.erfc, 1, 1)


def erfc(x: np.ndarray) -> np.ndarray:
    """Vectorized erfc with small relative error in both tails."""
    dt = float_dtype(x.dtype)
    x64 = x.astype(np.float64)
    if dt == np.float64:
        return arr(np.asarray(_ERFC64(x64), dtype=np.float64))
    pos = _erfc_nonneg(np.abs(x64))
    return arr(np.where(x64 < 0, 2.0 - pos, pos).astype(dt))


# ----------------------------------------------------------------------------- unary math


def _floating_(ufunc, name):
    def kernel(x):
        if x.dtype.kind != "f":
            raise RuntimeError(f"{name}_: result type float32 can't be cast to the desired "
                               f"output type {x.dtype}")
        with quiet():
            ufunc(x, out=x)
        return x
    return kernel


def _rsqrt(x, out=None):
    r = arr(np.sqrt(x, out=out))  # 0-d: a numpy scalar, made an array
    return np.reciprocal(r, out=r)


def _exp2(x, out=None):
    return np.exp2(x, out=out)


_FLOATING = {
    "exp": np.exp, "exp2": _exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2,
    "log10": np.log10, "log1p": np.log1p, "sqrt": np.sqrt, "rsqrt": _rsqrt, "sin": np.sin,
    "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh,
    "acosh": np.arccosh, "atanh": np.arctanh, "reciprocal": np.reciprocal,
}
_ALIASES = {"asin": ("arcsin",), "acos": ("arccos",), "atan": ("arctan",),
            "asinh": ("arcsinh",), "acosh": ("arccosh",), "atanh": ("arctanh",)}


def _float_kernel(fn):
    def kernel(x):
        with quiet():
            if x.dtype.kind not in "fc":
                x = x.astype(np.float32)
            return arr(fn(x))
    return kernel


for _n, _fn in _FLOATING.items():
    _names = (_n,) + _ALIASES.get(_n, ())
    reg(f"tensor.{_n}", "(Tensor self) -> Tensor", _float_kernel(_fn),
        tuple(f"{p}.{m}" for m in _names for p in ("torch", "Tensor")) +
        (("torch.nn.functional.tanh",) if _n == "tanh" else ()), as_float_info,
        elementwise=True, doc=f"Elementwise {_n}; int/bool tensors give float32.")
    reg(f"tensor.{_n}_", "(Tensor self) -> Tensor", _floating_(_fn, _n),
        (f"Tensor.{_n}_", f"torch.{_n}_"), same_as_first, may_raise=True,
        doc=f"In-place {_n} of a floating point tensor.")
reg("tensor.erf", "(Tensor self) -> Tensor", erf, ("torch.erf", "Tensor.erf",
                                                   "torch.special.erf"),
    as_float_info, elementwise=True, doc="Elementwise error function.")
reg("tensor.erfc", "(Tensor self) -> Tensor", erfc, ("torch.erfc", "Tensor.erfc"),
    as_float_info, elementwise=True, doc="Elementwise complementary error function.")


def _same_dtype(ufunc, int_identity=False):
    def kernel(x):
        if int_identity and x.dtype.kind in "biu":
            return x.copy()
        return arr(ufunc(x))
    return kernel


def _same_dtype_(ufunc, int_identity=False):
    def kernel(x):
        if not (int_identity and x.dtype.kind in "biu"):
            ufunc(x, out=x)
        return x
    return kernel


def _sign(x, out=None):
    r = arr(np.sign(x, out=out))  # a 0-d input gives a numpy scalar, which is immutable
    return np.nan_to_num(r, copy=False, nan=0.0) if r.dtype.kind == "f" else r


def _frac(x, out=None):
    if x.dtype.kind != "f":
        raise RuntimeError(f"frac is only supported for floating point tensors, got {x.dtype}")
    t = np.trunc(x)
    return np.subtract(x, t, out=out)


def _neg(x, out=None):
    if x.dtype == np.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported; "
                           "use the `~` or logical_not() operator instead")
    return np.negative(x, out=out)


def _abs_info(args):
    """abs keeps the dtype, but a complex tensor's magnitudes have its parts' dtype."""
    a = args[0]
    if not a.is_tensor:
        return same_as_first(args)
    return TensorInfo({"complex64": "float32", "complex128": "float64"}.get(a.dtype, a.dtype),
                      a.shape)


def _abs(x, out=None):
    """|x|; a complex tensor's magnitudes by hypot of its parts, as torch computes them."""
    if x.dtype.kind == "c":
        return np.hypot(x.real, x.imag, out=out)
    return np.abs(x, out=out)


_SAME = [("abs", _abs, False, ("torch.abs", "Tensor.abs", "Tensor.__abs__",
                                 "torch.absolute")),
         ("neg", _neg, False, ("torch.neg", "Tensor.neg", "Tensor.__neg__", "torch.negative")),
         ("sign", _sign, False, ("torch.sign", "Tensor.sign", "torch.sgn")),
         ("floor", np.floor, True, ("torch.floor", "Tensor.floor")),
         ("ceil", np.ceil, True, ("torch.ceil", "Tensor.ceil")),
         ("trunc", np.trunc, True, ("torch.trunc", "Tensor.trunc", "torch.fix")),
         ("frac", _frac, False, ("torch.frac", "Tensor.frac")),
         ("square", np.square, False, ("torch.square", "Tensor.square"))]
for _n, _fn, _ident, _names in _SAME:
    reg(f"tensor.{_n}", "(Tensor self) -> Tensor", _same_dtype(_fn, _ident), _names,
        _abs_info if _n == "abs" else same_as_first, elementwise=True, may_raise=_n in ("neg", "frac"),
        doc=f"Elementwise {_n}, keeping the dtype.")
    reg(f"tensor.{_n}_", "(Tensor self) -> Tensor", _same_dtype_(_fn, _ident),
        (f"Tensor.{_n}_", f"torch.{_n}_"), same_as_first, may_raise=_n in ("neg", "frac"),
        doc=f"In-place {_n}.")
reg("tensor.pos", "(Tensor self) -> Tensor", lambda x: x, ("Tensor.__pos__", "torch.positive"),
    same_as_first, doc="+x: the tensor itself.")


def _round(x, decimals):
    """torch.round: half to even; with decimals, rounds x * 10**decimals."""
    if x.dtype.kind in "biu":
        return x.copy()
    return arr(np.round(x, decimals))


reg("tensor.round", "(Tensor self, *, int decimals=0) -> Tensor", _round,
    ("torch.round", "Tensor.round", "Tensor.__round__"), same_as_first,
    doc="Round half to even (optionally to a number of decimals).")


def _atan2(a, b):
    rt = float_dtype(tensors_dtype(a, b))
    return arr(np.arctan2(a, b, dtype=rt, casting="unsafe"))


reg("tensor.atan2", "(Tensor self, Tensor other) -> Tensor", _atan2,
    ("torch.atan2", "Tensor.atan2", "torch.arctan2"),
    lambda a: TensorInfo(binary_info(a).dtype if binary_info(a).dtype in (
        None, "float16", "float32", "float64") else "float32", binary_info(a).shape),
    doc="Elementwise atan2(self, other), in the quadrant of (other, self).")

# ----------------------------------------------------------------------------- clamp


def clamp(x, lo, hi, out=None):
    """torch.clamp: min(max(x, lo), hi); NaN stays NaN; lo > hi gives hi everywhere."""
    if lo is None and hi is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    rt = operands_dtype(x, lo, hi)
    if rt != x.dtype:
        if out is not None:
            raise RuntimeError(f"clamp_: result type {rt} can't be cast to the desired output "
                               f"type {x.dtype}")
        x = out = x.astype(rt)
    if rt.kind == "f" and not isinstance(lo, np.ndarray) and not isinstance(hi, np.ndarray):
        # np.clip with two bounds is several times faster than np.maximum on floats.
        lo = -np.inf if lo is None else lo
        return arr(np.clip(x, lo, np.inf if hi is None else hi, out=out))
    if lo is not None:
        x = np.maximum(x, lo, out=out)
    if hi is not None:
        x = np.minimum(x, hi, out=out)
    return arr(x)


def _clamp_info(args):
    x, lo, hi = args[0], args[1], args[2]
    bounds = [b for b in (lo, hi) if b.is_tensor or b.kind not in ("none", None)]
    if not bounds and lo.kind == "none" and hi.kind == "none":
        raise ShapeMismatch("torch.clamp: at least one of 'min' or 'max' must not be None")
    shape = x.shape
    for b in bounds:
        if b.is_tensor:
            shape = broadcast(shape, b.shape)
    return TensorInfo(infer_result_type([x] + bounds), shape)


_CLAMP_NAMES = ("torch.clamp", "Tensor.clamp", "torch.clip", "Tensor.clip")
reg("tensor.clamp", "(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor",
    lambda x, lo, hi: clamp(x, lo, hi), _CLAMP_NAMES, _clamp_info, may_raise=True,
    doc="torch.clamp with number bounds (either may be None).")
reg("tensor.clamp_tensor", "(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
    lambda x, lo, hi: clamp(x, lo, hi), _CLAMP_NAMES, _clamp_info, may_raise=True,
    doc="torch.clamp with tensor bounds (broadcasting).")
reg("tensor.clamp_", "(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor",
    lambda x, lo, hi: clamp(x, lo, hi, out=x), ("Tensor.clamp_", "torch.clamp_",
                                                "Tensor.clip_"), same_as_first,
    may_raise=True, doc="In-place clamp with number bounds.")
reg("tensor.clamp_tensor_", "(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
    lambda x, lo, hi: clamp(x, lo, hi, out=x), ("Tensor.clamp_", "torch.clamp_",
                                                "Tensor.clip_"), same_as_first,
    may_raise=True, doc="In-place clamp with tensor bounds.")
def _one_sided(lower, inplace):
    def kernel(x, bound):
        lo, hi = (bound, None) if lower else (None, bound)
        return clamp(x, lo, hi, x if inplace else None)
    return kernel


for _side in ("min", "max"):
    _lo = _side == "min"
    reg(f"tensor.clamp_{_side}", f"(Tensor self, Scalar {_side}) -> Tensor",
        _one_sided(_lo, False),
        (f"torch.clamp_{_side}", f"Tensor.clamp_{_side}"), binary_info, may_raise=True,
        doc=f"torch.clamp_{_side}: clamp from {'below' if _lo else 'above'} only.")
    reg(f"tensor.clamp_{_side}_", f"(Tensor self, Scalar {_side}) -> Tensor",
        _one_sided(_lo, True),
        (f"Tensor.clamp_{_side}_", f"torch.clamp_{_side}_"), same_as_first, may_raise=True,
        doc=f"In-place clamp_{_side}.")
