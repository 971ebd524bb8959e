"""Backward kernels of average and max pooling (1d, 2d, 3d; rules in ops/vjp_more.py and
vjp_tensor.py). Average: each output cell's gradient, divided as the forward divided it
(tensor_pool._avg_counts, or the divisor override), spread over its window — the
forward's taps run in reverse. Max: each window's gradient goes to its first maximum,
found tap by tap (no per-row scatter)."""

from __future__ import annotations

import itertools

import numpy as np

from ember.ops.tensor_common import arr, reg
from ember.ops.tensor_pool import _avg_counts, _geometry, _lowest, _padded_for, _slices
from ember.ops.tensorinfo import UNKNOWN, TensorInfo
from ember.ops.workspace import scratch


def _avg_pool_backward(g, x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                       divisor_override, n):
    x, g = arr(x), arr(g)
    if x.ndim == n + 1:  # unbatched
        return _avg_pool_backward(g[None], x[None], kernel_size, stride, padding, ceil_mode,
                                  count_include_pad, divisor_override, n)[0]
    k, s, p, d, out = _geometry(x, kernel_size, stride, padding, 1, ceil_mode,
                                f"avg_pool{n}d")
    if divisor_override:
        share = g / x.dtype.type(divisor_override)
    else:
        counts = np.ones((), np.int64)
        for i, size in enumerate(x.shape[2:]):
            counts = np.multiply.outer(counts, _avg_counts(size, k[i], s[i], p[i], out[i],
                                                           count_include_pad))
        share = g / counts.astype(x.dtype)
    sizes = x.shape[2:]
    need = [(o - 1) * si + ki for o, si, ki in zip(out, s, k)]
    padded = np.zeros(x.shape[:2] + tuple(max(a, b + pi) for a, b, pi in zip(need, sizes, p)),
                      x.dtype)
    for view in _slices(padded, k, s, d, out):
        view += share  # (each tap's view is a distinct strided window of `padded`)
    inner = (slice(None),) * 2 + tuple(slice(pi, pi + b) for pi, b in zip(p, sizes))
    return np.ascontiguousarray(padded[inner]).astype(x.dtype, copy=False)


def avg_pool1d_backward(g, x, kernel_size, stride, padding, ceil_mode, count_include_pad):
    """d avg_pool1d: each output's gradient spread evenly over its window."""
    return _avg_pool_backward(g, x, kernel_size, stride, padding, ceil_mode,
                              count_include_pad, None, 1)


def avg_pool2d_backward(g, x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                        divisor_override):
    """d avg_pool2d: each output's gradient spread evenly over its window."""
    return _avg_pool_backward(g, x, kernel_size, stride, padding, ceil_mode,
                              count_include_pad, divisor_override, 2)


def avg_pool3d_backward(g, x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                        divisor_override):
    """d avg_pool3d: each output's gradient spread evenly over its window."""
    return _avg_pool_backward(g, x, kernel_size, stride, padding, ceil_mode,
                              count_include_pad, divisor_override, 3)


def _like_second(args):
    b = args[1]
    return TensorInfo(b.dtype, b.shape) if b.is_tensor else UNKNOWN


_ARGS = "Any kernel_size, Any stride, Any padding, bool ceil_mode, bool count_include_pad"
reg("tensor.avg_pool1d_backward", f"(Tensor grad, Tensor self, {_ARGS}) -> Tensor",
    avg_pool1d_backward, shape=_like_second)
for _n, _fn in ((2, avg_pool2d_backward), (3, avg_pool3d_backward)):
    reg(f"tensor.avg_pool{_n}d_backward",
        f"(Tensor grad, Tensor self, {_ARGS}, int? divisor_override) -> Tensor", _fn,
        shape=_like_second)


def max_pool_backward(g, x, kernel_size, stride, padding, dilation, ceil_mode, n):
    """d max_pool{n}d: the taps scanned in order keep each window's first maximum (NaN wins,
    as the forward propagates it); each tap's strided view of the padded gradient then
    takes g where that tap won."""
    x, g = arr(x), arr(g)
    if x.ndim == n + 1:  # unbatched
        return max_pool_backward(g[None], x[None], kernel_size, stride, padding, dilation,
                                 ceil_mode, n)[0]
    k, s, p, d, out = _geometry(x, kernel_size, stride, padding, dilation, ceil_mode,
                                f"max_pool{n}d")
    if s == k and not any(p) and all(di == 1 for di in d) and \
            all(o * ki <= size for o, ki, size in zip(out, k, x.shape[2:])):
        res = _tiled_max_backward(g, x, k, out)
        if res is not None:
            return res
    xp = _padded_for(x, k, s, p, d, out, _lowest(x.dtype))
    best, arg = None, None
    tap_type = np.int16 if int(np.prod(k)) < 32767 else np.int32
    for t, view in enumerate(_slices(xp, k, s, d, out)):
        if best is None:
            best, arg = view.copy(), np.zeros(view.shape, tap_type)
            continue
        won = view > best
        if x.dtype.kind == "f":
            won |= np.isnan(view) & ~np.isnan(best)
        np.copyto(best, view, where=won)
        arg[won] = t
    g = g.astype(x.dtype, copy=False)
    gp = np.zeros(xp.shape, x.dtype)
    zero = x.dtype.type(0)
    for t, view in enumerate(_slices(gp, k, s, d, out)):
        view += np.where(arg == t, g, zero)
    sizes = x.shape[2:]
    inner = (slice(None),) * 2 + tuple(slice(pi, pi + b) for pi, b in zip(p, sizes))
    return np.ascontiguousarray(gp[inner])


_MAX = "Any kernel_size, Any stride=None, Any padding=0, Any dilation=1, bool ceil_mode=False"


def _tiled_max_backward(g, x, k, out):
    """Windows that tile the input: each tap is a strided view of x (window cell t of
    every window); their maximum found tap by tap, then each tap in order takes g where
    it equals the maximum and no earlier tap did (the first maximum wins), written
    straight into its strided view of the result. NaN (which the forward propagates and
    never equals itself) goes through the general path."""
    taps = [(slice(None),) * 2 + tuple(slice(i, o * ki, ki) for i, o, ki in zip(t, out, k))
            for t in itertools.product(*(range(ki) for ki in k))]
    best = scratch("maxpool.best", x[taps[0]].shape, x.dtype)
    np.copyto(best, x[taps[0]])
    for t in taps[1:]:
        np.maximum(best, x[t], out=best)
    if x.dtype.kind == "f" and np.isnan(best).any():
        return None
    g = g.astype(x.dtype, copy=False)
    covered = all(o * ki == size for o, ki, size in zip(out, k, x.shape[2:]))
    res = np.empty(x.shape, x.dtype) if covered else np.zeros(x.shape, x.dtype)
    free = scratch("maxpool.free", best.shape, bool)
    free[...] = True
    hit = scratch("maxpool.hit", best.shape, bool)
    for t in taps:
        np.equal(x[t], best, out=hit)
        hit &= free
        free &= ~hit
        np.multiply(g, hit, out=res[t])
    return res


def max_pool3d_backward(g, x, kernel_size, stride, padding, dilation, ceil_mode):
    """d max_pool3d: each window's gradient goes to its first maximum."""
    return max_pool_backward(g, x, kernel_size, stride, padding, dilation, ceil_mode, 3)


reg("tensor.max_pool3d_backward", f"(Tensor grad, Tensor self, {_MAX}) -> Tensor",
    max_pool3d_backward, shape=_like_second)


def adaptive_max_pool_backward(g, x, output_size, n):
    """d adaptive_max_pool{n}d: each window's gradient to its (first) maximum, through the
    forward's flat indices, in one scatter-add over all planes."""
    from ember.ops.registry import get
    x, g = arr(x), arr(g)
    _, idx = get(f"tensor.adaptive_max_pool{n}d_with_indices").kernel(x, output_size, True)
    plane = int(np.prod(x.shape[x.ndim - n:]))
    lead = int(np.prod(x.shape[:x.ndim - n]))
    flat = idx.reshape(lead, -1) + (np.arange(lead, dtype=np.int64) * plane)[:, None]
    out = np.zeros(lead * plane, x.dtype)
    np.add.at(out, flat.reshape(-1), g.astype(x.dtype, copy=False).reshape(-1))
    return out.reshape(x.shape)


for _n in (1, 2):
    reg(f"tensor.adaptive_max_pool{_n}d_backward",
        "(Tensor grad, Tensor self, Any output_size) -> Tensor",
        lambda g, x, size, _n=_n: adaptive_max_pool_backward(g, x, size, _n),
        shape=_like_second, doc=f"d adaptive_max_pool{_n}d: g to each window's maximum.")
