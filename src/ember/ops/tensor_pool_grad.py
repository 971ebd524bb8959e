"""Backward kernels of average pooling (1d, 2d, 3d; rules in ops/vjp_more.py): each output
cell's gradient, divided as the forward divided it (tensor_pool._avg_counts, or the
divisor override), spread over its window — the forward's taps run in reverse."""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import arr, reg
from ember.ops.tensor_pool import _avg_counts, _geometry, _slices
from ember.ops.tensorinfo import UNKNOWN, TensorInfo


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
