"""layer_norm over the last dimension as one native loop.

`NativeLayerNorm` is `tensor.layer_norm` under the LLVM backend: a float32, C-contiguous
input normalized over its last dimension (normalized_shape of one element), with float32
weight and bias of that length or None, runs one loop over the rows, each row in
<16 x float> lanes: mean = sum(x * (1/d)), c = x - mean, var = sum(c * c * (1/d)),
rstd = 1 / sqrt(var + eps), y = c * (rstd * w) + b — the kernel's steps
(ops/tensor_nn.layer_norm), in float32. The sums run in 16 lanes and then across them,
where the kernel's BLAS dot picks its own order: results differ from the VM's by the
rounding of a d-term sum (tests: within 1e-5 relative to the row's scale). Any other call
runs the kernel, which also raises its errors.
"""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
from llvmlite import ir

from ember.llvm import kernels
from ember.llvm.fused import F32
from ember.llvm.kernel_rnn import _loop, _ptr, _splat
from ember.llvm.layout import I64, PTR

V16 = ir.VectorType(F32, 16)
_ARGS = ["x", "out", "w", "b", "rows", "d", "eps"]
_PROTO = kernels.prototype(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                           ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_float)
_ND = np.ndarray
_F32 = np.dtype(np.float32)


def _sum(b, fn, n, term):
    """sum over j < n of term(b, j, vector type) in 16 lanes (then across them, in lane
    order), the tail one by one."""
    vacc = _loop_acc(b, fn, I64(0), b.add(b.sub(n, I64(16)), I64(1)), I64(16), V16,
                     ir.Constant(V16, None), lambda b, j, acc: b.fadd(acc, term(b, j, V16)))
    j0, vacc = vacc
    total = ir.Constant(F32, 0.0)
    for lane in range(16):
        total = b.fadd(total, b.extract_element(vacc, I64(lane)))
    _, total = _loop_acc(b, fn, j0, n, I64(1), F32, total,
                         lambda b, j, acc: b.fadd(acc, term(b, j, F32)))
    return total


def _loop_acc(b, fn, start, stop, step, t, init, body):
    """for i in range(start, stop, step): acc = body(b, i, acc); returns (i at exit, acc)."""
    head, loop, done = (fn.append_basic_block(s) for s in ("h", "b", "d"))
    pre = b.block
    b.branch(head)
    b.position_at_end(head)
    i = b.phi(I64)
    acc = b.phi(t)
    i.add_incoming(start, pre)
    acc.add_incoming(init, pre)
    b.cbranch(b.icmp_signed("<", i, stop), loop, done)
    b.position_at_end(loop)
    new = body(b, i, acc)
    i.add_incoming(b.add(i, step), b.block)
    acc.add_incoming(new, b.block)
    b.branch(head)
    b.position_at_end(done)
    return i, acc


def build(module, has_w, has_b) -> None:
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR] * 4 + [I64, I64, F32]),
                     "ember_layer_norm")
    a = dict(zip(_ARGS, fn.args))
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    d = a["d"]
    inv = b.fdiv(ir.Constant(F32, 1.0), b.sitofp(d, F32))  # numpy: float32(1.0 / d)

    def row(b, r):
        xr = _ptr(b, a["x"], b.mul(r, d))
        orow = _ptr(b, a["out"], b.mul(r, d))

        def vec(b, t, s):
            return _splat(b, s, t) if t is V16 else s

        def load(b, p, t):
            return b.load(p, typ=t, align=4)

        mean = _sum(b, fn, d, lambda b, j, t: b.fmul(load(b, _ptr(b, xr, j), t),
                                                     vec(b, t, inv)))

        def centered(b, j, t):
            c = b.fsub(load(b, _ptr(b, xr, j), t), vec(b, t, mean))
            b.store(c, _ptr(b, orow, j), align=4)
            return b.fmul(b.fmul(c, c), vec(b, t, inv))
        var = _sum(b, fn, d, centered)
        std = b.call(_sqrt(b), [b.fadd(var, a["eps"])])
        rstd = b.fdiv(ir.Constant(F32, 1.0), std)

        def scale(b, j, t):
            p = _ptr(b, orow, j)
            f = vec(b, t, rstd)
            if has_w:
                f = b.fmul(f, load(b, _ptr(b, a["w"], j), t))
            y = b.fmul(load(b, p, t), f)
            if has_b:
                y = b.fadd(y, load(b, _ptr(b, a["b"], j), t))
            b.store(y, p, align=4)
        j = _loop(b, fn, I64(0), b.add(b.sub(d, I64(16)), I64(1)), I64(16), "sv",
                  lambda b, j: scale(b, j, V16))
        _loop(b, fn, j, d, I64(1), "s1", lambda b, j: scale(b, j, F32))

    _loop(b, fn, I64(0), a["rows"], I64(1), "r", row)
    b.ret_void()


def _sqrt(b):
    m = b.module
    f = m.globals.get("llvm.sqrt.f32")
    return f if f is not None else ir.Function(m, ir.FunctionType(F32, [F32]), "llvm.sqrt.f32")


_FN: dict = {}


def _native(has_w, has_b):
    key = (has_w, has_b)
    fn = _FN.get(key)
    if fn is None:
        src = inspect.getsource(inspect.getmodule(build))
        addr, = kernels.compile_kernel("layer_norm", key, lambda m: build(m, *key),
                                       ["ember_layer_norm"], src)
        fn = _FN[key] = _PROTO(addr)
    return fn


class NativeLayerNorm:
    """tensor.layer_norm: the native loop where it covers the call, else the kernel."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, x, normalized_shape, weight, bias, eps):
        if not _covered(x, normalized_shape, weight, bias, eps):
            kernels.count("tensor.layer_norm", "numpy")
            return self.kernel(x, normalized_shape, weight, bias, eps)
        kernels.count("tensor.layer_norm", "native")
        d = x.shape[-1]
        out = np.empty(x.shape, np.float32)
        fn = _native(weight is not None, bias is not None)
        args = (x.ctypes.data, out.ctypes.data, 0 if weight is None else weight.ctypes.data,
                0 if bias is None else bias.ctypes.data, x.size // d, d, eps)
        fn(*args)
        if kernels.RECORDING[0] is not None:
            kernels.note(fn, args, [a for a in (x, weight, bias) if a is not None], (out,))
        return out


def _vector(v, d) -> bool:
    return v is None or (type(v) is _ND and v.dtype is _F32 and v.shape == (d,) and
                         v.flags.c_contiguous)


def _covered(x, normalized_shape, weight, bias, eps) -> bool:
    if type(x) is not _ND or x.dtype is not _F32 or x.ndim < 1 or x.size == 0 or \
            not x.flags.c_contiguous or type(eps) is not float:
        return False
    shape = (normalized_shape,) if type(normalized_shape) is int else normalized_shape
    if not isinstance(shape, (list, tuple)) or len(shape) != 1 or shape[0] != x.shape[-1]:
        return False
    d = x.shape[-1]
    return _vector(weight, d) and _vector(bias, d)
