"""Pooling: max_pool1d/2d, avg_pool1d/2d (ceil_mode, count_include_pad, divisor_override),
adaptive_avg_pool1d/2d and adaptive_max_pool1d/2d (any output size).

Fixed-window pools combine the kh*kw strided slices of the padded input with one
ufunc each (k*k passes over the output, never a window tensor: numpy reduces
small inner axes tens of times slower than it combines two arrays). Adaptive pools are
separable: first over rows, then over columns, one slice per output row/column.
Output sizes follow torch, including ceil_mode's rule that the last window must
start inside the input or its left padding.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import F, need_float, reg
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
    k = ntuple(kernel_size, 2, "kernel_size")
    s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
        ntuple(stride, 2, "stride")
    p, d = ntuple(padding, 2, "padding"), ntuple(dilation, 2, "dilation")
    for i in range(2):
        if p[i] * 2 > d[i] * (k[i] - 1) + 1:
            raise RuntimeError(f"{what}: pad should be at most half of effective kernel size, "
                               f"but got pad={p[i]}, kernel_size={k[i]} and dilation={d[i]}")
    out = tuple(pool_out(x.shape[2 + i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(2))
    if min(out) <= 0:
        raise RuntimeError(f"{what}: Given input size: {tuple(x.shape[1:])}. Calculated output "
                           f"size: {(x.shape[1],) + out}. Output size is too small")
    return k, s, p, d, out


def _padded_for(x, k, s, p, d, out, fill):
    """x padded (value fill) so every output window lies inside the array."""
    need = [(out[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 for i in range(2)]
    h, w = x.shape[2:]
    if p == (0, 0) and need[0] <= h and need[1] <= w:
        return x
    xp = np.full(x.shape[:2] + (max(need[0], h + p[0]), max(need[1], w + p[1])), fill, x.dtype)
    xp[:, :, p[0]:p[0] + h, p[1]:p[1] + w] = x
    return xp


def _slices(xp, k, s, d, out):
    for i in range(k[0]):
        for j in range(k[1]):
            yield xp[:, :, i * d[0]:i * d[0] + (out[0] - 1) * s[0] + 1:s[0],
                     j * d[1]:j * d[1] + (out[1] - 1) * s[1] + 1:s[1]]


def _batched(fn):
    """Lift a 4-D pooling kernel to unbatched 3-D input."""
    def kernel(x, *args):
        if x.ndim == 3:
            r = fn(x[None], *args)
            return tuple(t[0] for t in r) if isinstance(r, tuple) else r[0]
        if x.ndim != 4:
            raise RuntimeError(f"{fn.__name__}: expected 3D or 4D input, got {x.ndim}D")
        return fn(x, *args)
    kernel.__doc__ = fn.__doc__
    return kernel


# ----------------------------------------------------------------------------- max pool


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


@_batched
def max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices=False):
    """Max over kh x kw windows (NaN propagates)."""
    k, s, p, d, out = _geometry(x, kernel_size, stride, padding, dilation, ceil_mode,
                                "max_pool2d")
    if return_indices:
        return _max_pool_indices(x, k, s, p, d, out)
    acc = None
    for sl in _slices(_padded_for(x, k, s, p, d, out, _lowest(x.dtype)), k, s, d, out):
        acc = sl.copy() if acc is None else np.maximum(acc, sl, out=acc)
    return acc


def _max_pool_indices(x, k, s, p, d, out):
    """(values, flat indices into each input plane) of the window maxima."""
    w = x.shape[3]
    xp = _padded_for(x, k, s, p, d, out, _lowest(x.dtype))
    vals = np.stack(list(_slices(xp, k, s, d, out)), axis=-1)
    arg = np.argmax(vals, axis=-1)
    ki, kj = np.divmod(arg, k[1])
    rows = np.arange(out[0])[:, None] * s[0] - p[0] + ki * d[0]
    cols = np.arange(out[1])[None, :] * s[1] - p[1] + kj * d[1]
    best = np.take_along_axis(vals, arg[..., None], axis=-1)[..., 0]
    return best, (rows * w + cols).astype(np.int64)


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


@_batched
def avg_pool2d(x, kernel_size, stride, padding, ceil_mode, count_include_pad,
               divisor_override=None):
    """Mean over kh x kw windows (torch's divisor rules at the borders)."""
    need_float(x, "avg_pool2d")
    k, s, p, d, out = _geometry(x, kernel_size, stride, padding, 1, ceil_mode, "avg_pool2d")
    h, w = x.shape[2:]
    acc = None
    for sl in _slices(_padded_for(x, k, s, p, d, out, 0), k, s, d, out):
        acc = sl.copy() if acc is None else np.add(acc, sl, out=acc)
    if divisor_override:
        acc *= x.dtype.type(1.0 / divisor_override)
        return acc
    ch = _avg_counts(h, k[0], s[0], p[0], out[0], count_include_pad)
    cw = _avg_counts(w, k[1], s[1], p[1], out[1], count_include_pad)
    acc /= np.outer(ch, cw).astype(x.dtype)
    return acc


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


def adaptive_avg_pool2d(x, output_size):
    """Mean over torch's adaptive windows [floor(i*H/oh), ceil((i+1)*H/oh)), as two small
    matmuls with averaging matrices (numpy reduces short inner axes slowly)."""
    need_float(x, "adaptive_avg_pool2d")
    oh, ow = _out_size(x, output_size, 2)
    h, w = x.shape[-2:]
    if (oh, ow) == (1, 1) and x.flags.c_contiguous:
        flat = x.reshape(-1, h * w)
        return np.matmul(flat, _averaging(h * w, 1, x.dtype)).reshape(x.shape[:-2] + (1, 1))
    if (oh, ow) == (h, w):
        return x.copy()
    y = x if ow == w else np.matmul(x, _averaging(w, ow, x.dtype))
    return y if oh == h else np.matmul(_averaging(h, oh, x.dtype).T, y)


def adaptive_max_pool2d(x, output_size, return_indices=False):
    """Max over torch's adaptive windows."""
    oh, ow = _out_size(x, output_size, 2)
    if return_indices:
        h, w = x.shape[-2:]
        vals = np.empty(x.shape[:-2] + (oh, ow), x.dtype)
        idx = np.empty(x.shape[:-2] + (oh, ow), np.int64)
        for i, (a, b) in enumerate(_bounds(h, oh)):
            for j, (c, e) in enumerate(_bounds(w, ow)):
                win = x[..., a:b, c:e].reshape(x.shape[:-2] + (-1,))
                arg = np.argmax(win, axis=-1)
                vals[..., i, j] = np.take_along_axis(win, arg[..., None], -1)[..., 0]
                idx[..., i, j] = (a + arg // (e - c)) * w + c + arg % (e - c)
        return vals, idx
    return _adaptive_axis(_adaptive_axis(x, -2, oh, np.max), -1, ow, np.max)


def _adaptive_1d(fn):
    def kernel(x, output_size, *rest):
        r = fn(x[..., None, :], (1, ntuple(output_size, 1, "output_size")[0]), *rest)
        return tuple(t[..., 0, :] for t in r) if isinstance(r, tuple) else r[..., 0, :]
    kernel.__doc__ = fn.__doc__
    return kernel


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
for _n, _k in ((2, max_pool2d), (1, max_pool1d)):
    reg(f"tensor.max_pool{_n}d", f"(Tensor self, {_MAXP}, bool return_indices=False) -> Tensor",
        _values_only(_k), (f"{F}.max_pool{_n}d", f"torch.max_pool{_n}d"),
        _no_indices(_pool_info(_n, True), 6), may_raise=True)
    reg(f"tensor.max_pool{_n}d_with_indices", f"(Tensor self, {_MAXP}, "
        "bool return_indices=True) -> Tuple[Tensor, Tensor]",
        _with_indices_kernel(_k), (f"{F}.max_pool{_n}d_with_indices",),
        _with_indices(_pool_info(_n, True)), may_raise=True,
        doc=f"max_pool{_n}d returning (values, flat indices per plane).")
reg("tensor.avg_pool2d", f"(Tensor self, {_AVGP}, int? divisor_override=None) -> Tensor",
    avg_pool2d, (f"{F}.avg_pool2d", "torch.avg_pool2d"), _pool_info(2, False), may_raise=True)
reg("tensor.avg_pool1d", f"(Tensor self, {_AVGP}) -> Tensor", avg_pool1d,
    (f"{F}.avg_pool1d", "torch.avg_pool1d"), _pool_info(1, False), may_raise=True)
reg("tensor.adaptive_avg_pool2d", "(Tensor self, Any output_size) -> Tensor",
    adaptive_avg_pool2d, (f"{F}.adaptive_avg_pool2d",), _adaptive_info(2), may_raise=True)
reg("tensor.adaptive_avg_pool1d", "(Tensor self, Any output_size) -> Tensor",
    _adaptive_1d(adaptive_avg_pool2d), (f"{F}.adaptive_avg_pool1d", "torch.adaptive_avg_pool1d"),
    _adaptive_info(1), may_raise=True)
for _n, _k in ((2, adaptive_max_pool2d), (1, _adaptive_1d(adaptive_max_pool2d))):
    reg(f"tensor.adaptive_max_pool{_n}d", "(Tensor self, Any output_size, "
        "bool return_indices=False) -> Tensor", _values_only(_k),
        (f"{F}.adaptive_max_pool{_n}d", f"torch.adaptive_max_pool{_n}d"),
        _no_indices(_adaptive_info(_n), 2), may_raise=True)
    reg(f"tensor.adaptive_max_pool{_n}d_with_indices", "(Tensor self, Any output_size, "
        "bool return_indices=True) -> Tuple[Tensor, Tensor]",
        _with_indices_kernel(_k),
        (f"{F}.adaptive_max_pool{_n}d_with_indices",), _with_indices(_adaptive_info(_n)),
        may_raise=True, doc=f"adaptive_max_pool{_n}d returning (values, flat indices).")
