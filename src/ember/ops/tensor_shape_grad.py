"""Backward kernels of index_select and repeat (rules in ops/vjp_more.py): the gradient of a
gather is a scatter-add; the gradient of tiling sums the tiles."""

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


def _like_second(args):
    b = args[1]
    return TensorInfo(b.dtype, b.shape) if b.is_tensor else UNKNOWN


reg("tensor.index_select_backward", "(Tensor grad, Tensor self, int dim, Tensor index) -> Tensor",
    index_select_backward, shape=_like_second)
reg("tensor.repeat_backward", "(Tensor grad, Tensor self, int[] repeats) -> Tensor",
    repeat_backward, shape=_like_second)
