"""Backward kernels of index_select, repeat, prelu and non-constant pads (rules in
ops/vjp_more.py): the gradient of a gather is a scatter-add; the gradient of tiling sums
the tiles; prelu's weight sums over everything but the channels; a reflect, replicate or
circular pad adds each padded cell's gradient to the cell it copied."""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import arr, reg
from ember.ops.tensorinfo import UNKNOWN, TensorInfo


def index_select_backward(g, x, dim, index):
    """d index_select: each selected slice's gradient added back at its index (repeats add)."""
    x, g = arr(x), arr(g)
    out = np.zeros(x.shape, x.dtype)
    dim %= max(x.ndim, 1)
    idx = np.asarray(index, np.int64).reshape(-1)
    np.add.at(out, (slice(None),) * dim + (idx,), g.astype(x.dtype, copy=False))
    return out


def repeat_backward(g, x, repeats):
    """d repeat: the tiles of g summed (a repeat adds leading dims when it has more counts)."""
    x, g = arr(x), arr(g)
    reps = tuple(int(r) for r in repeats)
    lead = len(reps) - x.ndim
    g = g.reshape(g.shape[:lead] + tuple(v for r, s in zip(reps[lead:], x.shape)
                                         for v in (r, s)))
    axes = tuple(range(lead)) + tuple(lead + 2 * i for i in range(x.ndim))
    return np.ascontiguousarray(g.sum(axis=axes, dtype=x.dtype).reshape(x.shape))


def prelu_backward(g, x, weight):
    """(d input, d weight) of prelu: the weight (one, or one per channel of dim 1)."""
    x, g, w = arr(x), arr(g), arr(weight)
    g = g.astype(x.dtype, copy=False)
    per_channel = w.size > 1 and x.ndim >= 2
    wb = w.reshape((1, -1) + (1,) * (x.ndim - 2)) if per_channel else w.reshape(())
    neg = x <= 0
    gx = np.where(neg, g * wb.astype(x.dtype), g)
    contrib = np.where(neg, g * x, x.dtype.type(0))
    if per_channel:
        gw = contrib.sum(axis=(0,) + tuple(range(2, x.ndim)), dtype=x.dtype)
    else:
        gw = np.full(w.shape, contrib.sum(dtype=x.dtype), x.dtype)
    return arr(gx.astype(x.dtype)), arr(gw.reshape(w.shape).astype(w.dtype))


def _prelu_info(args):
    return (TensorInfo(args[1].dtype, args[1].shape), TensorInfo(args[2].dtype, args[2].shape))


def pad_backward(g, x, pads, mode):
    """d F.pad in reflect, replicate or circular mode: per padded dim, the source index of
    every padded position (np.pad of the positions themselves, in the same mode) takes
    that position's gradient."""
    from ember.ops.tensor_resize import _MODES
    x, g = arr(x), arr(g)
    pads = [pads] if isinstance(pads, int) else list(pads)
    out = g.astype(x.dtype, copy=False)
    for i in range(len(pads) // 2):
        d, (a, b) = x.ndim - 1 - i, (pads[2 * i], pads[2 * i + 1])
        if a == 0 and b == 0:
            continue
        src = np.pad(np.arange(x.shape[d]), (a, b), mode=_MODES[mode])
        moved = np.moveaxis(out, d, 0)
        acc = np.zeros((x.shape[d],) + moved.shape[1:], x.dtype)
        np.add.at(acc, src, moved)
        out = np.moveaxis(acc, 0, d)
    return np.ascontiguousarray(out)


def _scatter_axis(g, axis, idx, weights, in_size, dtype):
    """The transpose of resampling along axis: each output's gradient, times its tap's
    weight, added to the input index the tap read."""
    moved = np.moveaxis(g, axis, 0)
    acc = np.zeros((in_size,) + moved.shape[1:], dtype)
    shape = (-1,) + (1,) * (moved.ndim - 1)
    for j in range(idx.shape[1]):
        np.add.at(acc, idx[:, j], moved * weights[:, j].astype(dtype).reshape(shape))
    return np.moveaxis(acc, 0, axis)


def interpolate_backward(g, x, size, scale_factor, mode, align_corners,
                         recompute_scale_factor, antialias):
    """d F.interpolate: the forward resamples one spatial dim after the other (tensor_resize),
    so the gradient runs the transposed resamplings in reverse order, from the same taps."""
    from ember.ops import tensor_resize as R
    x, g = arr(x), arr(g)
    R._check_mode(x, mode, align_corners, antialias)
    n = x.ndim - 2
    out, scales = R._sizes(x, size, scale_factor, n)
    if recompute_scale_factor:
        scales = [None] * n
    if mode == "area":
        if n != 2:
            raise NotImplementedError("the gradient of interpolate(mode='area') needs 2 "
                                      "spatial dims")
        from ember.ops.tensor_grad import adaptive_avg_pool2d_backward
        return adaptive_avg_pool2d_backward(g, x)
    y = g.astype(x.dtype, copy=False)
    for i in reversed(range(n)):
        axis, in_size = 2 + i, x.shape[2 + i]
        if mode in ("nearest", "nearest-exact"):
            src = R._nearest_source(in_size, out[i], scales[i], mode != "nearest",
                                    n == 2 and mode == "nearest")
            y = _scatter_axis(y, axis, src[:, None], np.ones((len(src), 1)), in_size, x.dtype)
        elif out[i] == in_size and mode != "bicubic":
            continue
        else:
            idx, w = R._taps(in_size, out[i], scales[i], bool(align_corners), mode == "bicubic")
            y = _scatter_axis(y, axis, idx, w, in_size, x.dtype)
    return np.ascontiguousarray(y)


def _like_second(args):
    b = args[1]
    return TensorInfo(b.dtype, b.shape) if b.is_tensor else UNKNOWN


reg("tensor.index_select_backward", "(Tensor grad, Tensor self, int dim, Tensor index) -> Tensor",
    index_select_backward, shape=_like_second)
reg("tensor.repeat_backward", "(Tensor grad, Tensor self, int[] repeats) -> Tensor",
    repeat_backward, shape=_like_second)
reg("tensor.prelu_backward", "(Tensor grad, Tensor self, Tensor weight) -> Tuple[Tensor, Tensor]",
    prelu_backward, shape=_prelu_info)
reg("tensor.pad_backward", "(Tensor grad, Tensor self, Any pad, str mode) -> Tensor",
    pad_backward, shape=_like_second)
reg("tensor.interpolate_backward",
    "(Tensor grad, Tensor self, Any size, Any scale_factor, str mode, bool? align_corners, "
    "bool? recompute_scale_factor, bool antialias) -> Tensor", interpolate_backward,
    shape=_like_second)
