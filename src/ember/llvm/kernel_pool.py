"""max_pool2d as a native loop (no padding, dilation 1, floor mode; any window and stride).

`NativeMaxPool2d` is `tensor.max_pool2d` under the LLVM backend: a float32,
C-contiguous (N, C, H, W) or (C, H, W) input runs one loop over planes, output rows and
columns, the window's taps unrolled (one function per window and stride, the column loop
vectorized for the host). Each output is numpy's np.maximum fold over the taps in the
kernel's (ki, kj) order — `acc if acc >= v or acc is NaN else v` — so values, NaN
propagation and the sign of a zero maximum are the kernel's, bit for bit. Any other call
(padding, dilation, ceil_mode, indices, other dtypes, anything the kernel would refuse)
runs the numpy kernel (ops/tensor_pool.py).
"""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
from llvmlite import ir

from ember.llvm import kernels
from ember.llvm.fused import F32
from ember.llvm.kernel_rnn import _loop, _ptr
from ember.llvm.layout import I64, PTR
from ember.ops.tensor_conv import ntuple

_ARGS = ["x", "out", "planes", "h", "w", "ho", "wo"]
_PROTO = kernels.prototype(*[ctypes.c_void_p if a in ("x", "out") else ctypes.c_int64
                             for a in _ARGS])
MAX_TAPS = 64
_ND = np.ndarray
_F32 = np.dtype(np.float32)


def build(module, kh, kw, sh, sw) -> None:
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR] + [I64] * 5),
                     "ember_maxpool")
    a = dict(zip(_ARGS, fn.args))
    b = ir.IRBuilder(fn.append_basic_block("entry"))

    def plane(b, p):
        xp = _ptr(b, a["x"], b.mul(p, b.mul(a["h"], a["w"])))
        op = _ptr(b, a["out"], b.mul(p, b.mul(a["ho"], a["wo"])))

        def row(b, i):
            rows = [_ptr(b, xp, b.mul(b.add(b.mul(i, I64(sh)), I64(ki)), a["w"]))
                    for ki in range(kh)]
            orow = _ptr(b, op, b.mul(i, a["wo"]))

            def col(b, j):
                base = b.mul(j, I64(sw))
                acc = None
                for ki in range(kh):
                    for kj in range(kw):
                        v = b.load(_ptr(b, rows[ki], b.add(base, I64(kj))), typ=F32)
                        if acc is None:
                            acc = v
                        else:
                            keep = b.or_(b.fcmp_ordered(">=", acc, v),
                                         b.fcmp_unordered("uno", acc, acc))
                            acc = b.select(keep, acc, v)
                b.store(acc, _ptr(b, orow, j))
            _loop(b, fn, I64(0), a["wo"], I64(1), "j", col)
        _loop(b, fn, I64(0), a["ho"], I64(1), "i", row)

    _loop(b, fn, I64(0), a["planes"], I64(1), "p", plane)
    b.ret_void()


_FN: dict = {}


def _native(params):
    fn = _FN.get(params)
    if fn is None:
        src = inspect.getsource(inspect.getmodule(build))
        addr, = kernels.compile_kernel("maxpool", params, lambda m: build(m, *params),
                                       ["ember_maxpool"], src)
        fn = _FN[params] = _PROTO(addr)
    return fn


class NativeMaxPool2d:
    """tensor.max_pool2d: the native loop where it covers the call, else the kernel."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                 return_indices=False):
        plan = _plan(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices)
        if plan is None:
            kernels.count("tensor.max_pool2d", "numpy")
            return self.kernel(x, kernel_size, stride, padding, dilation, ceil_mode,
                               return_indices)
        kernels.count("tensor.max_pool2d", "native")
        (kh, kw), (sh, sw) = plan
        h, w = x.shape[-2:]
        ho, wo = (h - kh) // sh + 1, (w - kw) // sw + 1
        out = np.empty(x.shape[:-2] + (ho, wo), np.float32)
        fn = _native((kh, kw, sh, sw))
        args = (x.ctypes.data, out.ctypes.data, x.size // (h * w), h, w, ho, wo)
        fn(*args)
        if kernels.RECORDING[0] is not None:
            kernels.note(fn, args, (x,), (out,))
        return out


def _ints(v, what):
    t = ntuple(v, 2, what)
    return t if all(type(i) is int for i in t) else None


def _plan(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices):
    """((kh, kw), (sh, sw)) for a call this loop covers, else None."""
    if type(x) is not _ND or x.dtype is not _F32 or x.ndim not in (3, 4) or \
            not x.flags.c_contiguous or x.size == 0 or ceil_mode is not False or \
            return_indices is not False:
        return None
    try:
        k = _ints(kernel_size, "kernel_size")
        s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
            _ints(stride, "stride")
        p, d = _ints(padding, "padding"), _ints(dilation, "dilation")
    except (RuntimeError, TypeError, ValueError):
        return None
    if k is None or s is None or p != (0, 0) or d != (1, 1):
        return None
    if not all(1 <= i <= 16 for i in k + s) or k[0] * k[1] > MAX_TAPS:
        return None
    if x.shape[-2] < k[0] or x.shape[-1] < k[1]:
        return None
    return k, s


class NativeAdaptiveAvgPool2d:
    """tensor.adaptive_avg_pool2d to one cell (a global average pool, as squeeze-excite
    blocks use): each plane's mean as the native GEMV's dot form (kernel_gemv.py) of the
    planes (rows of H * W floats) with the kernel's own averaging vector (1 / (H * W) per
    element), as the kernel's product computes it but for the order of the sum. float32
    C-contiguous 3-d or 4-d inputs; every other call runs the kernel."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, x, output_size):
        if not _global(x, output_size):
            kernels.count("tensor.adaptive_avg_pool2d", "numpy")
            return self.kernel(x, output_size)
        kernels.count("tensor.adaptive_avg_pool2d", "native")
        from ember.llvm import kernel_gemv as GV
        from ember.ops.tensor_pool import _averaging

        hw = x.shape[-1] * x.shape[-2]
        planes = x.reshape(-1, hw)
        avg = _averaging(hw, 1, _F32)  # (hw, 1), contiguous: the vector
        out = np.empty(x.shape[:-2] + (1, 1), _F32)
        A = kernels.array
        fn = GV.native(False, None, True)
        args = (A(avg), A(planes), 0, A(out), hw, planes.shape[0])
        fn(*args)
        if kernels.RECORDING[0] is not None:
            kernels.note(fn, args, (avg, planes), (out,), (avg,))
        return out


def _global(x, output_size) -> bool:
    if type(x) is not _ND or x.dtype is not _F32 or x.ndim not in (3, 4) or \
            not x.flags.c_contiguous or x.size == 0:
        return False
    if output_size == 1 and type(output_size) is int:
        return True
    return isinstance(output_size, (list, tuple)) and len(output_size) == 2 and \
        all(type(o) is int and o == 1 for o in output_size)
