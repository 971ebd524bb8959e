"""Per-tensor quantize and dequantize as native loops, bit for bit with the numpy kernels
(ops/tensor_quant.py: quantize_codes, dequantize).

`NativeQuantize` is `tensor.quantize_per_tensor` and `NativeDequantize`
`tensor.dequantize_codes` under the LLVM backend: C-contiguous float32 (quantize) or
uint8 / int8 (dequantize) arrays run natively, 16 lanes at a time:

    quantize:   code = fmin(max(rne(f32(f64(x) * f64(f32(1 / f32(scale))) + zp)), lo), hi)
                (NaN gives hi, as the numpy kernel's np.fmin and torch's fbgemm)
    dequantize: y = f32(f32(q) - f32(zp)) * f32(scale)

Everything else (other dtypes, layouts, invalid qparams: the numpy kernel raises) runs
the numpy kernel.
"""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
from llvmlite import ir

from ember.llvm import kernel_qgemm as Q
from ember.llvm import kernels
from ember.llvm.kernels import COUNTS
from ember.llvm.kernel_qgemm import (F32, F64, I32, PTR, VF32, VF64, VI8, _data, _gep, _rne,
                                     _vconst, load, store, stream)
from ember.llvm.kernel_qlinear import NATIVE_OK, note
from ember.llvm.kernel_rnn import _splat
from ember.llvm.layout import I64

_ND = np.ndarray
_F32, _U8, _I8 = np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.int8)


def build_quantize(module, name, signed):
    """name(x, out, count, inv, zp, lo, hi): inv, zp, lo, hi doubles."""
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR, I64, F64, F64, F64,
                                                            F64]), name)
    xo, oo, count, inv, zp, lo, hi = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    x, out = _data(b, xo), _data(b, oo)
    vinv, vzp = _splat(b, inv, VF64), _splat(b, zp, VF64)
    vlo, vhi = _splat(b, b.fptrunc(lo, F32), VF32), _splat(b, b.fptrunc(hi, F32), VF32)

    def chunk(b, i, mask):
        v = load(b, VF32, b.gep(x, [i], source_etype=F32), mask, _vconst(VF32, 0.0))
        t = _rne(b, b.fptrunc(b.fadd(b.fmul(b.fpext(v, VF64), vinv), vzp), VF32))
        t = b.select(b.fcmp_unordered(">", t, vlo), t, vlo)  # NaN stays,
        t = b.select(b.fcmp_ordered("<", t, vhi), t, vhi)  # then gives hi (np.fmin)
        q = b.trunc(b.fptosi(t, ir.VectorType(I32, 16)), VI8)
        store(b, q, _gep(b, out, i), mask)
    stream(b, fn, count, chunk, "q")
    b.ret_void()
    return fn


def build_dequantize(module, name, signed):
    """name(q, out, count, zp, scale): zp, scale doubles holding float32 values."""
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR, I64, F64, F64]), name)
    qo, oo, count, zp, scale = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    q, out = _data(b, qo), _data(b, oo)
    vzp = _splat(b, b.fptrunc(zp, F32), VF32)
    vs = _splat(b, b.fptrunc(scale, F32), VF32)

    def chunk(b, i, mask):
        c = load(b, VI8, _gep(b, q, i), mask, ir.Constant(VI8, None))
        v = b.sitofp(c, VF32) if signed else b.uitofp(c, VF32)
        y = b.fmul(b.fsub(v, vzp), vs)
        store(b, y, b.gep(out, [i], source_etype=F32), mask)
    stream(b, fn, count, chunk, "d")
    b.ret_void()
    return fn


_FN: dict = {}
_OBJ, _D = ctypes.py_object, ctypes.c_double
_PROTO = {"quantize": ctypes.CFUNCTYPE(None, _OBJ, _OBJ, ctypes.c_int64, _D, _D, _D, _D),
          "dequantize": ctypes.CFUNCTYPE(None, _OBJ, _OBJ, ctypes.c_int64, _D, _D)}


def native(kind, signed):
    key = (kind, signed)
    fn = _FN.get(key)
    if fn is None:
        build = build_quantize if kind == "quantize" else build_dequantize
        # the cache key digests kernel_qgemm's IR helpers too
        src = inspect.getsource(inspect.getmodule(build_quantize)) + inspect.getsource(Q)
        addr, = kernels.compile_kernel("qelem", key, lambda m: build(m, "ember_qe", signed),
                                       ["ember_qe"], src)
        fn = _FN[key] = _PROTO[kind](addr)
    return fn


_QUANTIZE = ("tensor.quantize_per_tensor", "native")
_RANGE = {"quint8": (0, 255, np.uint8), "qint8": (-128, 127, np.int8)}


class NativeQuantize:
    """tensor.quantize_per_tensor natively for float32 C-contiguous inputs (quint8 and
    qint8)."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.ok: dict = {}

    def __call__(self, x, scale, zero_point, dtype):
        p = self.ok.get((scale, zero_point, dtype))
        if p is None and type(x) is _ND and x.dtype is _F32 and NATIVE_OK:
            p = self._params(scale, zero_point, dtype)
        if p and type(x) is _ND and x.dtype is _F32 and x.flags.c_contiguous:
            out = np.empty(x.shape, p[4])
            p[5](x, out, x.size, *p[:4])
            COUNTS[_QUANTIZE] = COUNTS.get(_QUANTIZE, 0) + 1
            if kernels.RECORDING[0] is not None:
                note(p[5], (x, out, x.size) + p[:4], (x,), (out,))
            return out
        kernels.count("tensor.quantize_per_tensor", "numpy")
        return self.kernel(x, scale, zero_point, dtype)

    def _params(self, scale, zero_point, dtype):
        """(f32(1 / f32(scale)), zero point, lowest and highest code as floats, the codes'
        dtype, the kernel) when the qparams are valid and in range of the native path,
        else False (the numpy kernel judges them)."""
        from ember.ops.tensor_quant import _check_qparams, inv_scale
        try:
            _check_qparams(scale, zero_point, dtype)
        except (RuntimeError, TypeError, ValueError):
            return False
        p = False
        if dtype in _RANGE and isinstance(zero_point, int):
            lo, hi, np_dtype = _RANGE[dtype]
            p = (float(inv_scale(scale)), float(zero_point), float(lo), float(hi), np_dtype,
                 native("quantize", lo < 0))
        if len(self.ok) >= 256:
            self.ok.clear()
        self.ok[(scale, zero_point, dtype)] = p
        return p


class NativeDequantize:
    """tensor.dequantize_codes natively for uint8 / int8 C-contiguous codes."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.params: dict = {}
        """(scale, zero point) -> (their float32 values as floats, the kernels)."""

    def __call__(self, q, scale, zero_point):
        if type(q) is _ND and (q.dtype is _U8 or q.dtype is _I8) and q.flags.c_contiguous \
                and NATIVE_OK and isinstance(zero_point, int) and isinstance(scale, float):
            out = np.empty(q.shape, np.float32)
            p = self.params.get((scale, zero_point)) or self._params(scale, zero_point)
            fn = p[2 if q.dtype is _I8 else 1]
            fn(q, out, q.size, p[0][1], p[0][0])
            if kernels.RECORDING[0] is not None:
                note(fn, (q, out, q.size, p[0][1], p[0][0]), (q,), (out,))
            kernels.count("tensor.dequantize_codes", "native")
            return out
        kernels.count("tensor.dequantize_codes", "numpy")
        return self.kernel(q, scale, zero_point)

    def _params(self, scale, zero_point):
        with np.errstate(over="ignore"):
            p = ((float(np.float32(scale)), float(np.float32(zero_point))),
                 native("dequantize", False), native("dequantize", True))
        if len(self.params) >= 256:
            self.params.clear()
        self.params[(scale, zero_point)] = p
        return p
