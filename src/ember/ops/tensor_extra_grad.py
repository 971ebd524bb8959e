"""Backward kernels of the rules in ops/vjp_extra.py that move elements around (and so
are not worth writing in ember operators): cumprod (exact where the input has zeros),
take, masked_select, repeat_interleave and diag. Each gives the gradient with respect to
its `self` operand, in its dtype and shape."""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import arr, reg
from ember.ops.tensorinfo import UNKNOWN, TensorInfo


def _like_second(args):
    a = args[1]
    return TensorInfo(a.dtype, a.shape) if a.is_tensor else UNKNOWN


def cumprod_backward(g, x, dim):
    """sum over j >= i of g_j * prod_{k <= j, k != i} x_k, with no division (torch's
    formula divides by x and needs a special case per zero)."""
    x, g = arr(x), arr(g)
    if x.ndim == 0:
        return arr(g.astype(x.dtype, copy=True))
    xs, gs = np.moveaxis(x, dim, -1), np.moveaxis(g.astype(x.dtype, copy=False), dim, -1)
    out = np.empty(xs.shape, x.dtype)
    before = np.ones(xs.shape[:-1], x.dtype)
    n = xs.shape[-1]
    for i in range(n):
        after = np.cumprod(xs[..., i + 1:], axis=-1)
        total = gs[..., i] + (gs[..., i + 1:] * after).sum(axis=-1)
        out[..., i] = before * total
        before = before * xs[..., i]
    return arr(np.ascontiguousarray(np.moveaxis(out, -1, dim)))


def take_backward(g, x, index):
    """g added back at the flat positions `index` of x (repeats accumulate)."""
    out = np.zeros(x.size, x.dtype)
    np.add.at(out, arr(index).astype(np.int64).reshape(-1) % max(x.size, 1),
              arr(g).astype(x.dtype, copy=False).reshape(-1))
    return arr(out.reshape(x.shape))


def masked_select_backward(g, x, mask):
    """g back in place of the selected elements (mask and x broadcast), summed to x."""
    shape = np.broadcast_shapes(x.shape, mask.shape)
    full = np.zeros(shape, x.dtype)
    full[np.broadcast_to(arr(mask).astype(bool), shape)] = arr(g).astype(x.dtype, copy=False)
    lead = len(shape) - x.ndim
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(x.shape)
                                      if s == 1 and shape[lead + i] != 1)
    return arr(np.ascontiguousarray(full.sum(axis=axes).reshape(x.shape)))


def repeat_interleave_backward(g, x, repeats, dim):
    """The `repeats` copies of each element summed (over the flattened x for dim None)."""
    g = arr(g).astype(x.dtype, copy=False)
    if dim is None:
        return arr(np.ascontiguousarray(g.reshape(-1, repeats).sum(axis=1).reshape(x.shape)))
    d = dim % max(x.ndim, 1)
    shape = x.shape[:d] + (x.shape[d], repeats) + x.shape[d + 1:]
    return arr(np.ascontiguousarray(g.reshape(shape).sum(axis=d + 1)))


def diag_backward(g, x, diagonal):
    """A vector's matrix gives back its diagonal; a matrix's diagonal goes back in place."""
    g = arr(g).astype(x.dtype, copy=False)
    if x.ndim == 1:
        return arr(np.ascontiguousarray(np.diagonal(g, diagonal)))
    out = np.zeros(x.shape, x.dtype)
    rows = np.arange(g.shape[0]) + max(-diagonal, 0)
    out[rows, rows + diagonal] = g
    return arr(out)


reg("tensor.cumprod_backward", "(Tensor grad, Tensor self, int dim) -> Tensor",
    cumprod_backward, shape=_like_second)
reg("tensor.take_backward", "(Tensor grad, Tensor self, Tensor index) -> Tensor",
    take_backward, shape=_like_second)
reg("tensor.masked_select_backward", "(Tensor grad, Tensor self, Tensor mask) -> Tensor",
    masked_select_backward, shape=_like_second)
reg("tensor.repeat_interleave_backward",
    "(Tensor grad, Tensor self, int repeats, int? dim=None) -> Tensor",
    repeat_interleave_backward, shape=_like_second)
reg("tensor.diag_backward", "(Tensor grad, Tensor self, int diagonal=0) -> Tensor",
    diag_backward, shape=_like_second)


def sdpa_backward(g, q, k, v, mask, causal, scale):
    """(dq, dk, dv, dscores) of scaled_dot_product_attention without dropout; the
    batch dims are the broadcast ones (the rule sums them back to each operand), and
    dscores is the float mask's gradient."""
    from ember.ops.tensor_activation import softmax_last
    from ember.ops.tensor_attention import _apply_mask

    s = (1.0 / np.sqrt(q.shape[-1])) if scale is None else scale
    scores = np.matmul(q, np.swapaxes(k, -1, -2)) * q.dtype.type(s)
    _apply_mask(scores, mask, causal)
    p = softmax_last(scores)
    g = arr(g).astype(q.dtype, copy=False)
    gv = np.matmul(np.swapaxes(p, -1, -2), g)
    gp = np.matmul(g, np.swapaxes(v, -1, -2))
    gs = p * (gp - (gp * p).sum(axis=-1, keepdims=True))
    ds = gs * q.dtype.type(s)
    gq = np.matmul(ds, k)
    gk = np.matmul(np.swapaxes(ds, -1, -2), q)
    return arr(gq), arr(gk), arr(gv), arr(gs)


def rms_norm_backward(g, x, normalized_shape, weight, eps):
    """(dx, dweight) of rms_norm: y = x r w with r = rsqrt(mean(x^2) + eps) over the
    normalized dims; dx = r (gw - x r^2 mean(gw x)), dweight = sum(g x r)."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else \
        tuple(normalized_shape)
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    e = np.finfo(x.dtype).eps if eps is None else eps
    r = 1.0 / np.sqrt(np.mean(x * x, axis=axes, keepdims=True) + e)
    g = arr(g).astype(x.dtype, copy=False)
    gw = g * weight if weight is not None else g
    dx = r * gw - x * (r ** 3) * np.mean(gw * x, axis=axes, keepdims=True)
    dweight = np.zeros(0, x.dtype)
    if weight is not None:
        full = g * x * r
        dweight = full.reshape((-1,) + tuple(weight.shape)).sum(axis=0) \
            if weight.ndim else full.sum()
    return arr(dx.astype(x.dtype, copy=False)), arr(np.asarray(dweight, x.dtype))


def tile_backward(g, x, dims):
    """tile's counts padded with leading ones to x's rank, then repeat's backward."""
    from ember.ops.tensor_shape_grad import repeat_backward

    reps = [dims] if isinstance(dims, int) else list(dims)
    reps = [1] * (x.ndim - len(reps)) + reps
    return arr(repeat_backward(g, x, reps))


def hvstack_backward(g, tensors, vertical):
    """Each operand's slice of hstack's (dim 1, or 0 for vectors) or vstack's (dim 0,
    vectors as rows) result."""
    out, start = [], 0
    for t in tensors:
        dim = 0 if vertical or t.ndim == 1 else 1
        n = 1 if vertical and t.ndim <= 1 else (t.shape[dim] if t.ndim else 1)
        piece = np.take(g, range(start, start + n), axis=dim)
        out.append(arr(np.ascontiguousarray(piece.reshape(t.shape)).astype(t.dtype,
                                                                            copy=False)))
        start += n
    return out


def _sdpa_grad_info(args):
    q, k, v = args[1], args[2], args[3]
    return (TensorInfo(q.dtype, None), TensorInfo(k.dtype, None), TensorInfo(v.dtype, None),
            TensorInfo(q.dtype, None))


def _rms_grad_info(args):
    x, w = args[1], args[3]
    return (TensorInfo(x.dtype, x.shape),
            TensorInfo(w.dtype, w.shape) if w.is_tensor else TensorInfo(x.dtype, None))


reg("tensor.sdpa_backward", "(Tensor grad, Tensor query, Tensor key, Tensor value, "
    "Tensor? attn_mask, bool is_causal, float? scale) -> Tuple[Tensor, Tensor, Tensor, Tensor]",
    sdpa_backward, shape=_sdpa_grad_info)
reg("tensor.rms_norm_backward", "(Tensor grad, Tensor input, Any normalized_shape, "
    "Tensor? weight, float? eps) -> Tuple[Tensor, Tensor]", rms_norm_backward,
    shape=_rms_grad_info)
reg("tensor.tile_backward", "(Tensor grad, Tensor self, Any dims) -> Tensor", tile_backward,
    shape=_like_second)
reg("tensor.hvstack_backward", "(Tensor grad, Tensor[] tensors, bool vertical) -> Tensor[]",
    hvstack_backward)
