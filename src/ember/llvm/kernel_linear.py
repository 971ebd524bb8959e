"""tensor.linear through the native product (kernel_gemm.py).

`NativeLinear` is `tensor.linear` under the LLVM backend: x @ w.T + b for float32,
x (a strided x is copied first, but for 2-d rows apart with contiguous elements, which
the product reads in place) of at least ROWS rows (leading dims flattened) runs as one
native product of x and the weight's C-contiguous transpose (the kernel's own cached one
for a frozen weight, ops/tensor_linalg.weight_t), the bias added per column in the
epilogue after the sum (as the kernel adds it); one row runs the native GEMV
(kernel_gemv.py: against W^T, or W itself for fewer than 64 outputs). Two or three rows
and every other call run the numpy kernel, which also raises its errors. Arrays cross
to the kernels as object addresses (kernels.array): about 1 us less per array than
ctypes pointers.

The sum runs over k in order with FMAs where BLAS picks its own order: results differ
from the VM's by float32 rounding of an in_features-term sum (tests: within 1e-6 of the
sum of |x * w| terms).
"""

from __future__ import annotations

import numpy as np

from ember.llvm import kernel_gemm as G
from ember.llvm import kernel_gemv as GV
from ember.llvm import kernels
from ember.ops.tensor_common import frozen
from ember.ops.tensor_linalg import weight_t

ROWS = 4
"""Fewest rows the native product takes; one row is a native GEMV (kernel_gemv.py); two
and three rows run the kernel."""
_A = kernels.array
_empty = np.empty
_ND = np.ndarray
_F32 = np.dtype(np.float32)
_OFFSETS: dict = {}
_REC = kernels.RECORDING


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
    sam = k
    if not x.flags.c_contiguous:
        if x.ndim == 2 and rows >= ROWS and x.strides[1] == 4 and x.strides[0] % 4 == 0 \
                and x.strides[0] >= 4 * k and x.flags.aligned:
            sam = x.strides[0] // 4  # rows apart (the last step of an RNN's output)
        else:
            x = np.ascontiguousarray(x)
    y = _empty(x.shape[:-1] + (n,), _F32)
    if rows == 1:
        if n < GV.DOT_BELOW and w.flags.c_contiguous:
            fn = GV.native(b is not None, act, True)
            args = (_A(x), _A(w), 0 if b is None else _A(b), _A(y), k, n)
            fn(*args)
            if _REC[0] is not None:
                _note(fn, args, (x, w, b), y, w, w)
            return y
        wt = _weight_t(w)
        fn = GV.native(b is not None, act)
        args = (_A(x), _A(wt), 0 if b is None else _A(b), _A(y), k, n)
        fn(*args)
        if _REC[0] is not None:
            _note(fn, args, (x, wt, b), y, w, wt)
        return y
    wt = _weight_t(w)
    off = _offsets(k, n)  # (a local: the kernel reads the arrays the call's names hold)
    fn = G.native(None if b is None else "col", act, arrays=True)
    args = (_A(x), sam, 1, _A(off), _A(wt), 0, _A(y), n, 0, 0 if b is None else _A(b),
            rows, k, 1, n)
    fn(*args)
    if _REC[0] is not None:
        _note(fn, args, (x, off, wt, b), y, w, wt, off)
    return y


def _note(fn, args, reads, y, w, *derived):
    """kernels.note for a product: `derived` (w's transpose, offsets) are constants when
    w is frozen (offsets always are: a cache nobody writes)."""
    from ember.ops.tensor_common import frozen

    consts = derived if frozen(w) else tuple(d for d in derived if d.dtype == np.int64)
    kernels.note(fn, args, tuple(a for a in reads if a is not None), (y,), consts)


_WT: dict = {}


def _weight_t(w):
    """w.T C-contiguous: for a frozen w (the kernel caches its transpose then) kept here
    by identity, a dict hit instead of the kernel cache's lookup (about 1 us a call)."""
    hit = _WT.get(id(w))
    if hit is not None and hit[0] is w:
        return hit[1]
    wt = weight_t(w)
    if not wt.flags.c_contiguous:
        return np.ascontiguousarray(wt)
    if frozen(w):
        if len(_WT) >= 256:
            _WT.clear()
        _WT[id(w)] = (w, wt)
    return wt


def _covered(x, w, b) -> bool:
    if type(x) is not _ND or type(w) is not _ND or x.dtype is not _F32 or \
            w.dtype is not _F32 or x.ndim < 2 or w.ndim != 2:
        return False
    n, k = w.shape
    if x.shape[-1] != k or k == 0 or n == 0 or (x.size != k and x.size < ROWS * k):
        return False
    return b is None or (type(b) is _ND and b.dtype is _F32 and b.shape == (n,) and
                         b.flags.c_contiguous)
