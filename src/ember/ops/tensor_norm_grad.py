"""Backward kernels of group norm and instance norm (their rules: ops/vjp_more.py).

Both normalize each sample over groups of channels and their positions with the biased
variance, then scale and shift per channel; instance norm is group norm with one channel
per group (`use_input_stats`), or a fixed per-channel affine map of the running statistics
otherwise. Sums run in the input's dtype, as layer_norm_backward's (tensor_grad.py)."""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import arr, reg
from ember.ops.tensor_grad import _ln_info  # (d input like the input; the rest per channel)


def _per_channel(v, ndim):
    """A (C,) vector shaped to broadcast over (N, C, *spatial)."""
    return v.reshape((1, -1) + (1,) * (ndim - 2))


def group_norm_backward(g, x, num_groups, weight, bias, eps):
    """(d input, d weight, d bias) of group_norm: x (N, C, *spatial), C % num_groups == 0."""
    x = arr(x)
    g = arr(g).astype(x.dtype, copy=False)
    n_, c = x.shape[0], x.shape[1]
    xg = x.reshape(n_, num_groups, -1)
    m = x.dtype.type(xg.shape[-1])
    mean = xg.mean(axis=-1, keepdims=True, dtype=x.dtype)
    invstd = 1 / np.sqrt(xg.var(axis=-1, keepdims=True, dtype=x.dtype) + x.dtype.type(eps))
    xhat = ((xg - mean) * invstd).reshape(x.shape)
    over = (0,) + tuple(range(2, x.ndim))
    gw = (g * xhat).sum(axis=over, dtype=x.dtype) if weight is not None else np.zeros(c, x.dtype)
    gb = g.sum(axis=over, dtype=x.dtype) if bias is not None else np.zeros(c, x.dtype)
    gh = g * _per_channel(arr(weight).astype(x.dtype), x.ndim) if weight is not None else g
    ghg, xhg = gh.reshape(xg.shape), xhat.reshape(xg.shape)
    gx = invstd / m * (m * ghg - ghg.sum(axis=-1, keepdims=True, dtype=x.dtype)
                       - xhg * (ghg * xhg).sum(axis=-1, keepdims=True, dtype=x.dtype))
    return arr(gx.reshape(x.shape).astype(x.dtype)), arr(gw.astype(x.dtype)), \
        arr(gb.astype(x.dtype))


def instance_norm_backward(g, x, running_mean, running_var, weight, bias, use_input_stats,
                           eps):
    """(d input, d weight, d bias) of instance_norm."""
    x = arr(x)
    if use_input_stats:
        return group_norm_backward(g, x, x.shape[1], weight, bias, eps)
    g = arr(g).astype(x.dtype, copy=False)
    c = x.shape[1]
    invstd = 1 / np.sqrt(arr(running_var).astype(x.dtype) + x.dtype.type(eps))
    xhat = (x - _per_channel(arr(running_mean).astype(x.dtype), x.ndim)) * \
        _per_channel(invstd, x.ndim)
    over = (0,) + tuple(range(2, x.ndim))
    gw = (g * xhat).sum(axis=over, dtype=x.dtype) if weight is not None else np.zeros(c, x.dtype)
    gb = g.sum(axis=over, dtype=x.dtype) if bias is not None else np.zeros(c, x.dtype)
    scale = invstd * arr(weight).astype(x.dtype) if weight is not None else invstd
    return arr((g * _per_channel(scale, x.ndim)).astype(x.dtype)), arr(gw), arr(gb)


reg("tensor.group_norm_backward",
    "(Tensor grad, Tensor input, int num_groups, Tensor? weight, Tensor? bias, float eps) -> "
    "Tuple[Tensor, Tensor, Tensor]", group_norm_backward, shape=_ln_info)
reg("tensor.instance_norm_backward",
    "(Tensor grad, Tensor input, Tensor? running_mean, Tensor? running_var, Tensor? weight, "
    "Tensor? bias, bool use_input_stats, float eps) -> Tuple[Tensor, Tensor, Tensor]",
    instance_norm_backward, shape=_ln_info)
