"""Stride-1 dense and grouped conv2d through the native product (kernel_gemm.py).

Per sample, the input is copied into a zero-bordered scratch image (C, Hp, Wp) (no copy
without padding); then per group the output (Og, Ho, Wo) is the product of the weight
(Og, Cg*kh*kw) and the scratch image read through a row-offset table: tap (c, ki, kj) of
output pixel (i, j) is scratch[c, i + ki*dh, j + kj*dw], so row k = (c, ki, kj) of the
right operand starts at c*Hp*Wp + ki*dh*Wp + kj*dw and output row i at i*Wp — the im2col
matrix is never built. The bias rides in the product's epilogue (added after the sum, as
the kernel adds it). A pointwise convolution without padding is one product whose rows
are whole images (H*W columns).

The numpy kernel (ops/tensor_conv.py) sums the taps in its BLAS's order, so results
differ from the VM's by float32 rounding of a Cg*kh*kw-term sum (tests: within 1e-6 of
the sum of |w * x| terms). Covered: float32, C-contiguous input, stride 1, any kernel
size, padding and dilation, groups (depthwise ones run kernel_conv.py's loop), bias;
`conv2d` returns None for anything else (the caller runs the kernel).
"""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
from llvmlite import ir

from ember.llvm import kernel_gemm as G
from ember.llvm import kernels
from ember.llvm.kernel_rnn import _loop, _ptr
from ember.llvm.layout import I64, PTR
from ember.llvm.vmath import F32
from ember.ops import tensor_conv as C

_ARGS = ["x", "n", "cin", "h", "w", "scr", "hp", "wp", "pt", "pl", "wt", "o", "groups",
         "kdim", "off", "out", "plane", "ni", "nj", "sbi", "sci", "bias"]
_PTRS = {"x", "scr", "wt", "off", "out", "bias"}
_PROTO = kernels.prototype(*[ctypes.c_void_p if a in _PTRS else ctypes.c_int64
                             for a in _ARGS])
_ND = np.ndarray
_F32 = np.dtype(np.float32)


def build(module, bias_kind, act) -> None:
    """`ember_conv(args…)`: per sample, the padded copy (when `scr` is given), then one
    product per group (bias and activation in its epilogue)."""
    gemm = G.build(module, "ember_conv_gemm", (bias_kind, act, False))
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR if a in _PTRS else I64
                                                             for a in _ARGS]), "ember_conv")
    a = dict(zip(_ARGS, fn.args))
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    memcpy = module.globals.get("llvm.memcpy.p0.p0.i64") or ir.Function(
        module, ir.FunctionType(ir.VoidType(), [PTR, PTR, I64, ir.IntType(1)]),
        "llvm.memcpy.p0.p0.i64")
    padded = b.icmp_unsigned("!=", b.ptrtoint(a["scr"], I64), I64(0))
    image = b.mul(a["hp"], a["wp"])
    og = b.sdiv(a["o"], a["groups"])
    cg = b.sdiv(a["cin"], a["groups"])

    def sample(b, s):
        xs = _ptr(b, a["x"], b.mul(s, b.mul(a["cin"], b.mul(a["h"], a["w"]))))
        copy, go = fn.append_basic_block("copy"), fn.append_basic_block("go")
        b.cbranch(padded, copy, go)
        b.position_at_end(copy)

        def channel(b, c):
            def row(b, r):
                dst = _ptr(b, a["scr"], b.add(b.add(b.mul(c, image),
                                                    b.mul(b.add(r, a["pt"]), a["wp"])), a["pl"]))
                src = _ptr(b, xs, b.mul(b.add(b.mul(c, a["h"]), r), a["w"]))
                b.call(memcpy, [dst, src, b.mul(a["w"], I64(4)), ir.IntType(1)(0)])
            _loop(b, fn, I64(0), a["h"], I64(1), "r", row)
        _loop(b, fn, I64(0), a["cin"], I64(1), "c", channel)
        b.branch(go)
        b.position_at_end(go)
        src = b.select(padded, a["scr"], xs)

        def group(b, g):
            wt = _ptr(b, a["wt"], b.mul(b.mul(g, og), a["kdim"]))
            bsrc = _ptr(b, src, b.mul(b.mul(g, cg), image))
            out = _ptr(b, a["out"], b.mul(b.add(b.mul(s, a["o"]), b.mul(g, og)), a["plane"]))
            bias = _ptr(b, a["bias"], b.mul(g, og))
            b.call(gemm, [wt, a["kdim"], I64(1), a["off"], bsrc, a["sbi"], out, a["plane"],
                          a["sci"], bias, og, a["kdim"], a["ni"], a["nj"]])
        _loop(b, fn, I64(0), a["groups"], I64(1), "g", group)

    _loop(b, fn, I64(0), a["n"], I64(1), "s", sample)
    b.ret_void()


_FN: dict = {}


def _native(bias_kind, act):
    fn = _FN.get((bias_kind, act))
    if fn is None:
        src = inspect.getsource(inspect.getmodule(build)) + \
            inspect.getsource(inspect.getmodule(G.build)) + G.act_source()
        addr, = kernels.compile_kernel("conv", (bias_kind, act),
                                       lambda m: build(m, bias_kind, act), ["ember_conv"], src)
        fn = _FN[(bias_kind, act)] = _PROTO(addr)
    return fn


_OFFSETS: dict = {}


def _offsets(cg, kh, kw, image, wp, dh, dw):
    """Row k = (c, ki, kj) of the product's right operand: its start in the image."""
    key = (cg, kh, kw, image, wp, dh, dw)
    off = _OFFSETS.get(key)
    if off is None:
        c, ki, kj = np.meshgrid(np.arange(cg), np.arange(kh), np.arange(kw), indexing="ij")
        off = (c * image + ki * (dh * wp) + kj * dw).astype(np.int64).ravel()
        if len(_OFFSETS) > 256:
            _OFFSETS.clear()
        _OFFSETS[key] = off
    return off


def conv2d(x, w, b, stride, padding, dilation, groups, act=None):
    """The convolution (then `act`: None or one of fused.EPILOGUE_ACTS, in the product's
    epilogue) natively,
    or None where this path does not cover the call."""
    plan = _plan(x, w, b, stride, padding, dilation, groups)
    if plan is None:
        return None
    (pt, pb), (pl, pr), (dh, dw) = plan
    squeeze = x.ndim == 3
    if squeeze:
        x = x[None]
    n, cin, h, wd = x.shape
    o, cg, kh, kw = w.shape
    hp, wp = h + pt + pb, wd + pl + pr
    ho, wo = hp - dh * (kh - 1), wp - dw * (kw - 1)
    if n == 0:
        return None  # the kernel makes the empty result
    out = np.empty((n, o, ho, wo), np.float32)
    w = np.ascontiguousarray(w)
    padded = pt or pb or pl or pr
    flat = kh == kw == 1 and not padded
    scr = np.zeros(cin * hp * wp, np.float32) if padded else None
    off = _offsets(cg, kh, kw, hp * wp, wp, dh, dw)
    ni, nj, sbi, sci = (1, ho * wo, 0, 0) if flat else (ho, wo, wp, wo)
    fn = _native(None if b is None else "row", act)
    args = (x.ctypes.data, n, cin, h, wd, 0 if scr is None else scr.ctypes.data, hp, wp, pt,
            pl, w.ctypes.data, o, groups, cg * kh * kw, off.ctypes.data, out.ctypes.data,
            ho * wo, ni, nj, sbi, sci, 0 if b is None else b.ctypes.data)
    fn(*args)
    if kernels.RECORDING[0] is not None:  # scr: its zero border is never written
        kernels.note(fn, args, [a for a in (x, w, b) if a is not None], (out,), (off,),
                     () if scr is None else (scr,))
    return out[0] if squeeze else out


def _plan(x, w, b, stride, padding, dilation, groups):
    """((top, bottom), (left, right), (dh, dw)) for a call this path covers, else None
    (including every call the kernel would refuse)."""
    if type(x) is not _ND or type(w) is not _ND or x.dtype is not _F32 or \
            w.dtype is not _F32 or x.ndim not in (3, 4) or w.ndim != 4 or \
            not x.flags.c_contiguous:
        return None
    c, h, wd = x.shape[-3:]
    o, cg, kh, kw = w.shape
    if type(groups) is not int or groups < 1 or o % groups or cg * groups != c or \
            o == 0 or cg == 0 or h == 0 or wd == 0:
        return None
    if b is not None and (type(b) is not _ND or b.dtype is not _F32 or b.shape != (o,) or
                          not b.flags.c_contiguous):
        return None
    try:
        st = C.ntuple(stride, 2, "stride")
        dil = C.ntuple(dilation, 2, "dilation")
        pads = C._pads(padding, (kh, kw), dil, st)
    except (RuntimeError, ValueError, TypeError):
        return None
    if st != (1, 1) or any(type(d) is not int or d < 1 for d in dil) or \
            any(type(p) is not int for pp in pads for p in pp):
        return None
    (pt, pb), (pl, pr) = pads
    if h + pt + pb - dil[0] * (kh - 1) <= 0 or wd + pl + pr - dil[1] * (kw - 1) <= 0:
        return None
    return (pt, pb), (pl, pr), dil


class NativeMulConv2d:
    """tensor.mul_conv2d (ops/tensor_fused.py): conv2d(a * b, ...). Its squeeze-excite fast
    path — a pointwise convolution of y scaled per channel by s, computed as the weight
    scaled per sample (W * s) @ y — runs each sample's product natively (float32,
    C-contiguous y), the bias in the epilogue; every other call runs the kernel."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, a, b, w, bias, stride, padding, dilation, groups):
        out = _mul_conv2d(a, b, w, bias, stride, padding, dilation, groups)
        if out is None:
            kernels.count("tensor.mul_conv2d", "numpy")
            return self.kernel(a, b, w, bias, stride, padding, dilation, groups)
        kernels.count("tensor.mul_conv2d", "native")
        return out


def _mul_conv2d(a, b, w, bias, stride, padding, dilation, groups):
    from ember.ops import tensor_fused as TF

    if type(a) is not _ND or type(b) is not _ND or type(w) is not _ND or \
            not TF._pointwise(w, stride, padding, dilation, groups):
        return None
    y, s = (a, b) if TF._channel_scale(a, b) else (b, a) if TF._channel_scale(b, a) else \
        (None, None)
    if y is None or y.dtype is not _F32 or w.dtype is not _F32 or not y.flags.c_contiguous:
        return None
    if bias is not None and (type(bias) is not _ND or bias.dtype is not _F32 or
                             bias.shape != (w.shape[0],) or not bias.flags.c_contiguous):
        return None
    n, c, h, wd = y.shape
    o = w.shape[0]
    if w.shape[1] != c or n == 0 or o == 0 or h * wd == 0:
        return None
    scaled = _scaled(w, s, o, c)
    out = np.empty((n, o, h, wd), np.float32)
    plane = h * wd
    off = _offsets(c, 1, 1, plane, 1, 1, 1)
    fn = G.native(None if bias is None else "row", None)
    per = scaled.shape[0] > 1
    rec = kernels.RECORDING[0] is not None
    for i in range(n):
        args = (scaled.ctypes.data + (i * o * c * 4 if per else 0), c, 1, off.ctypes.data,
                y.ctypes.data + i * c * plane * 4, 0, out.ctypes.data + i * o * plane * 4,
                plane, 0, 0 if bias is None else bias.ctypes.data, o, c, 1, plane)
        fn(*args)
        if rec:
            kernels.note(fn, args, [a for a in (scaled, off, y, bias) if a is not None],
                         (out,), (off,))
    return out


_SCALE_PROTO = kernels.prototype(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                 ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)
_SCALE: list = []


def build_scale(module) -> None:
    """`ember_scale(w, s, out, ns, o, c)`: out[i, j, k] = w[j, k] * s[i, k] (float32: the
    numpy product's one rounding)."""
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR, PTR, I64, I64, I64]),
                     "ember_scale")
    w, sc, out, ns, o, c = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))

    def sample(b, i):
        def row(b, j):
            def col(b, k):
                v = b.fmul(b.load(_ptr(b, w, b.add(b.mul(j, c), k)), typ=F32),
                           b.load(_ptr(b, sc, b.add(b.mul(i, c), k)), typ=F32))
                b.store(v, _ptr(b, out, b.add(b.mul(b.add(b.mul(i, o), j), c), k)))
            _loop(b, fn, I64(0), c, I64(1), "k", col)
        _loop(b, fn, I64(0), o, I64(1), "j", row)
    _loop(b, fn, I64(0), ns, I64(1), "i", sample)
    b.ret_void()


def _scaled(w, s, o, c):
    """(W * s) per sample, (ns, o, c) C-contiguous: natively (and noted for plans) for
    float32 C-contiguous w and s, else numpy's product (the same bits)."""
    if not (w.flags.c_contiguous and s.flags.c_contiguous and s.dtype is _F32 and
            w.flags.aligned and s.flags.aligned):
        return np.ascontiguousarray(w.reshape(1, o, c) * s.reshape(-1, 1, c))
    if not _SCALE:
        addr, = kernels.compile_kernel("scale", (), build_scale, ["ember_scale"],
                                       inspect.getsource(build_scale))
        _SCALE.append(_SCALE_PROTO(addr))
    ns = s.size // c
    out = np.empty((ns, o, c), np.float32)
    args = (w.ctypes.data, s.ctypes.data, out.ctypes.data, ns, o, c)
    _SCALE[0](*args)
    if kernels.RECORDING[0] is not None:
        kernels.note(_SCALE[0], args, (w, s), (out,))
    return out
