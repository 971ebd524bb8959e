"""Max pooling of uint8 codes as a native loop (static int8 models pool codes: the max of
the codes dequantizes to the max of the dequantized values, dequantizing being monotone).

`NativeCodesMaxPool2d` wraps what runs `tensor.max_pool2d` under the LLVM backend (the
float loop of kernel_pool.py): a C-contiguous uint8 (N, C, H, W) or (C, H, W) input with
no padding, dilation 1, floor mode, no indices, a window of at most 8 x 8 and a stride
of at most 4 runs here; every other call goes to the wrapped twin (which runs the numpy
kernel for codes). Each row of 16 outputs takes, per window tap (ki, kj), one masked load
of 16 * stride bytes from column 16 * stride * block + kj (lanes past the row masked) and
keeps its lanes 0, stride, 2 * stride, ...: the unsigned maximum over the taps is the
numpy kernel's value exactly (an integer maximum has one answer).
"""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
from llvmlite import ir

from ember.llvm import kernels
from ember.llvm.kernels import COUNTS
from ember.llvm.kernel_qgemm import I8, I32, _data, _gep, _mask, _mload, _mstore
from ember.llvm.kernel_qlinear import NATIVE_OK, note
from ember.llvm.kernel_rnn import _loop
from ember.llvm.layout import I64, PTR
from ember.ops.tensor_conv import ntuple

_U8 = np.dtype(np.uint8)
_ND = np.ndarray
_ARGS = ["x", "out", "planes", "h", "w", "ho", "wo"]
_PROTO = ctypes.CFUNCTYPE(None, ctypes.py_object, ctypes.py_object, *[ctypes.c_int64] * 5)
MAX_K, MAX_S = 8, 4


def build(module, kh, kw, sh, sw):
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR] + [I64] * 5),
                     "ember_qmaxpool")
    a = dict(zip(_ARGS, fn.args))
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    x, out = _data(b, a["x"]), _data(b, a["out"])
    wide = ir.VectorType(I8, 16 * sw)
    total = b.mul(a["planes"], b.mul(a["h"], a["w"]))
    tail = _mask(b, b.srem(a["wo"], I64(16)))  # the stores of a row's last, partial block
    res = b.alloca(ir.VectorType(I8, 16))

    def taps(b, rows, j0, masked):
        """The 16 maxima of block j0 (lanes past wo: anything); masked: each load masked
        at the row's end, else plain loads (which may read the next row's bytes)."""
        acc = None
        pick = ir.Constant(ir.VectorType(I32, 16), [sw * t for t in range(16)])
        for ki in range(kh):
            for kj in range(kw):
                col = b.add(b.mul(j0, I64(sw)), I64(kj))
                p = _gep(b, rows[ki], col)
                if masked:
                    m = _mask(b, b.sub(a["w"], col), ir.VectorType(ir.IntType(1), 16 * sw))
                    v = _mload(b, wide, p, m, ir.Constant(wide, None))
                else:
                    v = b.load(p, typ=wide, align=1)
                v = b.shuffle_vector(v, ir.Constant(wide, ir.Undefined), pick)
                acc = v if acc is None else b.select(b.icmp_unsigned(">", v, acc), v, acc)
        return acc

    def plane(b, p):
        base = b.mul(p, b.mul(a["h"], a["w"]))
        xp = _gep(b, x, base)
        op = _gep(b, out, b.mul(p, b.mul(a["ho"], a["wo"])))

        def row(b, i):
            first = b.mul(i, I64(sh))
            rows = [_gep(b, xp, b.mul(b.add(first, I64(ki)), a["w"])) for ki in range(kh)]
            last = b.add(base, b.mul(b.add(first, I64(kh - 1)), a["w"]))

            def block(b, j0):
                end = b.add(last, b.add(b.mul(j0, I64(sw)), I64(kw - 1 + 16 * sw)))
                with b.if_else(b.icmp_signed("<=", end, total)) as (plain, masked):
                    with plain:
                        b.store(taps(b, rows, j0, False), res)
                    with masked:
                        b.store(taps(b, rows, j0, True), res)
                acc = b.load(res, typ=ir.VectorType(I8, 16))
                dst = _gep(b, op, b.add(b.mul(i, a["wo"]), j0))
                with b.if_else(b.icmp_signed("<=", b.add(j0, I64(16)), a["wo"])) as (full, part):
                    with full:
                        b.store(acc, dst, align=1)
                    with part:
                        _mstore(b, acc, dst, tail)
            _loop(b, fn, I64(0), a["wo"], I64(16), "j", block)
        _loop(b, fn, I64(0), a["ho"], I64(1), "i", row)

    _loop(b, fn, I64(0), a["planes"], I64(1), "p", plane)
    b.ret_void()
    return fn


_FN: dict = {}
_NATIVE = ("tensor.max_pool2d", "native")


def _native(params):
    fn = _FN.get(params)
    if fn is None:
        from ember.llvm import kernel_qgemm
        src = inspect.getsource(inspect.getmodule(build)) + inspect.getsource(kernel_qgemm)
        addr, = kernels.compile_kernel("qmaxpool", params, lambda m: build(m, *params),
                                       ["ember_qmaxpool"], src)
        fn = _FN[params] = _PROTO(addr)
    return fn


class NativeCodesMaxPool2d:
    """tensor.max_pool2d of uint8 codes natively; everything else to `inner`."""

    def __init__(self, inner):
        self.inner = inner
        self.plans: dict = {}
        self.last = (None,) * 5
        """(kernel_size, stride, padding, dilation, plan) of the last call: a program
        passes the same list objects every call."""

    def __call__(self, x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                 return_indices=False):
        if type(x) is _ND and x.dtype is _U8 and ceil_mode is False and \
                return_indices is False and x.flags.c_contiguous and NATIVE_OK:
            last = self.last
            if kernel_size is last[0] and stride is last[1] and padding is last[2] and \
                    dilation is last[3]:
                plan = last[4]
            else:
                plan = self._plan(kernel_size, stride, padding, dilation)
            if plan is not None and x.ndim in (3, 4) and x.shape[-2] >= plan[0] and \
                    x.shape[-1] >= plan[1] and x.size:
                return _pool(x, plan)
        return self.inner(x, kernel_size, stride, padding, dilation, ceil_mode,
                          return_indices)

    def _plan(self, kernel_size, stride, padding, dilation):
        key = (_key(kernel_size), _key(stride), _key(padding), _key(dilation))
        plan = self.plans.get(key, False)
        if plan is False:
            plan = _windows(kernel_size, stride, padding, dilation)
            if len(self.plans) >= 64:
                self.plans.clear()
            self.plans[key] = plan
        self.last = (kernel_size, stride, padding, dilation, plan)
        return plan


def _key(v):
    return tuple(v) if isinstance(v, list) else v


def _pool(x, plan):
    kh, kw, sh, sw = plan
    h, w = x.shape[-2:]
    ho, wo = (h - kh) // sh + 1, (w - kw) // sw + 1
    out = np.empty(x.shape[:-2] + (ho, wo), np.uint8)
    fn = _FN.get(plan) or _native(plan)
    args = (x, out, x.size // (h * w), h, w, ho, wo)
    fn(*args)
    COUNTS[_NATIVE] = COUNTS.get(_NATIVE, 0) + 1
    if kernels.RECORDING[0] is not None:
        note(fn, args, (x,), (out,))
    return out


def _ints(v, what):
    t = ntuple(v, 2, what)
    return t if all(type(i) is int for i in t) else None


def _windows(kernel_size, stride, padding, dilation):
    """(kh, kw, sh, sw) for a pooling this loop covers, else None."""
    try:
        k = _ints(kernel_size, "kernel_size")
        s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
            _ints(stride, "stride")
        p, d = _ints(padding, "padding"), _ints(dilation, "dilation")
    except (RuntimeError, TypeError, ValueError):
        return None
    if k is None or s is None or p != (0, 0) or d != (1, 1):
        return None
    if not all(1 <= i <= MAX_K for i in k) or not all(1 <= i <= MAX_S for i in s):
        return None
    return k + s
