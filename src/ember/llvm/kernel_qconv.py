"""Quantized conv2d (static, fbgemm's arithmetic) through the native int8 product: the
pixels form of kernel_qgemm.py (its docstring describes the layouts and the epilogue).

`NativeQConv2d` is `tensor.quantized_conv2d` under the LLVM backend: a stride-1,
one-group convolution of a C-contiguous uint8 input (any padding and dilation) runs as one
native call per batch; other calls run the numpy kernel (ops/tensor_quant.conv2d_static),
which also raises the errors. Both give the same codes.
"""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
from llvmlite import ir

from ember.llvm import kernel_qgemm as Q
from ember.llvm import kernels
from ember.llvm.kernel_qgemm import (DIMS_OFFSET, F32, I8, I32, M16, M64, PTR, VF32, VI8,
                                     VI32, _data, _free, _gep, _intr, _malloc, _mask, _mload,
                                     _mstore, dot4, int8_isa, requant)
from ember.llvm.kernel_qlinear import MAX_K, NATIVE_OK, _Cache, note, static_consts
from ember.llvm.kernel_rnn import _loop, _splat
from ember.llvm.kernels import COUNTS
from ember.llvm.layout import I64
from ember.ops.tensor_common import frozen

_ND = np.ndarray
_U8, _I8 = np.dtype(np.uint8), np.dtype(np.int8)
FIELDS = ["c4", "ph", "pw", "kh", "kw", "dh", "dw", "o", "wq", "colsum", "bterm", "mul",
          "zin", "zout", "lo"]
"""A packed convolution weight's description (int64 each; wq, colsum, bterm, mul are
addresses: codes (O, kh, kw, c4, 4) int8, int32 sums, float32 constants; bterm 0 without
bias)."""
_PTRS = {"wq", "colsum", "bterm", "mul"}
_NATIVE = ("tensor.quantized_conv2d", "native")
ROW_TILES = (8, 4, 1)
"""Output channels per tile, largest first."""


def _fields(b, obj):
    w = _data(b, obj)
    return {name: b.load(_gep(b, w, I64(8 * i)), typ=PTR if name in _PTRS else I64, align=8)
            for i, name in enumerate(FIELDS)}


def _dims(b, obj):
    """The four dimensions of a 4-d numpy array object."""
    dims = b.load(_gep(b, obj, I64(DIMS_OFFSET)), typ=PTR)
    return [b.load(b.gep(dims, [I64(i)], source_etype=I64), typ=I64) for i in range(4)]


def _layout(b, fn, g, src, buf):
    """One image (C, H, W) uint8 at src into buf (Hp, c4, Wp, 4), borders and missing
    channels holding the input zero point."""
    memset = _intr(b.module, "memset", PTR, [PTR, I32, I64])
    b.call(memset, [buf, b.trunc(g["zin"], I32), b.mul(b.mul(g["hp"], g["c4"]),
                                                       b.mul(g["wp"], I64(4)))])
    zp = _splat(b, b.trunc(g["zin"], I8), VI8)
    plane = b.mul(g["h"], g["w"])
    order = ir.Constant(ir.VectorType(I32, 64), [t * 16 + j for j in range(16)
                                                  for t in range(4)])
    half = ir.Constant(ir.VectorType(I32, 32), list(range(32)))

    def row(b, y):
        def quad(b, c4):
            def chunk(b, x0):
                rem = b.sub(g["w"], x0)
                lanes = _mask(b, rem)
                v = []
                for t in range(4):
                    c = b.add(b.mul(c4, I64(4)), I64(t))
                    ok = _splat(b, b.icmp_signed("<", c, g["c"]), M16)
                    p = _gep(b, src, b.add(b.mul(c, plane), b.add(b.mul(y, g["w"]), x0)))
                    v.append(_mload(b, VI8, p, b.and_(lanes, ok), zp))
                lo = b.shuffle_vector(v[0], v[1], half)
                hi = b.shuffle_vector(v[2], v[3], half)
                inter = b.shuffle_vector(lo, hi, order)
                dst = _gep(b, buf, b.mul(b.add(b.mul(b.add(b.mul(b.add(y, g["ph"]), g["c4"]),
                                                             c4), g["wp"]),
                                               b.add(g["pw"], x0)), I64(4)))
                _mstore(b, inter, dst, _mask(b, b.mul(rem, I64(4)), M64))
            _loop(b, fn, I64(0), g["w"], I64(16), "lx", chunk)
        _loop(b, fn, I64(0), g["c4"], I64(1), "lc", quad)
    _loop(b, fn, I64(0), g["h"], I64(1), "ly", row)


def _tile(b, fn, g, rows, nv, tail, o0, y, x, buf, dst_img):
    """rows output channels from o0 by nv vectors of 16 pixels of output row y from x (one
    masked vector when `tail`)."""
    mask = _mask(b, b.sub(g["ow"], x)) if tail else None
    base = _gep(b, buf, b.mul(b.add(b.mul(b.mul(y, g["c4"]), g["wp"]), x), I64(4)))
    wrow = [_gep(b, g["wq"], b.mul(b.mul(b.add(o0, I64(r)), g["kq"]), I64(4)))
            for r in range(rows)]
    zero = ir.Constant(VI32, None)
    head, body, done = (fn.append_basic_block(f"c{rows}x{nv}{'t' if tail else ''}.{s}")
                        for s in "hbd")
    pre = b.block
    b.branch(head)
    b.position_at_end(head)
    k = b.phi(I64)
    k.add_incoming(I64(0), pre)
    acc = [[b.phi(VI32) for _ in range(nv)] for _ in range(rows)]
    for row in acc:
        for a in row:
            a.add_incoming(zero, pre)
    b.cbranch(b.icmp_signed("<", k, g["kq"]), body, done)
    b.position_at_end(body)
    off = b.load(b.gep(g["off"], [k], source_etype=I64), typ=I64)
    ap = _gep(b, base, off)
    av = []
    for v in range(nv):
        p = _gep(b, ap, I64(64 * v))
        av.append(b.load(p, typ=VI32, align=1) if mask is None else
                  _mload(b, VI32, p, mask, zero))
    k4 = b.mul(k, I64(4))
    for r in range(rows):
        wv = _splat(b, b.load(_gep(b, wrow[r], k4), typ=I32, align=1), VI32)
        for v in range(nv):
            acc[r][v].add_incoming(dot4(b, acc[r][v], av[v], wv, g["isa"], g["wide"]),
                                   body)
    k.add_incoming(b.add(k, I64(1)), body)
    b.branch(head)
    b.position_at_end(done)
    for r in range(rows):
        o = b.add(o0, I64(r))
        cs = b.load(b.gep(g["colsum"], [o], source_etype=I32), typ=I32)
        corr = _splat(b, b.mul(cs, b.trunc(g["zin"], I32)), VI32)
        bt = None
        if g["bias"]:
            bt = _splat(b, b.load(b.gep(g["bterm"], [o], source_etype=F32), typ=F32), VF32)
        mul = _splat(b, b.load(b.gep(g["mul"], [o], source_etype=F32), typ=F32), VF32)
        orow = _gep(b, dst_img, b.add(b.mul(b.add(b.mul(o, g["oh"]), y), g["ow"]), x))
        for v in range(nv):
            q = requant(b, b.sub(acc[r][v], corr), bt, mul, g["zout"], g["lo"])
            p = _gep(b, orow, I64(16 * v))
            if mask is None:
                b.store(q, p, align=1)
            else:
                _mstore(b, q, p, mask)


def _row(b, fn, g, y, buf, dst_img):
    """Output row y of one image: every channel tile by every pixel group."""
    def channels(rows):
        def per(b, o0):
            x = _loop(b, fn, I64(0), b.add(b.sub(g["ow"], I64(32)), I64(1)), I64(32),
                      f"x2r{rows}", lambda b, x: _tile(b, fn, g, rows, 2, False, o0, y, x,
                                                       buf, dst_img))
            x = _loop(b, fn, x, b.add(b.sub(g["ow"], I64(16)), I64(1)), I64(16),
                      f"x1r{rows}", lambda b, x: _tile(b, fn, g, rows, 1, False, o0, y, x,
                                                       buf, dst_img))
            _loop(b, fn, x, g["ow"], I64(16), f"xtr{rows}",
                  lambda b, x: _tile(b, fn, g, rows, 1, True, o0, y, x, buf, dst_img))
        return per

    o0 = I64(0)
    for rows in ROW_TILES:
        o0 = _loop(b, fn, o0, b.add(b.sub(g["o"], I64(rows)), I64(1)), I64(rows),
                   f"o{rows}", channels(rows))


def _row_flags(b, fn, g, buf, flags):
    """flags[r] = 1 when padded row r of the laid-out image holds only codes up to 128."""
    size = b.mul(b.mul(g["c4"], g["wp"]), I64(4))

    def row(b, r):
        ok = Q.narrow_codes(b, fn, _gep(b, buf, b.mul(r, size)), size, I64(0))
        b.store(b.zext(ok, I8), _gep(b, flags, r))
    _loop(b, fn, I64(0), g["hp"], I64(1), "fl", row)


def _narrow_rows(b, fn, g, flags, y):
    """i1: every padded row output row y reads (y + ky * dh) is narrow: the AVX2 product
    skips the split of wide codes there (a few codes above 128, outliers the calibration
    clipped, then cost a few rows, not the whole call)."""
    acc = b.alloca(I8)
    b.store(I8(1), acc)
    _loop(b, fn, I64(0), g["kh"], I64(1), "nr", lambda b, ky: b.store(
        b.and_(b.load(acc, typ=I8), b.load(_gep(b, flags, b.add(y, b.mul(ky, g["dh"]))),
                                            typ=I8)), acc))
    return b.trunc(b.load(acc, typ=I8), ir.IntType(1))


def build(module, name, isa, with_bias):
    """`name(x, out, fields)`: the convolution of a batch (array objects; fields FIELDS)."""
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR, PTR]), name)
    xo, oo, fo = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    g = _fields(b, fo)
    g["isa"], g["bias"] = isa, with_bias
    n, g["c"], g["h"], g["w"] = _dims(b, xo)
    g["zout"], g["lo"] = b.sitofp(g["zout"], F32), b.sitofp(g["lo"], F32)
    g["hp"] = b.add(g["h"], b.mul(g["ph"], I64(2)))
    g["wp"] = b.add(g["w"], b.mul(g["pw"], I64(2)))
    g["oh"] = b.sub(g["hp"], b.mul(g["dh"], b.sub(g["kh"], I64(1))))
    g["ow"] = b.sub(g["wp"], b.mul(g["dw"], b.sub(g["kw"], I64(1))))
    g["kq"] = b.mul(b.mul(g["kh"], g["kw"]), g["c4"])
    off = g["off"] = _malloc(b, b.mul(g["kq"], I64(8)))

    def fill(b, i):  # i = (kh * kw + kw) * c4 + c4: its byte offset in the layout
        c4 = b.srem(i, g["c4"])
        t = b.sdiv(i, g["c4"])
        kx, ky = b.srem(t, g["kw"]), b.sdiv(t, g["kw"])
        rowoff = b.mul(b.add(b.mul(b.mul(ky, g["dh"]), g["c4"]), c4), g["wp"])
        b.store(b.mul(b.add(rowoff, b.mul(kx, g["dw"])), I64(4)),
                b.gep(off, [i], source_etype=I64))
    _loop(b, fn, I64(0), g["kq"], I64(1), "off", fill)
    buf = _malloc(b, b.add(b.mul(b.mul(g["hp"], g["c4"]), b.mul(g["wp"], I64(4))), I64(64)))
    x, out = _data(b, xo), _data(b, oo)
    img_in = b.mul(b.mul(g["c"], g["h"]), g["w"])
    img_out = b.mul(b.mul(g["o"], g["oh"]), g["ow"])

    flags = _malloc(b, g["hp"]) if isa == "avx2" else None

    def image(b, i):
        _layout(b, fn, g, _gep(b, x, b.mul(i, img_in)), buf)
        dst = _gep(b, out, b.mul(i, img_out))
        if flags is None:
            g["wide"] = True
            _loop(b, fn, I64(0), g["oh"], I64(1), "oy",
                  lambda b, y: _row(b, fn, g, y, buf, dst))
            return
        _row_flags(b, fn, g, buf, flags)
        _loop(b, fn, I64(0), g["oh"], I64(1), "oy", lambda b, y: Q.both_widths(
            b, fn, g, _narrow_rows(b, fn, g, flags, y), lambda b: _row(b, fn, g, y, buf, dst)))
    _loop(b, fn, I64(0), n, I64(1), "img", image)
    if flags is not None:
        _free(b, flags)
    _free(b, buf)
    _free(b, off)
    b.ret_void()
    return fn


_FN: dict = {}
_PROTO = ctypes.CFUNCTYPE(None, ctypes.py_object, ctypes.py_object, ctypes.py_object)


def native(with_bias):
    key = (int8_isa(), with_bias)
    fn = _FN.get(key)
    if fn is None:
        # the cache key digests kernel_qgemm's IR helpers too
        src = inspect.getsource(inspect.getmodule(build)) + inspect.getsource(Q)
        addr, = kernels.compile_kernel("qconv", key, lambda m: build(m, "ember_qconv", *key),
                                       ["ember_qconv"], src)
        fn = _FN[key] = _PROTO(addr)
    return fn


# ----------------------------------------------------------------------------- the operator


class PackedConv:
    __slots__ = ("fields", "keep", "bias", "o", "c", "kh", "kw", "ph", "pw", "dh", "dw")

    def __init__(self, w, bterm, m, zps, padding, dilation):
        o, c, kh, kw = w.shape
        c4 = -(-c // 4)
        full = np.zeros((o, c4 * 4, kh, kw), np.int8)
        full[:, :c] = w
        wq = np.ascontiguousarray(full.transpose(0, 2, 3, 1)).reshape(o, -1)
        cs = w.astype(np.int32).reshape(o, -1).sum(axis=1).astype(np.int32)
        m = np.ascontiguousarray(m, np.float32)
        bt = None if bterm is None else np.ascontiguousarray(bterm, np.float32)
        self.keep = (wq, cs, m, bt)
        (self.ph, self.pw), (self.dh, self.dw) = padding, dilation
        self.o, self.c, self.kh, self.kw, self.bias = o, c, kh, kw, bt is not None
        self.fields = np.array([c4, self.ph, self.pw, kh, kw, self.dh, self.dw, o,
                                wq.ctypes.data, cs.ctypes.data,
                                0 if bt is None else bt.ctypes.data, m.ctypes.data]
                               + list(zps), np.int64)


def _pair(v):
    return (int(v), int(v)) if isinstance(v, int) else (int(v[0]), int(v[1]))


def _pack(w, w_scale, bias, s_in, s_out, zps, padding, dilation):
    consts = static_consts(s_in, w_scale, bias, s_out, w.shape[0])
    if consts is None:
        return None
    return PackedConv(w, consts[0], consts[1], zps, padding, dilation)


class NativeQConv2d:
    """tensor.quantized_conv2d natively where it covers the call."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.cache = _Cache()
        self.last: dict = {}
        """id(w) -> (w, w_scale, bias, the other arguments, PackedConv): the fast path of
        a frozen weight's convolution called with the same arguments again."""

    def __call__(self, q, s_in, zp_in, w, w_scale, bias, s_out, zp_out, stride, padding,
                 dilation, groups, relu):
        hit = self.last.get(id(w))
        if hit is not None and hit[0] is w and hit[1] is w_scale and hit[2] is bias and \
                type(q) is _ND and q.dtype is _U8 and q.ndim == 4 and q.shape[1] == hit[4].c \
                and q.flags.c_contiguous and q.size and \
                hit[3] == (s_in, zp_in, s_out, zp_out, stride, padding, dilation, groups, relu):
            p = hit[4]
            oh = q.shape[2] + 2 * p.ph - p.dh * (p.kh - 1)
            ow = q.shape[3] + 2 * p.pw - p.dw * (p.kw - 1)
            if oh > 0 and ow > 0:
                out = np.empty((q.shape[0], p.o, oh, ow), _U8)
                fn = native(p.bias)
                fn(q, out, p.fields)
                COUNTS[_NATIVE] = COUNTS.get(_NATIVE, 0) + 1
                if kernels.RECORDING[0] is not None:
                    _note(fn, q, out, p)
                return out
        y = self._native(q, s_in, zp_in, w, w_scale, bias, s_out, zp_out, stride, padding,
                         dilation, groups, relu)
        if y is None:
            kernels.count("tensor.quantized_conv2d", "numpy")
            return self.kernel(q, s_in, zp_in, w, w_scale, bias, s_out, zp_out, stride,
                               padding, dilation, groups, relu)
        kernels.count("tensor.quantized_conv2d", "native")
        return y

    def _native(self, q, s_in, zp_in, w, w_scale, bias, s_out, zp_out, stride, padding,
                dilation, groups, relu):
        if not (NATIVE_OK and type(q) is _ND and q.dtype is _U8 and q.ndim == 4 and
                q.flags.c_contiguous and q.size and type(w) is _ND and w.dtype is _I8 and
                w.ndim == 4 and groups == 1 and isinstance(w_scale, _ND) and
                _pair(stride) == (1, 1) and q.shape[1] == w.shape[1] and w.shape[0]):
            return None
        pad, dil = _pair(padding), _pair(dilation)
        o, c, kh, kw = w.shape
        if min(pad) < 0 or min(dil) < 1 or -(-c // 4) * 4 * kh * kw > MAX_K:
            return None
        oh = q.shape[2] + 2 * pad[0] - dil[0] * (kh - 1)
        ow = q.shape[3] + 2 * pad[1] - dil[1] * (kw - 1)
        if oh <= 0 or ow <= 0:
            return None
        zps = (int(zp_in), int(zp_out), int(zp_out) if relu else 0)
        if not 0 <= zps[0] <= 255:
            return None
        p = self.cache.get(w, w_scale, bias, (float(s_in), float(s_out)) + zps + pad + dil,
                           lambda: _pack(w, w_scale, bias, s_in, s_out, zps, pad, dil))
        if p is None:
            return None
        out = np.empty((q.shape[0], o, oh, ow), np.uint8)
        fn = native(p.bias)
        fn(q, out, p.fields)
        if kernels.RECORDING[0] is not None:
            _note(fn, q, out, p)
        if frozen(w) and frozen(w_scale) and (bias is None or frozen(bias)):
            if len(self.last) >= 64:
                self.last.clear()
            self.last[id(w)] = (w, w_scale, bias, (s_in, zp_in, s_out, zp_out, stride, padding,
                                                   dilation, groups, relu), p)
        return out


def _note(fn, q, out, p):
    note(fn, (q, out, p.fields), (q, p.fields), (out,),
         (p.fields,) + tuple(a for a in p.keep if a is not None))
