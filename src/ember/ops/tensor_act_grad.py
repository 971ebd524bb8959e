"""Backward kernels of activations whose derivative is a chain of elementwise passes
(`tensor.hardswish_backward`), run block by block so that a large tensor's passes stay in
cache: each block of BLOCK elements goes through every pass before the next block starts
(the passes are elementwise, so blocking changes no result).

Their derivative rules (for grad of grad) are in ops/vjp_tensor.py."""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import arr, reg
from ember.ops.tensorinfo import UNKNOWN, TensorInfo

BLOCK = 1 << 15
"""Elements per block (128 KB of float32 per operand: a few operands and temporaries
stay in L2)."""


def blocks(n: int, size: int = BLOCK):
    """Slices covering range(n) in blocks of `size`."""
    return [slice(s, min(s + size, n)) for s in range(0, n, size)]


def _flat_operands(g, x):
    """(out, g, x) as flat arrays of one shape and dtype (out fresh), for blocked passes."""
    dt = np.result_type(g.dtype, x.dtype)
    if g.shape != x.shape:
        g, x = np.broadcast_arrays(g, x)
    g = np.asarray(g, dtype=dt, order="C")
    x = np.asarray(x, dtype=dt, order="C")
    out = np.empty(x.shape, dt)
    return out, g.reshape(-1), x.reshape(-1), out.reshape(-1)


def hardswish_backward(g, x):
    """The gradient of hardswish at x given the result's gradient g, as torch computes it:
    0 where x <= -3, g * (x / 3 + 0.5) where x < 3, g from 3 up."""
    g, x = arr(g), arr(x)
    if x.dtype.kind != "f":
        raise RuntimeError(f"\"hardswish_backward\" not implemented for '{x.dtype}'")
    out, gf, xf, of = _flat_operands(g, x)
    three, half = out.dtype.type(3), out.dtype.type(0.5)
    for s in blocks(of.size):
        xs, gs, os = xf[s], gf[s], of[s]
        np.divide(xs, three, out=os)
        os += half
        os *= gs
        np.copyto(os, gs, where=xs >= three)
        np.copyto(os, 0, where=xs <= -three)
    return out


def _like_broadcast(args):
    g, x = args[0], args[1]
    if not (g.is_tensor and x.is_tensor):
        return UNKNOWN
    shape = x.shape if g.shape == x.shape else None
    return TensorInfo(x.dtype, shape)


reg("tensor.hardswish_backward", "(Tensor grad_output, Tensor self) -> Tensor",
    hardswish_backward, shape=_like_broadcast, pure=True, may_raise=True)
