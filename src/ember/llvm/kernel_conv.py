"""Depthwise conv2d as a native loop (stride 1, any kernel size, padding, dilation, bias).

`NativeConv2d` is `tensor.conv2d` under the LLVM backend: a depthwise call (groups equal
to the input and output channels, one input channel per group) on float32 C-contiguous
tensors runs here; every other convolution, and any call whose arguments the kernel
would refuse, runs the numpy kernel (ops/tensor_conv.py), which raises its own errors.

Per plane, the input is copied into a zero-bordered scratch plane; each output element
is then its taps' FMAs in (ki, kj) order from zero, in registers (the taps unrolled: one
function per kernel size, dilation and bias presence; the column loop vectorized for the
host), then the bias is added, as the kernel adds it after the products. The kernel sums taps through a BLAS product, in its own order, so
results differ from the VM's by the rounding of a 9-term float32 sum (tests: within
1e-5 relative to the sum of |w * x| terms).
"""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
from llvmlite import ir

from ember.llvm import kernel_conv_dense as dense
from ember.llvm import kernels
from ember.llvm.fused import F32, epilogue, epilogue_source
from ember.llvm.kernel_rnn import _loop, _ptr
from ember.llvm.layout import I64, PTR
from ember.ops import tensor_conv as C

_ARGS = ["x", "w", "b", "out", "pad", "planes", "ch", "h", "wd", "pt", "pl", "ho", "wo"]
_PTRS = {"x", "w", "b", "out", "pad"}
_PROTO = kernels.prototype(*[ctypes.c_void_p if a in _PTRS else ctypes.c_int64
                             for a in _ARGS])


def build(module, kh, kw, dh, dw, has_b, act=None) -> None:
    """`ember_dw(args…)` for one kernel size, dilation, bias presence and epilogue
    activation: per plane the input is copied into a zero-bordered scratch plane (`pad`),
    then each output element is its taps' FMAs in (ki, kj) order from zero, in registers,
    plus the bias, then `act` (fused.EPILOGUE_ACTS: the numpy kernel's operations)."""
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR if a in _PTRS else I64
                                                             for a in _ARGS]), "ember_dw")
    a = dict(zip(_ARGS, fn.args))
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    fma = _fma(module)
    zero = ir.Constant(F32, 0.0)
    hp = b.add(a["ho"], I64(dh * (kh - 1)))
    wp = b.add(a["wo"], I64(dw * (kw - 1)))

    def plane(b, p):
        c = b.srem(p, a["ch"])
        xp = _ptr(b, a["x"], b.mul(p, b.mul(a["h"], a["wd"])))
        op = _ptr(b, a["out"], b.mul(p, b.mul(a["ho"], a["wo"])))
        wts = [b.load(_ptr(b, a["w"], b.add(b.mul(c, I64(kh * kw)), I64(t))), typ=F32)
               for t in range(kh * kw)]
        bv = b.load(_ptr(b, a["b"], c), typ=F32) if has_b else None
        _loop(b, fn, I64(0), b.mul(hp, wp), I64(1), "z",
              lambda b, k: b.store(zero, _ptr(b, a["pad"], k)))

        def copy_row(b, r):
            src = _ptr(b, xp, b.mul(r, a["wd"]))
            dst = _ptr(b, a["pad"], b.add(b.mul(b.add(r, a["pt"]), wp), a["pl"]))
            _loop(b, fn, I64(0), a["wd"], I64(1), "cj", lambda b, j: b.store(
                b.load(_ptr(b, src, j), typ=F32), _ptr(b, dst, j)))
        _loop(b, fn, I64(0), a["h"], I64(1), "cr", copy_row)

        def row(b, i):
            orow = _ptr(b, op, b.mul(i, a["wo"]))
            rows = [_ptr(b, a["pad"], b.mul(b.add(i, I64(ki * dh)), wp)) for ki in range(kh)]

            def elem(b, j):
                acc = zero
                for ki in range(kh):
                    for kj in range(kw):
                        xv = b.load(_ptr(b, rows[ki], b.add(j, I64(kj * dw))), typ=F32)
                        acc = b.call(fma, [wts[ki * kw + kj], xv, acc])
                if has_b:
                    acc = b.fadd(acc, bv)
                b.store(epilogue(b, acc, act), _ptr(b, orow, j))
            _loop(b, fn, I64(0), a["wo"], I64(1), "j", elem)
        _loop(b, fn, I64(0), a["ho"], I64(1), "i", row)

    _loop(b, fn, I64(0), a["planes"], I64(1), "p", plane)
    b.ret_void()


def _fma(module):
    f = module.globals.get("llvm.fma.f32")
    return f if f is not None else ir.Function(module, ir.FunctionType(F32, [F32] * 3),
                                               "llvm.fma.f32")


_FN: dict = {}
MAX_TAPS = 64
"""Kernels with more taps than this run the numpy kernel (each size is its own code)."""


def _native(params):
    fn = _FN.get(params)
    if fn is None:
        src = inspect.getsource(inspect.getmodule(build)) + epilogue_source()
        addr, = kernels.compile_kernel("depthwise", params, lambda m: build(m, *params),
                                       ["ember_dw"], src)
        fn = _FN[params] = _PROTO(addr)
    return fn


_ND = np.ndarray
_F32 = np.dtype(np.float32)


class NativeConv2d:
    """tensor.conv2d: depthwise calls natively (see the module), stride-1 dense and
    grouped ones through the native product (kernel_conv_dense.py), the rest by the
    kernel."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, x, w, b, stride, padding, dilation, groups):
        plan = _plan(x, w, b, stride, padding, dilation, groups)
        if plan is None:
            out = dense.conv2d(x, w, b, stride, padding, dilation, groups)
            if out is not None:
                kernels.count("tensor.conv2d", "native")
                return out
            kernels.count("tensor.conv2d", "numpy")
            return self.kernel(x, w, b, stride, padding, dilation, groups)
        kernels.count("tensor.conv2d", "native")
        return _depthwise(x, w, b, plan, None)


def _depthwise(x, w, b, plan, act):
    (pt, pb), (pl, pr), (dh, dw) = plan
    n, c, h, wd = x.shape
    kh, kw = w.shape[2:]
    ho, wo = h + pt + pb - dh * (kh - 1), wd + pl + pr - dw * (kw - 1)
    out = np.empty((n, c, ho, wo), np.float32)
    w = np.ascontiguousarray(w)
    pad = np.empty((h + pt + pb) * (wd + pl + pr), np.float32)
    b = None if b is None else np.ascontiguousarray(b)
    fn = _native((kh, kw, dh, dw, b is not None, act))
    args = (x.ctypes.data, w.ctypes.data, 0 if b is None else b.ctypes.data, out.ctypes.data,
            pad.ctypes.data, n * c, c, h, wd, pt, pl, ho, wo)
    fn(*args)
    if kernels.RECORDING[0] is not None:
        kernels.note(fn, args, [a for a in (x, w, b) if a is not None], (out,), temps=(pad,))
    return out


def conv2d_act(x, w, b, stride, padding, dilation, groups, act):
    """conv2d then `act` (fused.EPILOGUE_ACTS) in the epilogue of the depthwise loop or of
    the native product (dense and grouped convolutions); None where neither covers the
    call (the caller runs the two ops one by one)."""
    plan = _plan(x, w, b, stride, padding, dilation, groups)
    if plan is not None:
        return _depthwise(x, w, b, plan, act)
    return dense.conv2d(x, w, b, stride, padding, dilation, groups, act)


def _plan(x, w, b, stride, padding, dilation, groups):
    """((top, bottom), (left, right), (dh, dw)) for a depthwise call this loop covers;
    None for anything else (including every call the kernel would refuse)."""
    if type(x) is not _ND or type(w) is not _ND or x.dtype is not _F32 or \
            w.dtype is not _F32 or x.ndim != 4 or w.ndim != 4 or not x.flags.c_contiguous:
        return None
    n, c, h, wd = x.shape
    if type(groups) is not int or groups != c or w.shape[0] != c or w.shape[1] != 1 or \
            not 1 < w.shape[2] * w.shape[3] <= MAX_TAPS or n * c == 0:
        return None
    if b is not None and (type(b) is not _ND or b.dtype is not _F32 or b.shape != (c,)):
        return None
    try:
        st = C.ntuple(stride, 2, "stride")
        dil = C.ntuple(dilation, 2, "dilation")
        pads = C._pads(padding, w.shape[2:], dil, st)
    except (RuntimeError, ValueError, TypeError):
        return None
    if st != (1, 1) or any(type(d) is not int or not 1 <= d <= 16 for d in dil):
        return None
    (pt, pb), (pl, pr) = pads
    if h + pt + pb - dil[0] * (w.shape[2] - 1) <= 0 or \
            wd + pl + pr - dil[1] * (w.shape[3] - 1) <= 0:
        return None
    return (pt, pb), (pl, pr), dil
