"""Scratch buffers that kernels reuse from call to call (per thread), for temporaries that
never leave the kernel: im2col columns, zero-padded copies of an input, centred copies.

A fresh large array costs a page fault per 4 KB page the first time it is written (the
allocator maps it anew, and returns it to the system when it is freed); a training step
makes the same temporaries every step, so keeping them turns those faults into nothing.
Each kernel names its buffers (`"conv.cols"`), holds a buffer only while it runs (and
calls no kernel that takes the same name meanwhile), and never returns one or a view of
one; kernels that never run inside one another share names (the convolutions and their
gradients), and a name keeps the largest buffer asked for under it.
"""

from __future__ import annotations

import threading

import numpy as np

_LOCAL = threading.local()


def scratch(name: str, shape, dtype) -> np.ndarray:
    """An uninitialized C-contiguous array of `shape` and `dtype`, the thread's buffer
    `name` (its contents are whatever its last user left)."""
    bufs = _LOCAL.__dict__.get("bufs")
    if bufs is None:
        bufs = _LOCAL.bufs = {}
    dtype = np.dtype(dtype)
    size = 1
    for s in shape:
        size *= int(s)
    key = (name, dtype)
    buf = bufs.get(key)
    if buf is None or buf.size < size:
        buf = bufs[key] = np.empty(max(size, 1), dtype)
    return buf[:size].reshape(shape)


def padded(name: str, x: np.ndarray, pads, extra_rows: int = 0) -> np.ndarray:
    """x zero-padded in its spatial dims (pads: (before, after) per spatial dim), plus
    `extra_rows` zero rows at the end of the first spatial dim, in scratch buffer `name`:
    only the border is zeroed, the interior is one copy of x."""
    sizes = [s + b + a for s, (b, a) in zip(x.shape[2:], pads)]
    sizes[0] += extra_rows
    out = scratch(name, x.shape[:2] + tuple(sizes), x.dtype)
    lead = (slice(None), slice(None))
    for d, (s, (b, _)) in enumerate(zip(x.shape[2:], pads)):
        before = lead + (slice(None),) * d + (slice(0, b),)
        after = lead + (slice(None),) * d + (slice(b + s, None),)
        out[before] = 0
        out[after] = 0
    out[lead + tuple(slice(b, b + s) for s, (b, _) in zip(x.shape[2:], pads))] = x
    return out
