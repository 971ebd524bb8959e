"""Backward kernels of diff, tensordot and local_response_norm, for the rules in
ops/vjp_extra.py. Each returns the gradients of its differentiable operands in their
dtypes and shapes (an empty tensor for an operand that is absent)."""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import arr, quiet, reg
from ember.ops.tensor_grad import sum_to
from ember.ops.tensorinfo import TensorInfo


def diff_backward(g, x, n, dim, prepend, append):
    """(d self, d prepend, d append) of diff: n times the adjoint of one forward
    difference (g shifted by one minus g), split back into the joined parts."""
    g = arr(g)
    d = dim % x.ndim
    for _ in range(n):
        shape = list(g.shape)
        shape[d] += 1
        up = np.zeros(shape, g.dtype)
        lo = [slice(None)] * g.ndim
        lo[d] = slice(1, None)
        up[tuple(lo)] += g
        lo[d] = slice(0, -1)
        up[tuple(lo)] -= g
        g = up
    parts, at = [], 0
    for p in (prepend, x, append):
        if p is None:
            parts.append(np.zeros(0, x.dtype))
            continue
        width = 1 if p.ndim == 0 else p.shape[d]
        cut = [slice(None)] * g.ndim
        cut[d] = slice(at, at + width)
        at += width
        piece = g[tuple(cut)]
        parts.append(sum_to(piece, p) if p.ndim else np.array(piece.sum(), p.dtype))
    pre, gx, app = (arr(np.ascontiguousarray(q)) for q in parts)
    return gx, pre, app


def _contracted(a, b, dims):
    """The contracted axes (of a, of b) of tensordot's int, pair or list-of-lists dims."""
    if isinstance(dims, (int, np.integer)):
        return list(range(a.ndim - dims, a.ndim)), list(range(dims))
    da, db = dims
    return [int(i) % a.ndim for i in da], [int(j) % b.ndim for j in db]


def tensordot_backward(g, a, b, dims):
    """(d self, d other) of tensordot: g contracted with the other operand over the other's
    free axes, its axes put back in the operand's order."""
    g = arr(g)
    ca, cb = _contracted(a, b, dims)
    fa = [i for i in range(a.ndim) if i not in ca]
    fb = [j for j in range(b.ndim) if j not in cb]
    ga = np.tensordot(g, b, axes=(list(range(len(fa), g.ndim)), fb))
    src = fa + [ca[cb.index(j)] for j in sorted(cb)]  # the a-axis each result axis is
    ga = ga.transpose([src.index(k) for k in range(a.ndim)])
    gb = np.tensordot(a, g, axes=(fa, list(range(len(fa)))))
    src = [cb[ca.index(i)] for i in sorted(ca)] + fb
    gb = gb.transpose([src.index(k) for k in range(b.ndim)])
    return (arr(np.ascontiguousarray(ga, dtype=a.dtype)),
            arr(np.ascontiguousarray(gb, dtype=b.dtype)))


def _window_sum(v, before, size):
    """Along dim 1: the sum of v over [c - before, c - before + size) (zero outside)."""
    c = v.shape[1]
    padded = np.zeros((v.shape[0], c + size - 1) + v.shape[2:], v.dtype)
    padded[:, before:before + c] = v
    out = padded[:, 0:c].copy()
    for i in range(1, size):
        out += padded[:, i:i + c]
    return out


def local_response_norm_backward(g, x, size, alpha, beta, k):
    """d local_response_norm: out = x * D^-beta with D = k + alpha / size * (window sum of
    x^2), so dx_j = g_j D_j^-beta - 2 alpha beta / size * x_j * sum over the windows c
    holding j of g_c x_c D_c^(-beta-1) (the window mirrored)."""
    g = arr(g).astype(x.dtype, copy=False)
    if x.shape[1] == 0:
        return arr(g.copy())
    dt = x.dtype.type
    d = _window_sum(np.square(x), size // 2, size)
    d *= dt(alpha / size)
    d += dt(k)
    with quiet():
        scale = np.power(d, dt(-beta))
        t = g * x * scale / d
    r = _window_sum(t, (size - 1) // 2, size)
    out = g * scale
    out -= dt(2 * alpha * beta / size) * x * r
    return arr(out)


def _parts_info(args):
    x = args[1]
    return (TensorInfo(x.dtype, x.shape), TensorInfo(None, None), TensorInfo(None, None))


def _pair_info(args):
    a, b = args[1], args[2]
    return (TensorInfo(a.dtype, a.shape), TensorInfo(b.dtype, b.shape))


def _like_second(args):
    x = args[1]
    return TensorInfo(x.dtype, x.shape)


reg("tensor.diff_backward", "(Tensor grad, Tensor self, int n, int dim, Tensor? prepend, "
    "Tensor? append) -> Tuple[Tensor, Tensor, Tensor]", diff_backward, shape=_parts_info,
    may_raise=True)
reg("tensor.tensordot_backward", "(Tensor grad, Tensor self, Tensor other, Any dims) -> "
    "Tuple[Tensor, Tensor]", tensordot_backward, shape=_pair_info, may_raise=True)
reg("tensor.local_response_norm_backward", "(Tensor grad, Tensor input, int size, "
    "float alpha, float beta, float k) -> Tensor", local_response_norm_backward,
    shape=_like_second, may_raise=True)
