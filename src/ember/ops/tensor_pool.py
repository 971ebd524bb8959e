"""Pooling: max_pool1d/2d/3d, avg_pool1d/2d/3d (ceil_mode, count_include_pad,
divisor_override), adaptive_avg_pool1d/2d/3d and adaptive_max_pool1d/2d/3d (any output size),
and max_unpool1d/2d/3d (each value scattered to its flat index in a zero output plane);
lp_pool1d/2d (the p-norm of each window, torch's composition of avg_pool).

Fixed-window pools combine the strided slices of the padded input, one per window tap,
with one ufunc each (one pass over the output per tap, never a window tensor: numpy reduces
small inner axes tens of times slower than it combines two arrays). Adaptive pools are
separable: one dim at a time, last first (an averaging matmul, or one slice per output
position).
Output sizes follow torch, including ceil_mode's rule that the last window must
start inside the input or its left padding.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import product

import numpy as np

from ember.ops.registry import ShapeMismatch, dispatch_on_true
from ember.ops.tensor_common import F, need_float, quiet, reg, torch_scalar_name
from ember.ops.tensor_conv import conv_out, ntuple
from ember.ops.tensorinfo import TensorInfo


def pool_out(size, k, s, p, d, ceil_mode):
    """torch's pooling output length."""
    num = size + 2 * p - d * (k - 1) - 1
    out = (num + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _geometry(x, kernel_size, stride, padding, dilation, ceil_mode, what):
    n = x.ndim - 2
    k = ntuple(kernel_size, n, "kernel_size")
    s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
        ntuple(stride, n, "stride")
    p, d = ntuple(padding, n, "padding"), ntuple(dilation, n, "dilation")
    for i in range(n):
        if p[i] * 2 > d[i] * (k[i] - 1) + 1:
            raise RuntimeError(f"{what}: pad should be at most half of effective kernel size, "
                               f"but got pad={p[i]}, kernel_size={k[i]} and dilation={d[i]}")
    out = tuple(pool_out(x.shape[2 + i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(n))
    if min(out) <= 0:
        raise RuntimeError(f"{what}: Given input size: {tuple(x.shape[1:])}. Calculated output "
                           f"size: {(x.shape[1],) + out}. Output size is too small")
    return k, s, p, d, out


def _padded_for(x, k, s, p, d, out, fill):
    """x padded (value fill) so every output window lies inside the array."""
    sizes = x.shape[2:]
    need = [(o - 1) * si + di * (ki - 1) + 1 for o, si, di, ki in zip(out, s, d, k)]
    if not any(p) and all(a <= b for a, b in zip(need, sizes)):
        return x
    xp = np.full(x.shape[:2] + tuple(max(a, b + pi) for a, b, pi in zip(need, sizes, p)), fill,
                 x.dtype)
    xp[(slice(None),) * 2 + tuple(slice(pi, pi + b) for pi, b in zip(p, sizes))] = x
    return xp


def _slices(xp, k, s, d, out):
    """The strided slice of xp each window tap reads, one per tap (row-major taps)."""
    for tap in product(*(range(ki) for ki in k)):
        yield xp[(slice(None),) * 2 + tuple(slice(t * di, t * di + (o - 1) * si + 1, si)
                                            for t, di, o, si in zip(tap, d, out, s))]


def _batched(n):
    """Lift a batched pooling kernel over n spatial dims to unbatched input."""
    def lift(fn):
        def kernel(x, *args):
            if x.ndim == n + 1 and x.size:
                r = fn(x[None], *args)
                return tuple(t[0] for t in r) if isinstance(r, tuple) else r[0]
            if x.ndim != n + 2 or not x.size:
                raise RuntimeError(f"non-empty {n + 1}D or {n + 2}D (batch mode) tensor "
                                   "expected for input")
            return fn(x, *args)
        kernel.__doc__ = fn.__doc__
        return kernel
    return lift


# ----------------------------------------------------------------------------- max pool


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices, what):
    k, s, p, d, out = _geometry(x, kernel_size, stride, padding, dilation, ceil_mode, what)
    if return_indices:
        return _max_pool_indices(x, k, s, p, d, out)
    acc = None
    for sl in _slices(_padded_for(x, k, s, p, d, out, _lowest(x.dtype)), k, s, d, out):
        acc = sl.copy() if acc is None else np.maximum(acc, sl, out=acc)
    return acc


@_batched(2)
def max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices=False):
    """Max over kh x kw windows (NaN propagates)."""
    return _max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                     "max_pool2d")


@_batched(3)
def max_pool3d(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices=False):
    """Max over kd x kh x kw windows (NaN propagates)."""
    return _max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                     "max_pool3d")


def _max_pool_indices(x, k, s, p, d, out):
    """(values, flat indices into each input plane or volume) of the window maxima."""
    xp = _padded_for(x, k, s, p, d, out, _lowest(x.dtype))
    vals = np.stack(list(_slices(xp, k, s, d, out)), axis=-1)
    arg = np.argmax(vals, axis=-1)
    taps = np.unravel_index(arg, k)
    flat = 0
    for i, size in enumerate(x.shape[2:]):
        start = (np.arange(out[i]) * s[i] - p[i]).reshape((-1,) + (1,) * (len(out) - 1 - i))
        flat = flat * size + start + taps[i] * d[i]
    best = np.take_along_axis(vals, arg[..., None], axis=-1)[..., 0]
    return best, flat.astype(np.int64)


def max_pool1d(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices=False):
    """Max over windows of the last dim of (N, C, L) (or (C, L))."""
    if x.ndim == 2:
        r = max_pool1d(x[None], kernel_size, stride, padding, dilation, ceil_mode,
                       return_indices)
        return (r[0][0], r[1][0]) if return_indices else r[0]
    st = None if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
        (1, ntuple(stride, 1)[0])
    r = max_pool2d(x[:, :, None, :], (1, ntuple(kernel_size, 1)[0]), st,
                   (0, ntuple(padding, 1)[0]), (1, ntuple(dilation, 1)[0]), ceil_mode,
                   return_indices)
    return (r[0][:, :, 0], r[1][:, :, 0]) if return_indices else r[:, :, 0]


# ----------------------------------------------------------------------------- average pool


def _avg_counts(size, k, s, p, out, include_pad):
    """Per output position along one dim, the number of elements torch divides by."""
    start = np.arange(out) * s - p
    end = np.minimum(start + k, size + p)
    if include_pad:
        return end - start
    return np.minimum(end, size) - np.maximum(start, 0)


def _avg_pool(x, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override, what):
    need_float(x, what)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    k, s, p, d, out = _geometry(x, kernel_size, stride, padding, 1, ceil_mode, what)
    acc = None
    for sl in _slices(_padded_for(x, k, s, p, d, out, 0), k, s, d, out):
        acc = sl.copy() if acc is None else np.add(acc, sl, out=acc)
    if divisor_override:
        acc /= x.dtype.type(divisor_override)
        return acc
    counts = np.ones((), np.int64)
    for i, size in enumerate(x.shape[2:]):
        counts = np.multiply.outer(counts, _avg_counts(size, k[i], s[i], p[i], out[i],
                                                       count_include_pad))
    acc /= counts.astype(x.dtype)
    return acc


@_batched(2)
def avg_pool2d(x, kernel_size, stride, padding, ceil_mode, count_include_pad,
               divisor_override=None):
    """Mean over kh x kw windows (torch's divisor rules at the borders)."""
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, "avg_pool2d")


@_batched(3)
def avg_pool3d(x, kernel_size, stride, padding, ceil_mode, count_include_pad,
               divisor_override=None):
    """Mean over kd x kh x kw windows (torch's divisor rules at the borders)."""
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, "avg_pool3d")


def avg_pool1d(x, kernel_size, stride, padding, ceil_mode, count_include_pad):
    """Mean over windows of the last dim of (N, C, L) (or (C, L))."""
    if x.ndim == 2:
        return avg_pool1d(x[None], kernel_size, stride, padding, ceil_mode,
                          count_include_pad)[0]
    st = None if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
        (1, ntuple(stride, 1)[0])
    return avg_pool2d(x[:, :, None, :], (1, ntuple(kernel_size, 1)[0]), st,
                      (0, ntuple(padding, 1)[0]), ceil_mode, count_include_pad)[:, :, 0]


# ----------------------------------------------------------------------------- adaptive pools


def _out_size(x, output_size, n):
    size = ntuple(output_size, n, "output_size") if output_size is not None else (None,) * n
    return tuple(x.shape[-n + i] if v is None else v for i, v in enumerate(size))


def _bounds(size, out):
    return [((i * size) // out, -(-((i + 1) * size) // out)) for i in range(out)]


def _adaptive_axis(x, axis, out, reduce):
    axis %= x.ndim
    size = x.shape[axis]
    if out == size:
        return x
    if size % out == 0:
        r = x.reshape(x.shape[:axis] + (out, size // out) + x.shape[axis + 1:])
        return reduce(r, axis=axis + 1)
    pre = (slice(None),) * axis
    parts = [reduce(x[pre + (slice(a, b),)], axis=axis, keepdims=True)
             for a, b in _bounds(size, out)]
    return np.concatenate(parts, axis=axis)


@lru_cache(maxsize=64)
def _averaging(size, out, dtype):
    """(size, out) matrix whose column j averages torch's adaptive window j."""
    a = np.zeros((size, out), dtype)
    for j, (lo, hi) in enumerate(_bounds(size, out)):
        a[lo:hi, j] = 1.0 / (hi - lo)
    a.flags.writeable = False
    return a


def _check_rank(x, n, what):
    if x.ndim not in (n + 1, n + 2):
        raise RuntimeError(f"{what}(): Expected {n + 1}D or {n + 2}D tensor, but got "
                           f"{list(x.shape)}")


def adaptive_avg(x, out):
    """Mean over torch's adaptive windows [floor(i*S/o), ceil((i+1)*S/o)) of the last
    len(out) dims: one small matmul with an averaging matrix per dim (numpy reduces short
    inner axes slowly)."""
    n = len(out)
    sizes = x.shape[x.ndim - n:]
    if all(o == 1 for o in out) and x.flags.c_contiguous:
        flat = x.reshape(-1, math.prod(sizes))
        return np.matmul(flat, _averaging(flat.shape[1], 1, x.dtype)).reshape(
            x.shape[:x.ndim - n] + (1,) * n)
    if tuple(out) == tuple(sizes):
        return x.copy()
    with quiet():  # inf * 0 in the matmuls (redone below), inf - inf in a window
        y = _averaged(x, out, sizes)
        if not np.isfinite(y).all():  # 0 * nan in the matmuls spreads nan past its window
            y = x
            for i in range(n):
                y = _adaptive_axis(y, x.ndim - n + i, out[i], np.mean)
            y = np.ascontiguousarray(y)
    return y


def _averaged(x, out, sizes):
    """adaptive_avg by matmuls with averaging matrices (finite inputs)."""
    n = len(out)
    y = x
    for i in reversed(range(n)):
        a, o = x.ndim - n + i, out[i]
        if o == sizes[i]:
            continue
        avg = _averaging(sizes[i], o, x.dtype)
        if i == n - 1:
            y = np.matmul(y, avg)
            continue
        lead, tail = y.shape[:a], y.shape[a + 1:]
        y = np.matmul(avg.T, y.reshape(lead + (sizes[i], math.prod(tail))))
        y = y.reshape(lead + (o,) + tail)
    return y


def adaptive_avg_pool2d(x, output_size):
    """Mean over torch's adaptive windows of the last two dims."""
    need_float(x, "adaptive_avg_pool2d")
    _check_rank(x, 2, "adaptive_avg_pool2d")
    return adaptive_avg(x, _out_size(x, output_size, 2))


def adaptive_avg_pool3d(x, output_size):
    """Mean over torch's adaptive windows of the last three dims."""
    need_float(x, "adaptive_avg_pool3d")
    _check_rank(x, 3, "adaptive_avg_pool3d")
    return adaptive_avg(x, _out_size(x, output_size, 3))


def _adaptive_max(x, out, return_indices):
    """Max over torch's adaptive windows of the last len(out) dims; with return_indices,
    (values, flat indices into each input plane or volume)."""
    if not return_indices:
        for i, o in enumerate(out):
            x = _adaptive_axis(x, i - len(out), o, np.max)
        return x
    n = len(out)
    sizes, lead = x.shape[x.ndim - n:], x.shape[:x.ndim - n]
    vals = np.empty(lead + tuple(out), x.dtype)
    idx = np.empty(lead + tuple(out), np.int64)
    for cell in product(*(enumerate(_bounds(sz, o)) for sz, o in zip(sizes, out))):
        where = (Ellipsis,) + tuple(j for j, _ in cell)
        win = x[(Ellipsis,) + tuple(slice(a, b) for _, (a, b) in cell)]
        arg = np.argmax(win.reshape(lead + (-1,)), axis=-1)
        vals[where] = np.take_along_axis(win.reshape(lead + (-1,)), arg[..., None], -1)[..., 0]
        local = np.unravel_index(arg, win.shape[len(lead):])
        flat = 0
        for i, (_, (a, _b)) in enumerate(cell):
            flat = flat * sizes[i] + a + local[i]
        idx[where] = flat
    return vals, idx


def adaptive_max_pool2d(x, output_size, return_indices=False):
    """Max over torch's adaptive windows of the last two dims."""
    _check_rank(x, 2, "adaptive_max_pool2d")
    return _adaptive_max(x, _out_size(x, output_size, 2), return_indices)


def adaptive_max_pool3d(x, output_size, return_indices=False):
    """Max over torch's adaptive windows of the last three dims."""
    _check_rank(x, 3, "adaptive_max_pool3d")
    return _adaptive_max(x, _out_size(x, output_size, 3), return_indices)


def _adaptive_1d(fn):
    def kernel(x, output_size, *rest):
        r = fn(x[..., None, :], (1, ntuple(output_size, 1, "output_size")[0]), *rest)
        return tuple(t[..., 0, :] for t in r) if isinstance(r, tuple) else r[..., 0, :]
    kernel.__doc__ = fn.__doc__
    return kernel


# ----------------------------------------------------------------------------- max unpool


def _unpool_geometry(kernel_size, stride, padding, n):
    k = ntuple(kernel_size, n, "kernel_size")
    s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
        ntuple(stride, n, "stride")
    return k, s, ntuple(padding, n, "padding")


def unpool_size(in_sizes, k, s, p, output_size):
    """torch's _unpool_output_size: the default (in - 1) * s + k - 2 * p per dim, or
    output_size (n or n + 2 entries) if each entry lies strictly within a stride of it."""
    n = len(k)
    default = [(in_sizes[d] - 1) * s[d] + k[d] - 2 * p[d] for d in range(n)]
    if output_size is None:
        size = default
    else:
        size = [output_size] * n if isinstance(output_size, int) else output_size
        if len(size) == n + 2:
            size = size[2:]
        if len(size) != n:
            raise ValueError(f"output_size should be a sequence containing {n} or {n + 2} "
                             f"elements, but it has a length of '{len(size)}'")
        for d in range(n):
            lo, hi = default[d] - s[d], default[d] + s[d]
            if not lo < size[d] < hi:
                raise ValueError(f'invalid output_size "{size}" (dim {d} must be '
                                 f"between {lo} and {hi})")
    for d in range(n):
        if size[d] < 0:
            raise ValueError("max_unpooling: output_size must contain non-negative spatial "
                             f"dimensions, but got output_size[{d}]={size[d]}")
    return [int(v) for v in size]


def _unpool(x, indices, out, what):
    """Scatter x's values into zero planes of size out (the last len(out) dims) at the flat
    indices; torch's checks and messages."""
    n = len(out)
    if x.ndim not in (n + 1, n + 2):
        raise RuntimeError(f"Input to max_unpooling{n}d should be a {n + 1}d or {n + 2}d "
                           f"Tensor, but got a tensor with {x.ndim} dimensions.")
    if indices.dtype != np.int64:
        got = f" but got: {torch_scalar_name(indices.dtype)}" \
            if n == 2 else ""
        raise RuntimeError(f"elements in indices should be type int64{got}")
    if indices.shape != x.shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(x.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    if x.dtype.kind != "f":
        raise NotImplementedError(f'"{what}" not implemented for '
                                  f"'{torch_scalar_name(x.dtype)}'")
    lead = x.shape[:x.ndim - n]
    plane = math.prod(out)
    flat = indices.reshape(lead + (-1,))
    bad = (flat < 0) | (flat >= plane)
    if bad.any():
        raise RuntimeError(f"Found an invalid max index: {flat[bad][0]} (output volumes are "
                           f"of size {'x'.join(str(o) for o in out)})")
    y = np.zeros(lead + (plane,), x.dtype)
    np.put_along_axis(y, flat, x.reshape(lead + (-1,)), axis=-1)
    return y.reshape(lead + tuple(out))


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of max_pool2d: each value goes to its flat index in an (H, W) plane."""
    k, s, p = _unpool_geometry(kernel_size, stride, padding, 2)
    out = unpool_size(x.shape[x.ndim - 2:], k, s, p, output_size)
    return _unpool(x, indices, out, "max_unpool2d")


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of max_pool3d: each value goes to its flat index in a (D, H, W) volume."""
    k, s, p = _unpool_geometry(kernel_size, stride, padding, 3)
    out = unpool_size(x.shape[x.ndim - 3:], k, s, p, output_size)
    return _unpool(x, indices, out, "max_unpool3d")


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of max_pool1d (torch runs max_unpool2d on an (L, 1) view)."""
    k, s, p = _unpool_geometry(kernel_size, stride, padding, 1)
    out = unpool_size(x.shape[-1:], k, s, p, output_size)
    return _unpool(x[..., None], indices[..., None], out + [1], "max_unpool2d")[..., 0]


# ----------------------------------------------------------------------------- shape functions


def _pool_info(n, has_dilation):
    def info(args):
        x, k, s, p = args[0], args[1].const, args[2].const, args[3].const
        d = args[4].const if has_dilation else 1
        ceil = args[5 if has_dilation else 4].const
        if x.shape is None or len(x.shape) not in (n + 1, n + 2) or k is None or p is None \
                or d is None or not isinstance(ceil, bool):
            return TensorInfo(x.dtype, None)
        try:
            kk, pp, dd = ntuple(k, n), ntuple(p, n), ntuple(d, n)
            ss = kk if s is None or s == [] or args[2].kind == "none" else ntuple(s, n)
        except (TypeError, RuntimeError):
            return TensorInfo(x.dtype, None)
        spatial = []
        for i in range(n):
            size = x.shape[len(x.shape) - n + i]
            if not isinstance(size, int):
                spatial.append(None)
                continue
            o = pool_out(size, kk[i], ss[i], pp[i], dd[i], ceil) if conv_out(
                size, kk[i], ss[i], 2 * pp[i], dd[i]) is not None else None
            if o is not None and o <= 0:
                raise ShapeMismatch(f"pooling: output size {o} is too small for an input of "
                                    f"size {size}")
            spatial.append(o)
        return TensorInfo(x.dtype, tuple(x.shape[:len(x.shape) - n]) + tuple(spatial))
    return info


def _sizes_with_none(arg):
    """A constant output_size, keeping None entries (tuple literals such as (3, None))."""
    if arg.const is not None:
        return arg.const
    if arg.items is not None and all(it.kind == "none" or isinstance(it.const, int)
                                     for it in arg.items):
        return tuple(it.const for it in arg.items)
    return None


def _adaptive_info(n):
    def info(args):
        x, size = args[0], _sizes_with_none(args[1])
        if x.shape is None or size is None:
            return TensorInfo(x.dtype, None)
        try:
            out = ntuple(size, n) if not isinstance(size, (list, tuple)) or None not in size \
                else tuple(size)
        except RuntimeError:
            return TensorInfo(x.dtype, None)
        keep = x.shape[len(x.shape) - n:]
        return TensorInfo(x.dtype, tuple(x.shape[:len(x.shape) - n]) +
                          tuple(k if o is None else o for o, k in zip(out, keep)))
    return info


def _with_indices(info):
    def pair(args):
        v = info(args)
        return (v, TensorInfo("int64", v.shape))
    return pair


def _no_indices(info, at):
    """Shape function of the tensor-returning overload: return_indices must be False."""
    def check(args):
        if args[at].const is True:
            raise ShapeMismatch("return_indices=True returns (values, indices): call the "
                                "*_with_indices function (F.max_pool2d_with_indices, ...)")
        return info(args)
    return check


def _with_indices_kernel(fn):
    """The *_with_indices form: the trailing return_indices argument is always True."""
    return lambda x, *args: fn(x, *args[:-1], True)


def _values_only(fn):
    def kernel(x, *args):
        if args[-1]:
            raise RuntimeError("return_indices=True needs the *_with_indices function")
        return fn(x, *args[:-1])
    kernel.__doc__ = fn.__doc__
    return kernel


_MAXP = "Any kernel_size, Any stride=None, Any padding=0, Any dilation=1, bool ceil_mode=False"
_AVGP = "Any kernel_size, Any stride=None, Any padding=0, bool ceil_mode=False, " \
    "bool count_include_pad=True"
for _n, _k in ((3, max_pool3d), (2, max_pool2d), (1, max_pool1d)):
    reg(f"tensor.max_pool{_n}d", f"(Tensor self, {_MAXP}, bool return_indices=False) -> Tensor",
        _values_only(_k), (f"{F}.max_pool{_n}d", f"torch.max_pool{_n}d"),
        _no_indices(_pool_info(_n, True), 6), may_raise=True)
    reg(f"tensor.max_pool{_n}d_with_indices", f"(Tensor self, {_MAXP}, "
        "bool return_indices=True) -> Tuple[Tensor, Tensor]",
        _with_indices_kernel(_k), (f"{F}.max_pool{_n}d_with_indices",),
        _with_indices(_pool_info(_n, True)), may_raise=True,
        doc=f"max_pool{_n}d returning (values, flat indices per plane).")
    dispatch_on_true(f"tensor.max_pool{_n}d", "return_indices",
                     f"tensor.max_pool{_n}d_with_indices")
reg("tensor.avg_pool2d", f"(Tensor self, {_AVGP}, int? divisor_override=None) -> Tensor",
    avg_pool2d, (f"{F}.avg_pool2d", "torch.avg_pool2d"), _pool_info(2, False), may_raise=True)
reg("tensor.avg_pool3d", f"(Tensor self, {_AVGP}, int? divisor_override=None) -> Tensor",
    avg_pool3d, (f"{F}.avg_pool3d",), _pool_info(3, False), may_raise=True)
reg("tensor.avg_pool1d", f"(Tensor self, {_AVGP}) -> Tensor", avg_pool1d,
    (f"{F}.avg_pool1d", "torch.avg_pool1d"), _pool_info(1, False), may_raise=True)
reg("tensor.adaptive_avg_pool2d", "(Tensor self, Any output_size) -> Tensor",
    adaptive_avg_pool2d, (f"{F}.adaptive_avg_pool2d",), _adaptive_info(2), may_raise=True)
reg("tensor.adaptive_avg_pool3d", "(Tensor self, Any output_size) -> Tensor",
    adaptive_avg_pool3d, (f"{F}.adaptive_avg_pool3d",), _adaptive_info(3), may_raise=True)
reg("tensor.adaptive_avg_pool1d", "(Tensor self, Any output_size) -> Tensor",
    _adaptive_1d(adaptive_avg_pool2d), (f"{F}.adaptive_avg_pool1d", "torch.adaptive_avg_pool1d"),
    _adaptive_info(1), may_raise=True)
for _n, _k in ((3, adaptive_max_pool3d), (2, adaptive_max_pool2d),
               (1, _adaptive_1d(adaptive_max_pool2d))):
    reg(f"tensor.adaptive_max_pool{_n}d", "(Tensor self, Any output_size, "
        "bool return_indices=False) -> Tensor", _values_only(_k),
        (f"{F}.adaptive_max_pool{_n}d", f"torch.adaptive_max_pool{_n}d"),
        _no_indices(_adaptive_info(_n), 2), may_raise=True)
    reg(f"tensor.adaptive_max_pool{_n}d_with_indices", "(Tensor self, Any output_size, "
        "bool return_indices=True) -> Tuple[Tensor, Tensor]",
        _with_indices_kernel(_k),
        (f"{F}.adaptive_max_pool{_n}d_with_indices",), _with_indices(_adaptive_info(_n)),
        may_raise=True, doc=f"adaptive_max_pool{_n}d returning (values, flat indices).")
    dispatch_on_true(f"tensor.adaptive_max_pool{_n}d", "return_indices",
                     f"tensor.adaptive_max_pool{_n}d_with_indices")


def _unpool_info(n):
    def info(args):
        x, k, s, p, size = args[0], args[2].const, args[3].const, args[4].const, args[5]
        if x.shape is None or len(x.shape) not in (n + 1, n + 2):
            return TensorInfo(x.dtype, None)
        lead = tuple(x.shape[:len(x.shape) - n])
        spatial = x.shape[len(x.shape) - n:]
        known = k is not None and p is not None and (s is not None or args[3].kind == "none")
        if not known or (size.kind != "none" and size.const is None) or \
                not all(isinstance(d, int) for d in spatial):
            return TensorInfo(x.dtype, lead + (None,) * n)
        try:
            kk, ss, pp = _unpool_geometry(k, s, p, n)
            out = unpool_size(spatial, kk, ss, pp, size.const)
        except (TypeError, RuntimeError, ValueError):
            return TensorInfo(x.dtype, lead + (None,) * n)
        return TensorInfo(x.dtype, lead + tuple(out))
    return info


for _n, _k in ((1, max_unpool1d), (2, max_unpool2d), (3, max_unpool3d)):
    reg(f"tensor.max_unpool{_n}d", "(Tensor self, Tensor indices, Any kernel_size, "
        "Any stride=None, Any padding=0, Any output_size=None) -> Tensor", _k,
        (f"{F}.max_unpool{_n}d",), _unpool_info(_n), may_raise=True)


def _lp_pool(n, x, norm_type, kernel_size, stride, ceil_mode):
    """torch's lp_pool: (sign(a) * relu(|a|) * window size) ** (1 / p), a the average of
    x ** p over each window."""
    need_float(x, f"lp_pool{n}d")
    k = ntuple(kernel_size, n, "kernel_size")
    with quiet():
        xp = np.power(x, x.dtype.type(norm_type))
        if n == 1:
            a = avg_pool1d(xp, k[0], stride, 0, ceil_mode, True)
        else:
            a = avg_pool2d(xp, k, stride, 0, ceil_mode, True, None)
        out = np.sign(a) * np.maximum(np.abs(a), 0) * a.dtype.type(math.prod(k))
        return np.asarray(np.power(out, a.dtype.type(1.0 / norm_type)), x.dtype)


for _n in (1, 2):
    reg(f"tensor.lp_pool{_n}d", "(Tensor self, float norm_type, Any kernel_size, "
        "Any stride=None, bool ceil_mode=False) -> Tensor",
        (lambda n: lambda x, p, k, s, c: _lp_pool(n, x, p, k, s, c))(_n),
        (f"{F}.lp_pool{_n}d",), lambda a: TensorInfo(a[0].dtype, None), may_raise=True,
        doc=f"The p-norm over each window of a {_n}-d pool.")
