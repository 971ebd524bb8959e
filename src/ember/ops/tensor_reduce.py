"""Reductions: sum, mean, prod, max/min (with indices), argmax/argmin, any/all, var/std, norm."""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import as_float, reg
from ember.ops.tensorinfo import TensorInfo, norm_dim


def _axes(dim):
    if dim is None:
        return None
    if isinstance(dim, list):
        return tuple(dim) if dim else None
    return dim


def _reduce_info(dtype_rule):
    def info(args):
        x, dim, keep = args[0], args[1], args[2] if len(args) > 2 else None
        dtype = dtype_rule(x.dtype)
        keepdim = bool(keep.const) if keep is not None and keep.const is not None else None
        if x.shape is None or keepdim is None:
            return TensorInfo(dtype, None)
        d = dim.const
        if dim.kind == "none" or d is None and dim.kind is None:
            return TensorInfo(dtype, (1,) * len(x.shape) if keepdim else ())
        if d is None:
            return TensorInfo(dtype, None)
        dims = {norm_dim(v, len(x.shape)) for v in (d if isinstance(d, list) else [d])}
        if keepdim:
            return TensorInfo(dtype, tuple(1 if i in dims else s for i, s in enumerate(x.shape)))
        return TensorInfo(dtype, tuple(s for i, s in enumerate(x.shape) if i not in dims))
    return info


def _float_dtype(d):
    return d if d in (None, "float16", "float32", "float64") else "float32"


def _sum_dtype(d):
    return "int64" if d in ("bool", "uint8", "int8", "int16", "int32") else d


def _sum(x, dim, keepdim, dtype):
    out = np.sum(x, axis=_axes(dim), keepdims=keepdim)
    if dtype is not None:
        return np.asarray(out, dtype=dtype)
    if x.dtype.kind in "biu":
        return np.asarray(out, dtype=np.int64)
    return np.asarray(out, dtype=x.dtype)


def _mean(x, dim, keepdim):
    x = as_float(x)
    return np.asarray(np.mean(x, axis=_axes(dim), keepdims=keepdim), dtype=x.dtype)


def _prod(x, dim, keepdim):
    out = np.prod(x, axis=_axes(dim), keepdims=keepdim)
    return np.asarray(out, dtype=np.int64 if x.dtype.kind in "biu" else x.dtype)


def _max_dim(x, dim, keepdim):
    idx = np.argmax(x, axis=dim)
    vals = np.take_along_axis(x, np.expand_dims(idx, dim), axis=dim)
    if not keepdim:
        vals = np.squeeze(vals, axis=dim)
    else:
        idx = np.expand_dims(idx, dim)
    return vals, idx.astype(np.int64)


def _min_dim(x, dim, keepdim):
    idx = np.argmin(x, axis=dim)
    vals = np.take_along_axis(x, np.expand_dims(idx, dim), axis=dim)
    if not keepdim:
        vals = np.squeeze(vals, axis=dim)
    else:
        idx = np.expand_dims(idx, dim)
    return vals, idx.astype(np.int64)


def _arg(fn):
    def kernel(x, dim, keepdim):
        if dim is None:
            return np.asarray(fn(x), dtype=np.int64)
        out = fn(x, axis=dim)
        if keepdim:
            out = np.expand_dims(out, dim)
        return np.asarray(out, dtype=np.int64)
    return kernel


def _var(x, dim, unbiased, keepdim):
    x = as_float(x)
    return np.asarray(np.var(x, axis=_axes(dim), ddof=1 if unbiased else 0, keepdims=keepdim),
                      dtype=x.dtype)


def _std(x, dim, unbiased, keepdim):
    return np.sqrt(_var(x, dim, unbiased, keepdim))


def _norm(x, p, dim, keepdim):
    x = as_float(x)
    ax = _axes(dim)
    if p == 2.0:
        out = np.sqrt(np.sum(x * x, axis=ax, keepdims=keepdim))
    elif p == 1.0:
        out = np.sum(np.abs(x), axis=ax, keepdims=keepdim)
    elif p == float("inf"):
        out = np.max(np.abs(x), axis=ax, keepdims=keepdim)
    else:
        out = np.sum(np.abs(x) ** p, axis=ax, keepdims=keepdim) ** (1.0 / p)
    return np.asarray(out, dtype=x.dtype)


_D = "int[]? dim=None, bool keepdim=False"
reg("tensor.sum", f"(Tensor self, {_D}, ScalarType? dtype=None) -> Tensor", _sum,
    ("torch.sum", "Tensor.sum"), shape=_reduce_info(_sum_dtype))
reg("tensor.mean", f"(Tensor self, {_D}) -> Tensor", _mean, ("torch.mean", "Tensor.mean"),
    shape=_reduce_info(_float_dtype))
reg("tensor.prod", "(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", _prod,
    ("torch.prod", "Tensor.prod"), shape=_reduce_info(_sum_dtype))
reg("tensor.amax", f"(Tensor self, {_D}) -> Tensor",
    lambda x, d, k: np.amax(x, axis=_axes(d), keepdims=k), ("torch.amax", "Tensor.amax"),
    shape=_reduce_info(lambda d: d))
reg("tensor.amin", f"(Tensor self, {_D}) -> Tensor",
    lambda x, d, k: np.amin(x, axis=_axes(d), keepdims=k), ("torch.amin", "Tensor.amin"),
    shape=_reduce_info(lambda d: d))
reg("tensor.max_all", "(Tensor self) -> Tensor", lambda x: np.asarray(np.max(x)),
    ("torch.max", "Tensor.max"), shape=lambda a: TensorInfo(a[0].dtype, ()))
reg("tensor.min_all", "(Tensor self) -> Tensor", lambda x: np.asarray(np.min(x)),
    ("torch.min", "Tensor.min"), shape=lambda a: TensorInfo(a[0].dtype, ()))
reg("tensor.max_dim", "(Tensor self, int dim, bool keepdim=False) -> Tuple[Tensor, Tensor]",
    _max_dim, ("torch.max", "Tensor.max"))
reg("tensor.min_dim", "(Tensor self, int dim, bool keepdim=False) -> Tuple[Tensor, Tensor]",
    _min_dim, ("torch.min", "Tensor.min"))
reg("tensor.argmax", "(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
    _arg(np.argmax), ("torch.argmax", "Tensor.argmax"),
    shape=_reduce_info(lambda d: "int64"))
reg("tensor.argmin", "(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
    _arg(np.argmin), ("torch.argmin", "Tensor.argmin"),
    shape=_reduce_info(lambda d: "int64"))
reg("tensor.any", f"(Tensor self, {_D}) -> Tensor",
    lambda x, d, k: np.any(x, axis=_axes(d), keepdims=k), ("torch.any", "Tensor.any"),
    shape=_reduce_info(lambda d: "bool"))
reg("tensor.all", f"(Tensor self, {_D}) -> Tensor",
    lambda x, d, k: np.all(x, axis=_axes(d), keepdims=k), ("torch.all", "Tensor.all"),
    shape=_reduce_info(lambda d: "bool"))
reg("tensor.var", "(Tensor self, int[]? dim=None, bool unbiased=True, bool keepdim=False)"
    " -> Tensor", _var, ("torch.var", "Tensor.var"))
reg("tensor.std", "(Tensor self, int[]? dim=None, bool unbiased=True, bool keepdim=False)"
    " -> Tensor", _std, ("torch.std", "Tensor.std"))
reg("tensor.norm", "(Tensor self, float p=2.0, int[]? dim=None, bool keepdim=False) -> Tensor",
    _norm, ("torch.norm", "Tensor.norm"))
