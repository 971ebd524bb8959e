"""Reductions: sum, mean, prod, max/min (whole tensor, or along a dim with indices),
amax/amin, argmax/argmin, any/all, var/std, norm, logsumexp, cumsum/cumprod, sort/topk.

Result dtypes are torch's: sum/prod of int or bool tensors are int64, mean/var/std/
norm need a floating point tensor (or an explicit dtype), arg-reductions give int64.
A dim is an int or a list of ints (negative counts from the end); `keepdim` keeps
the reduced dims with size 1.
"""

from __future__ import annotations

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import arr, check_dim, check_dims, need_float, quiet, reg
from ember.ops.tensorinfo import TensorInfo, norm_dim


def _axes(x, dim):
    """numpy axis for a torch dim argument (None, int, or list; [] means all)."""
    if dim is None:
        return None
    if x.ndim == 0:  # a 0-dim tensor's dim is 0 or -1, and reducing over it changes nothing
        check_dims(dim, 1) if isinstance(dim, (list, tuple)) else check_dim(dim, 1)
        return None
    if isinstance(dim, (list, tuple)):
        return check_dims(dim, x.ndim) if dim else None
    return check_dim(dim, x.ndim)


def _nonempty(x, axis, what):
    if x.size == 0:
        raise IndexError(f"{what}(): Expected reduction dim to be specified for input.numel() "
                         f"== 0" if axis is None else f"{what}(): cannot reduce an empty "
                         f"dimension")


# ----------------------------------------------------------------------------- kernels


def _sum(x, dim, keepdim, dtype):
    """Sum over dims (all if None); int and bool tensors sum to int64."""
    if dtype is not None:
        x = x.astype(dtype, copy=False)
    elif x.dtype.kind in "biu":
        return arr(np.sum(x, axis=_axes(x, dim), keepdims=keepdim, dtype=np.int64))
    return arr(np.sum(x, axis=_axes(x, dim), keepdims=keepdim))


def _mean(x, dim, keepdim, dtype):
    """Mean over dims; needs a floating point tensor or dtype (as torch)."""
    if dtype is not None:
        x = x.astype(dtype, copy=False)
    if x.dtype.kind not in "fc":
        raise RuntimeError(f"mean(): could not infer output dtype. Input dtype must be either "
                           f"a floating point or complex dtype. Got: {x.dtype}")
    with quiet():
        return arr(np.mean(x, axis=_axes(x, dim), keepdims=keepdim))


def _prod(x, dim, keepdim, dtype):
    """Product over one dim (all if None); int and bool tensors give int64."""
    if dtype is not None:
        x = x.astype(dtype, copy=False)
    out_dtype = np.int64 if x.dtype.kind in "biu" else None
    return arr(np.prod(x, axis=_axes(x, dim), keepdims=keepdim, dtype=out_dtype))


def _extreme(fn, what):
    def kernel(x):
        _nonempty(x, None, what)
        return arr(fn(x))
    kernel.__doc__ = f"The {what}imum element (NaN if any element is NaN)."
    return kernel


def _extreme_dim(arg, what):
    def kernel(x, dim, keepdim):
        d = check_dim(dim, x.ndim)
        if x.ndim == 0:
            return x.copy(), np.zeros((), np.int64)
        if x.shape[d] == 0:
            raise IndexError(f"{what}(): cannot compute the {what} of an empty dimension {dim}")
        idx = np.expand_dims(arg(x, axis=d), d)
        vals = np.take_along_axis(x, idx, axis=d)
        if not keepdim:
            vals, idx = np.squeeze(vals, d), np.squeeze(idx, d)
        return arr(vals), arr(idx.astype(np.int64, copy=False))
    kernel.__doc__ = f"(values, indices) of the {what}imum along dim (first index on ties)."
    return kernel


def _amax(fn, what):
    def kernel(x, dim, keepdim):
        axis = _axes(x, dim)
        _nonempty(x, axis, what)
        return arr(fn(x, axis=axis, keepdims=keepdim))
    kernel.__doc__ = f"{what} over dims (all if empty), no indices."
    return kernel


def _arg(fn):
    def kernel(x, dim, keepdim):
        if x.size == 0:
            raise IndexError(f"{fn.__name__}(): Expected reduction dim to be specified for "
                             "input.numel() == 0.")
        if dim is None:
            out = np.asarray(fn(x), dtype=np.int64)
            return out.reshape((1,) * x.ndim) if keepdim else out
        d = check_dim(dim, x.ndim)
        out = fn(x, axis=d) if x.ndim else np.zeros((), np.int64)
        return arr(np.expand_dims(out, d) if keepdim and x.ndim else out).astype(np.int64,
                                                                                copy=False)
    kernel.__doc__ = f"Index of the {fn.__name__[3:]}imum (flattened if dim is None); int64."
    return kernel


def _logical(fn):
    def kernel(x, dim, keepdim):
        out = fn(x, axis=_axes(x, dim), keepdims=keepdim)
        return arr(out.astype(np.uint8) if x.dtype == np.uint8 else out)
    kernel.__doc__ = f"Logical {fn.__name__} over dims; bool result (uint8 for uint8 input)."
    return kernel


def _var(x, dim, unbiased, keepdim, correction=None):
    """Variance over dims with Bessel's correction (unbiased) or an explicit correction."""
    need_float(x, "var")
    ddof = correction if correction is not None else (1 if unbiased else 0)
    with quiet():
        return arr(np.var(x, axis=_axes(x, dim), ddof=ddof, keepdims=keepdim))


def _std(x, dim, unbiased, keepdim, correction=None):
    """Standard deviation: sqrt of var."""
    need_float(x, "std")
    out = _var(x, dim, unbiased, keepdim, correction)
    return arr(np.sqrt(out, out=out) if out.ndim else np.sqrt(out))


def _norm(x, p, dim, keepdim, dtype=None):
    """The p-norm over dims (p = 2, 1, inf, -inf, 0, any float, or 'fro' = 2)."""
    if dtype is not None:
        x = x.astype(dtype, copy=False)
    need_float(x, "norm")
    axis = _axes(x, dim)
    p = 2.0 if p in ("fro", None) else p
    if p == "nuc":  # the sum of the singular values of the matrices over the (last) 2 dims
        if x.ndim < 2 or (axis is not None and len(np.atleast_1d(axis)) != 2):
            raise RuntimeError("nuclear norm requires a 2-D input or two dims")
        ax = (x.ndim - 2, x.ndim - 1) if axis is None else tuple(np.atleast_1d(axis))
        m = np.moveaxis(x, ax, (-2, -1))
        out = np.sum(np.linalg.svd(m, compute_uv=False), axis=-1)
        if keepdim:
            out = np.expand_dims(out, ax)
        return arr(np.asarray(out, dtype=x.dtype))
    if isinstance(p, str):
        raise RuntimeError(f"norm: unsupported norm type {p!r}")  # noqa: TRY004 (torch's)
    a = np.abs(x)
    with quiet():
        if p == 2:
            out = np.sqrt(np.sum(a * a, axis=axis, keepdims=keepdim))
        elif p == 1:
            out = np.sum(a, axis=axis, keepdims=keepdim)
        elif p == np.inf:
            out = np.max(a, axis=axis, keepdims=keepdim)
        elif p == -np.inf:
            out = np.min(a, axis=axis, keepdims=keepdim)
        elif p == 0:
            out = np.sum(a != 0, axis=axis, keepdims=keepdim).astype(x.dtype)
        else:
            out = np.sum(a ** p, axis=axis, keepdims=keepdim) ** (1.0 / p)
    return arr(np.asarray(out, dtype=x.dtype))


def _logsumexp(x, dim, keepdim):
    """log(sum(exp(x))) over dims, computed stably."""
    x = x if x.dtype.kind == "f" else x.astype(np.float32)
    axis = _axes(x, dim)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0).astype(x.dtype, copy=False)
    with quiet():
        out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return arr(out if keepdim else np.squeeze(out, axis=axis))


def _cum(fn):
    def kernel(x, dim, dtype):
        if dtype is not None:
            x = x.astype(dtype, copy=False)
        elif x.dtype.kind in "biu":
            x = x.astype(np.int64)
        if x.ndim == 0:
            return x.copy()
        return arr(fn(x, axis=check_dim(dim, x.ndim), dtype=x.dtype))  # int32 stays int32
    kernel.__doc__ = f"Cumulative {fn.__name__[3:]} along dim (int tensors accumulate in int64)."
    return kernel


def _sort(x, dim, descending):
    """(values, indices) sorted along dim (stable; descending keeps ties in order)."""
    if x.ndim == 0:
        return x.copy(), np.zeros((), np.int64)
    d = check_dim(dim, x.ndim)
    key = -x if descending and x.dtype.kind in "iuf" else (~x if descending else x)
    idx = np.argsort(key, axis=d, kind="stable")
    return arr(np.take_along_axis(x, idx, axis=d)), arr(idx.astype(np.int64, copy=False))


def _topk(x, k, dim, largest, is_sorted):
    """(values, indices) of the k largest (or smallest) along dim, in order."""
    d = check_dim(dim, max(x.ndim, 1))
    n = x.shape[d] if x.ndim else 1
    if not 0 <= k <= n:
        raise RuntimeError(f"selected index k out of range: k={k}, size {n} along dim {dim}")
    if x.ndim == 0:  # a 0-dim tensor is its own top 1
        return arr(x.copy()), arr(np.zeros((), np.int64))
    vals, idx = _sort(x, dim, largest)
    sl = (slice(None),) * d + (slice(0, k),)
    return arr(vals[sl]), arr(idx[sl])


# ----------------------------------------------------------------------------- shape functions


def _reduce_info(dtype_rule, dim_at=1, keep_at=2):
    """Result type of a reduction: dims removed (or kept as 1), dtype by dtype_rule."""
    def info(args):
        x = args[0]
        dtype = dtype_rule(x.dtype, args)
        keep = args[keep_at] if keep_at is not None and keep_at < len(args) else None
        keepdim = False if keep is None else keep.const
        dim = args[dim_at] if dim_at is not None and dim_at < len(args) else None
        if x.shape is None or not isinstance(keepdim, bool):
            return TensorInfo(dtype, None)
        if dim is None or dim.kind == "none" or dim.const in ([], ()):
            return TensorInfo(dtype, (1,) * len(x.shape) if keepdim else ())
        d = dim.const
        if d is None:
            return TensorInfo(dtype, None)
        dims = {norm_dim(v, len(x.shape)) for v in (d if isinstance(d, (list, tuple)) else [d])}
        if keepdim:
            return TensorInfo(dtype, tuple(1 if i in dims else s for i, s in enumerate(x.shape)))
        return TensorInfo(dtype, tuple(s for i, s in enumerate(x.shape) if i not in dims))
    return info


def _explicit(args, at):
    a = args[at] if at < len(args) else None
    return a.const if a is not None and a.kind == "dtype" else None


def _sum_dtype(at):
    def rule(d, args):
        explicit = _explicit(args, at)
        if explicit:
            return explicit
        return "int64" if d in ("bool", "uint8", "int8", "int16", "int32") else d
    return rule


def _float_dtype(what, at=None, complex_ok=False):
    def rule(d, args):
        explicit = _explicit(args, at) if at is not None else None
        if explicit:
            return explicit
        if d is not None and not d.startswith("float") and \
                not (complex_ok and d.startswith("complex")):
            raise ShapeMismatch(f"{what}() needs a floating point tensor (or a dtype=), got {d}")
        return d
    return rule


def _same(d, args):
    return d


def _fixed(name):
    return lambda d, args: name


def _pair_info(rule, dim_at=1, keep_at=2):
    inner = _reduce_info(rule, dim_at, keep_at)

    def info(args):
        v = inner(args)
        return (v, TensorInfo("int64", v.shape))
    return info


def _same_shape(rule):
    return lambda args: TensorInfo(rule(args[0].dtype, args), args[0].shape)


def _topk_info(args):
    x, k, d = args[0], args[1].const, args[2].const
    if x.shape is None or d is None or not x.shape:
        v = TensorInfo(x.dtype, x.shape)
    else:
        d = norm_dim(d, len(x.shape))
        v = TensorInfo(x.dtype, x.shape[:d] + (k,) + x.shape[d + 1:])
    return (v, TensorInfo("int64", v.shape))


# ----------------------------------------------------------------------------- registration

_D = "Any dim=None, bool keepdim=False"
"""dim is Any (an int, a list or a tuple of ints, or None) as in torch; an int[] schema
would let x.sum(1, True) be read as varargs dims [1, 1]."""
reg("tensor.sum", f"(Tensor self, {_D}, *, ScalarType? dtype=None) -> Tensor", _sum,
    ("torch.sum", "Tensor.sum"), _reduce_info(_sum_dtype(3)))
reg("tensor.mean", f"(Tensor self, {_D}, *, ScalarType? dtype=None) -> Tensor", _mean,
    ("torch.mean", "Tensor.mean"), _reduce_info(_float_dtype("mean", 3, complex_ok=True)),
    may_raise=True)
reg("tensor.prod", "(Tensor self, int? dim=None, bool keepdim=False, *, ScalarType? dtype=None)"
    " -> Tensor", _prod, ("torch.prod", "Tensor.prod"), _reduce_info(_sum_dtype(3)),
    may_raise=True)
for _n, _fn, _arg_fn in (("max", np.max, np.argmax), ("min", np.min, np.argmin)):
    reg(f"tensor.{_n}_all", "(Tensor self) -> Tensor", _extreme(_fn, _n),
        (f"torch.{_n}", f"Tensor.{_n}"), lambda a: TensorInfo(a[0].dtype, ()), may_raise=True)
    reg(f"tensor.{_n}_dim", "(Tensor self, int dim, bool keepdim=False) -> "
        "Tuple[Tensor, Tensor]", _extreme_dim(_arg_fn, _n), (f"torch.{_n}", f"Tensor.{_n}"),
        _pair_info(_same), may_raise=True)
    reg(f"tensor.a{_n}", "(Tensor self, Any dim=[], bool keepdim=False) -> Tensor",
        _amax(_fn, _n), (f"torch.a{_n}", f"Tensor.a{_n}"), _reduce_info(_same),
        may_raise=True)
    reg(f"tensor.arg{_n}", "(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
        _arg(_arg_fn), (f"torch.arg{_n}", f"Tensor.arg{_n}"), _reduce_info(_fixed("int64")),
        may_raise=True)
for _n, _fn in (("any", np.any), ("all", np.all)):
    reg(f"tensor.{_n}", f"(Tensor self, {_D}) -> Tensor", _logical(_fn),
        (f"torch.{_n}", f"Tensor.{_n}"),
        _reduce_info(lambda d, a: "uint8" if d == "uint8" else "bool"), may_raise=True)

def _unbiased_form(kernel):
    return lambda x, unbiased: kernel(x, None, unbiased, False)


def _correction_form(kernel):
    return lambda x, d, c, keep: kernel(x, d, True, keep, 1 if c is None else c)


for _n, _k in (("var", _var), ("std", _std)):
    _rule = _float_dtype(_n)
    reg(f"tensor.{_n}_unbiased", "(Tensor self, bool unbiased) -> Tensor",
        _unbiased_form(_k), (f"torch.{_n}", f"Tensor.{_n}"),
        _reduce_info(_rule, None, None), may_raise=True, doc=_k.__doc__)
    reg(f"tensor.{_n}", "(Tensor self, Any dim=None, bool unbiased=True, bool keepdim=False)"
        " -> Tensor", _k, (f"torch.{_n}", f"Tensor.{_n}"), _reduce_info(_rule, 1, 3),
        may_raise=True, doc=_k.__doc__)
    reg(f"tensor.{_n}_correction", "(Tensor self, Any dim=None, *, Scalar? correction=None,"
        " bool keepdim=False) -> Tensor",
        _correction_form(_k),
        (f"torch.{_n}", f"Tensor.{_n}"), _reduce_info(_rule, 1, 3), may_raise=True,
        doc=_k.__doc__)

_NORM_NAMES = ("torch.norm", "Tensor.norm")
reg("tensor.norm", "(Tensor self, Scalar? p=2, Any dim=None, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor", _norm, _NORM_NAMES,
    _reduce_info(_float_dtype("norm", 4), 2, 3), may_raise=True)
reg("tensor.norm_str", "(Tensor self, str p, Any dim=None, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor", _norm, _NORM_NAMES,
    _reduce_info(_float_dtype("norm", 4), 2, 3), may_raise=True)
reg("tensor.vector_norm", "(Tensor self, Scalar ord=2, Any dim=None, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor", _norm, ("torch.linalg.vector_norm",),
    _reduce_info(_float_dtype("vector_norm", 4), 2, 3), may_raise=True)
reg("tensor.logsumexp", "(Tensor self, Any dim, bool keepdim=False) -> Tensor", _logsumexp,
    ("torch.logsumexp", "Tensor.logsumexp", "torch.special.logsumexp"),
    _reduce_info(lambda d, a: d if d is None or d.startswith("float") else "float32"))
for _n, _fn in (("cumsum", np.cumsum), ("cumprod", np.cumprod)):
    reg(f"tensor.{_n}", "(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
        _cum(_fn), (f"torch.{_n}", f"Tensor.{_n}"), _same_shape(_sum_dtype(2)),
        may_raise=True)
reg("tensor.count_nonzero", "(Tensor self, Any dim=None) -> Tensor",
    lambda x, d: arr(np.count_nonzero(x, axis=_axes(x, d))).astype(np.int64, copy=False),
    ("torch.count_nonzero", "Tensor.count_nonzero"),
    _reduce_info(_fixed("int64"), 1, None), may_raise=True,
    doc="The number of nonzero elements over dims; int64.")
reg("tensor.sort", "(Tensor self, int dim=-1, bool descending=False) -> Tuple[Tensor, Tensor]",
    _sort, ("torch.sort", "Tensor.sort"),
    lambda a: (TensorInfo(a[0].dtype, a[0].shape), TensorInfo("int64", a[0].shape)),
    may_raise=True)
reg("tensor.argsort", "(Tensor self, int dim=-1, bool descending=False) -> Tensor",
    lambda x, d, desc: _sort(x, d, desc)[1], ("torch.argsort", "Tensor.argsort"),
    lambda a: TensorInfo("int64", a[0].shape), may_raise=True,
    doc="Indices that sort self along dim (stable).")
reg("tensor.topk", "(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> "
    "Tuple[Tensor, Tensor]", _topk, ("torch.topk", "Tensor.topk"), _topk_info, may_raise=True)
