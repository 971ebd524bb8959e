"""tensor.linear through the native product (kernel_gemm.py).

`NativeLinear` is `tensor.linear` under the LLVM backend: x @ w.T + b for float32,
C-contiguous x of at least ROWS rows (leading dims flattened) runs as one native product
of x and the weight's C-contiguous transpose (the kernel's own cached one for a frozen
weight, ops/tensor_linalg.weight_t), the bias added per column in the epilogue after the
sum (as the kernel adds it). Fewer rows (a GEMV: numpy's BLAS streams the weight as fast)
and every other call run the numpy kernel, which also raises its errors.

The sum runs over k in order with FMAs where BLAS picks its own order: results differ
from the VM's by float32 rounding of an in_features-term sum (tests: within 1e-6 of the
sum of |x * w| terms).
"""

from __future__ import annotations

import numpy as np

from ember.llvm import kernel_gemm as G
from ember.llvm import kernels
from ember.ops.tensor_linalg import weight_t

ROWS = 4
"""Fewest rows the native product takes (below, the kernel's GEMV)."""
_ND = np.ndarray
_F32 = np.dtype(np.float32)
_OFFSETS: dict = {}


def _offsets(k, n):
    off = _OFFSETS.get((k, n))
    if off is None:
        if len(_OFFSETS) > 256:
            _OFFSETS.clear()
        off = _OFFSETS[(k, n)] = np.arange(k, dtype=np.int64) * n
    return off


class NativeLinear:
    """tensor.linear: the native product where it covers the call, else the kernel."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, x, w, b):
        y = linear_act(x, w, b)
        if y is None:
            kernels.count("tensor.linear", "numpy")
            return self.kernel(x, w, b)
        kernels.count("tensor.linear", "native")
        return y


def linear_act(x, w, b, act=None):
    """x @ w.T + b (then `act`: None or "relu", in the epilogue) natively, or None where
    the native product does not cover the call."""
    if not _covered(x, w, b):
        return None
    n, k = w.shape
    rows = x.size // k
    wt = weight_t(w)
    if not wt.flags.c_contiguous:
        wt = np.ascontiguousarray(wt)
    y = np.empty(x.shape[:-1] + (n,), np.float32)
    G.native(None if b is None else "col", act)(
        x.ctypes.data, k, 1, _offsets(k, n).ctypes.data, wt.ctypes.data, 0, y.ctypes.data,
        n, 0, 0 if b is None else b.ctypes.data, rows, k, 1, n)
    return y


def _covered(x, w, b) -> bool:
    if type(x) is not _ND or type(w) is not _ND or x.dtype is not _F32 or \
            w.dtype is not _F32 or x.ndim < 2 or w.ndim != 2 or not x.flags.c_contiguous:
        return False
    n, k = w.shape
    if x.shape[-1] != k or k == 0 or n == 0 or x.size < ROWS * k:
        return False
    return b is None or (type(b) is _ND and b.dtype is _F32 and b.shape == (n,) and
                         b.flags.c_contiguous)
