"""Native int8 products: uint8 activation codes x int8 weight codes -> exact int32 sums,
with the dequantize / requantize epilogues of docs/quantization.md, bit for bit with the
numpy kernels (ops/tensor_quant.py, ops/tensor_quant_dynamic.py).

The inner step is AVX-512 VNNI's vpdpbusd (16 int32 lanes, each += the dot product of
four uint8 by four int8: 64 multiply-adds per instruction, exact). On an AVX2 CPU without
it, vpmaddubsw (pairs of uint8 x int8 products summed to int16, saturating) then vpmaddwd
(pairs of int16 summed to int32): exact while codes are at most 128 (2 * 128 * 128 fits
int16), which the dynamic kernels' [0, 127] activations are; codes up to 255 (static
kernels, dynamic ones without reduce_range) are split as (c & 127) + 128 * (c >> 7), two
such steps. Elsewhere (or with EMBER_LLVM_CPU=generic) plain integer vector arithmetic
(widen, multiply, add), slower and equally exact. Weight zero points are 0 (torch's qint8
weights are symmetric); the activation zero point z enters as sum (x - z) w =
sum x w - z * sum w, the column sums precomputed per weight.

Two shapes of product:

- rows (`linear`): output features in the vector lanes, activation rows broadcast. The
  weight (N, K) is packed as (ceil(N/16), ceil(K/4), 16, 4) int8 (zeros past N and K),
  the activation rows as uint8 with K padded to a multiple of 4 (zeros). Tiles of 4 or 1
  rows by 4 or 1 vectors.
- pixels (`conv`, stride 1, one group): 16 consecutive output pixels of one output row
  in the lanes, output channels broadcast. Each image is first laid out as (H + 2ph,
  ceil(C/4), W + 2pw, 4) uint8 (padding and missing channels hold the input zero point,
  so centred they are 0), where the four channel codes of a pixel are one int32 and 16
  consecutive pixels one vector; the weight as (O, kh, kw, ceil(C/4), 4) int8. Tiles of
  8, 4 or 1 channels by 2 or 1 vectors (a masked one at the row's end).

Epilogues (acc the exact int32 sum, converted to float32 by round-to-nearest-even as
numpy's float32 / float64 GEMM results are):

- dynamic: y = f32(f64(f32(acc)) * f64(f32(s_x * s_w[j])) + f64(bias[j])), the
  activation's qparams (fbgemm's ChooseQuantizationParams, [0, qmax]) and codes
  clamp(rne(f32(x * f32(1 / s_x) + z)), 0, 255) computed in the kernel from its min/max;
  a NaN or infinite input makes the kernel return 1 without writing (the numpy kernel's
  general path takes it).
- static: v = f32(acc); v = f32(v + bterm[c]); v = f32(v * M[c]); q = clamp(rne(v) + zp,
  lo, 255) as uint8, bterm = f32(bias / f32(s_in * s_w)) and M = f32(f32(s_in * s_w) /
  s_out) made once per weight by the caller.

Array arguments arrive as numpy array objects (ctypes.py_object: one pointer, far
cheaper to pass than `a.ctypes.data`), whose data pointer the kernel reads at DATA_OFFSET
(checked against numpy at import by the callers, kernel_qlinear.py).
"""

from __future__ import annotations

import ctypes
import inspect
import os

import numpy as np
from llvmlite import ir

from ember.llvm import kernels
from ember.llvm.kernel_rnn import _loop, _splat
from ember.llvm.layout import I64, PTR

I1, I8, I32 = ir.IntType(1), ir.IntType(8), ir.IntType(32)
F32, F64 = ir.FloatType(), ir.DoubleType()
VI32, VF32, VF64 = ir.VectorType(I32, 16), ir.VectorType(F32, 16), ir.VectorType(F64, 16)
VI8, V64I8 = ir.VectorType(I8, 16), ir.VectorType(I8, 64)
M16, M64 = ir.VectorType(I1, 16), ir.VectorType(I1, 64)
DATA_OFFSET, ND_OFFSET, DIMS_OFFSET = 16, 24, 32
"""Byte offsets in a numpy array object of its data pointer, its number of dimensions
(int) and its shape (npy_intp *): PyArrayObject's first fields after CPython's object
header."""
SMALL_SCALE = float(np.float32(6.1e-5))
"""fbgemm's floor for an activation scale (ops.tensor_quant._SMALL_SCALE)."""
_ISA: list = []


def int8_isa() -> str:
    """The int8 dot product kernels are compiled for: "vnni" (AVX-512 VNNI), "avx2"
    (vpmaddubsw) or "generic" (decided once, as jit.py decides its target:
    EMBER_LLVM_CPU=generic means generic)."""
    if not _ISA:
        _ISA.append(_detect())
    return _ISA[0]


def has_vnni() -> bool:
    """True when kernels are compiled for a CPU with AVX-512 VNNI."""
    return int8_isa() == "vnni"


def _detect() -> str:
    """The host's best ISA; EMBER_LLVM_INT8=avx2 or generic asks for a lesser one (the
    tests run each path that way), never for one the host lacks."""
    if os.environ.get("EMBER_LLVM_CPU", "") == "generic":
        return "generic"
    import llvmlite.binding as llvm

    from ember.llvm import jit
    jit.target_key()  # initializes the native target
    feats = llvm.get_host_cpu_features()
    order = ["generic"] + ["avx2"] * bool(feats.get("avx2")) + \
        ["vnni"] * bool(feats.get("avx512vnni") and feats.get("avx512bw"))
    want = os.environ.get("EMBER_LLVM_INT8", "")
    return want if want in order else order[-1]


# ----------------------------------------------------------------------------- IR helpers


def _intr(m, name, ret, args):
    f = m.globals.get(name)
    return f if f is not None else ir.Function(m, ir.FunctionType(ret, args), name)


def _gep(b, base, off):
    """base + off bytes."""
    return b.gep(base, [off], source_etype=I8)


def _data(b, obj):
    """The data pointer of the numpy array object `obj`."""
    return b.load(_gep(b, obj, I64(DATA_OFFSET)), typ=PTR)


def _rows(b, fn, obj):
    """The product of every dimension but the last of the numpy array object `obj` (at
    least one dimension)."""
    nd = b.sext(b.load(_gep(b, obj, I64(ND_OFFSET)), typ=I32), I64)
    dims = b.load(_gep(b, obj, I64(DIMS_OFFSET)), typ=PTR)
    acc = b.alloca(I64)
    b.store(I64(1), acc)
    _loop(b, fn, I64(0), b.sub(nd, I64(1)), I64(1), "rows", lambda b, i: b.store(
        b.mul(b.load(acc, typ=I64), b.load(b.gep(dims, [i], source_etype=I64), typ=I64)),
        acc))
    return b.load(acc, typ=I64)


def _vconst(vt, v):
    return ir.Constant(vt, [v] * vt.count)


def _mask(b, count, vt=M16):
    """Lanes (of 16 or 64) below `count` (an i64)."""
    n = vt.count
    lanes = ir.Constant(ir.VectorType(I64, n), list(range(n)))
    return b.icmp_signed("<", lanes, _splat(b, count, ir.VectorType(I64, n)))


def stream(b, fn, count, body, name="s"):
    """for i in range(0, count, 16): body(b, i, mask): full vectors with mask None, then
    one masked vector for the remainder (mask: its lanes below count)."""
    i = _loop(b, fn, I64(0), b.add(b.sub(count, I64(16)), I64(1)), I64(16), name,
              lambda b, i: body(b, i, None))
    tail, after = fn.append_basic_block(f"{name}.tail"), fn.append_basic_block(f"{name}.end")
    b.cbranch(b.icmp_signed("<", i, count), tail, after)
    b.position_at_end(tail)
    body(b, i, _mask(b, b.sub(count, i)))
    b.branch(after)
    b.position_at_end(after)


def load(b, vt, p, mask, passthru):
    """A vector load, masked when mask is not None."""
    return b.load(p, typ=vt, align=1) if mask is None else _mload(b, vt, p, mask, passthru)


def store(b, v, p, mask):
    """A vector store, masked when mask is not None."""
    if mask is None:
        b.store(v, p, align=1)
    else:
        _mstore(b, v, p, mask)


def _mload(b, vt, p, mask, passthru):
    name = f"llvm.masked.load.v{vt.count}{_tname(vt.element)}.p0"
    f = _intr(b.module, name, vt, [PTR, I32, ir.VectorType(I1, vt.count), vt])
    return b.call(f, [p, I32(1), mask, passthru])


def _mstore(b, v, p, mask):
    vt = v.type
    name = f"llvm.masked.store.v{vt.count}{_tname(vt.element)}.p0"
    f = _intr(b.module, name, ir.VoidType(), [vt, PTR, I32, ir.VectorType(I1, vt.count)])
    b.call(f, [v, p, I32(1), mask])


def _tname(t):
    return {F32: "f32", F64: "f64"}.get(t, f"i{getattr(t, 'width', 0)}")


def _rne(b, v):
    """Round float32 lanes to the nearest integer, ties to even (numpy's rint), with
    ordinary arithmetic: |v| < 2**23 is rounded by adding and removing 2**23; larger
    values (and infinities) are integers already."""
    vt = v.type
    fabs = _intr(b.module, f"llvm.fabs.v{vt.count}f32", vt, [vt])
    csign = _intr(b.module, f"llvm.copysign.v{vt.count}f32", vt, [vt, vt])
    big = _vconst(vt, 8388608.0)
    a = b.call(fabs, [v])
    t = b.fsub(b.fadd(a, big), big)
    return b.select(b.fcmp_ordered("<", a, big), b.call(csign, [t, v]), v)


def _clamp(b, v, lo, hi):
    """min(max(v, lo), hi) of float32 lanes (finite values)."""
    v = b.select(b.fcmp_ordered("<", v, lo), lo, v)
    return b.select(b.fcmp_ordered(">", v, hi), hi, v)


def dot4(b, acc, a, w, isa, wide=True):
    """acc (16 x i32) + per lane the dot product of a's four uint8 by w's four int8 (both
    16 x i32, four bytes per lane); `wide`: a's codes may exceed 128."""
    if isa == "vnni":
        f = _intr(b.module, "llvm.x86.avx512.vpdpbusd.512", VI32, [VI32, VI32, VI32])
        return b.call(f, [acc, a, w])
    if isa == "avx2":
        return _dot4_avx2(b, acc, a, w, wide)
    v64 = ir.VectorType(I32, 64)
    prod = b.mul(b.zext(b.bitcast(a, V64I8), v64), b.sext(b.bitcast(w, V64I8), v64))
    for t in range(4):
        idx = ir.Constant(ir.VectorType(I32, 16), [4 * j + t for j in range(16)])
        acc = b.add(acc, b.shuffle_vector(prod, ir.Constant(v64, ir.Undefined), idx))
    return acc


V8I32, V32I8, V16I16 = ir.VectorType(I32, 8), ir.VectorType(I8, 32), ir.VectorType(
    ir.IntType(16), 16)


def _pmadd(b, a, w, weight):
    """Per int32 lane of 8: the dot product of a's four uint8 codes (at most 128) by w's
    four int8, times `weight` (vpmaddubsw, then vpmaddwd by a constant)."""
    ub = _intr(b.module, "llvm.x86.avx2.pmadd.ub.sw", V16I16, [V32I8, V32I8])
    wd = _intr(b.module, "llvm.x86.avx2.pmadd.wd", V8I32, [V16I16, V16I16])
    pairs = b.call(ub, [b.bitcast(a, V32I8), b.bitcast(w, V32I8)])
    return b.call(wd, [pairs, ir.Constant(V16I16, [weight] * 16)])


def _dot4_avx2(b, acc, a, w, wide):
    """dot4 on AVX2, in two halves of 8 lanes: exact for codes up to 128, and for any
    code when `wide` (c = (c & 127) + 128 * (c >> 7), each part at most 127 or 1)."""
    halves = []
    for h in range(2):
        idx = ir.Constant(V8I32, list(range(8 * h, 8 * h + 8)))
        pick = [b.shuffle_vector(v, ir.Constant(VI32, ir.Undefined), idx) for v in (acc, a, w)]
        acc_h, a_h, w_h = pick
        if wide:
            low = b.and_(a_h, ir.Constant(V8I32, [0x7F7F7F7F] * 8))
            high = b.and_(b.lshr(a_h, ir.Constant(V8I32, [7] * 8)),
                          ir.Constant(V8I32, [0x01010101] * 8))
            acc_h = b.add(acc_h, _pmadd(b, high, w_h, 128))
            a_h = low
        halves.append(b.add(acc_h, _pmadd(b, a_h, w_h, 1)))
    return b.shuffle_vector(halves[0], halves[1], ir.Constant(VI32, list(range(16))))


# ----------------------------------------------------------------------------- epilogues


def requant(b, acc, bterm, mul, zp, lo):
    """The static epilogue of 16 exact sums: uint8 codes (16 x i8). bterm (None or 16 x
    f32), mul 16 x f32, zp and lo float32 scalars."""
    v = b.sitofp(acc, VF32)
    if bterm is not None:
        v = b.fadd(v, bterm)
    v = _rne(b, b.fmul(v, mul))
    v = b.fadd(v, _splat(b, zp, VF32))
    v = _clamp(b, v, _splat(b, lo, VF32), _vconst(VF32, 255.0))
    return b.fptoui(v, VI8)


def dequant(b, acc, s_x, wscale, bias):
    """The dynamic epilogue of 16 exact sums: f32(f64(f32(acc)) * f64(f32(s_x * s_w)) +
    f64(bias)); s_x a double holding a float32, wscale and bias 16 x f32."""
    m = b.fpext(b.fptrunc(b.fmul(_splat(b, s_x, VF64), b.fpext(wscale, VF64)), VF32), VF64)
    y = b.fmul(b.fpext(b.sitofp(acc, VF32), VF64), m)
    return b.fptrunc(b.fadd(y, b.fpext(bias, VF64)), VF32)


# ----------------------------------------------------------------------------- rows product

ROW_ARGS = ["a", "k4", "m", "wp", "kq", "n", "colsum", "z"]


def _rows_tile(b, fn, g, rows, nv, m0, jb, epi):
    """rows x nv vectors of sums at activation rows m0.., weight blocks jb..; then
    epi(b, m0, jb, rows, nv, acc). A tile of fewer than 4 sums keeps 4 sets of them
    over interleaved k, one of fewer than 8 two (integer sums: exact in any order), so
    that a narrow product (a classifier's 10 outputs) is not one chain of vpdpbusd
    latencies."""
    arow = [_gep(b, g["a"], b.mul(b.add(m0, I64(r)), g["k4"])) for r in range(rows)]
    wblk = [_gep(b, g["wp"], b.mul(b.mul(b.add(jb, I64(v)), g["kq"]), I64(64)))
            for v in range(nv)]

    def step(b, k, acc):
        wv = [b.load(_gep(b, wblk[v], b.mul(k, I64(64))), typ=VI32, align=1)
              for v in range(nv)]
        k4 = b.mul(k, I64(4))
        out = []
        for r in range(rows):
            av = _splat(b, b.load(_gep(b, arow[r], k4), typ=I32, align=1), VI32)
            out.append([dot4(b, acc[r][v], av, wv[v], g["isa"], g["wide"])
                        for v in range(nv)])
        return out

    zero = ir.Constant(VI32, None)
    split = 4 if rows * nv < 4 else 2 if rows * nv < 8 else 1
    init = [[[zero] * nv for _ in range(rows)] for _ in range(split)]
    stop = b.add(b.sub(g["kq"], I64(split)), I64(1))  # k + split <= kq
    k, sets = _acc_loop(b, fn, f"q{rows}x{nv}", I64(0), stop, split, init,
                        lambda b, k, sets: [step(b, b.add(k, I64(s)), sets[s])
                                            for s in range(split)])
    if split > 1:
        _, tail = _acc_loop(b, fn, f"q{rows}x{nv}t", k, g["kq"], 1, [sets[0]],
                            lambda b, k, sets: [step(b, k, sets[0])])
        acc = [[tail[0][r][v] for v in range(nv)] for r in range(rows)]
        for extra in sets[1:]:
            acc = [[b.add(acc[r][v], extra[r][v]) for v in range(nv)] for r in range(rows)]
    else:
        acc = sets[0]
    epi(b, m0, jb, rows, nv, acc)


def _acc_loop(b, fn, name, start, stop, step, init, body):
    """for k in range(start, stop, step): sets = body(b, k, sets), sets a nested list of
    vector values carried through the loop (phis); returns (the final k, the sets)."""
    head, loop, done = (fn.append_basic_block(f"{name}.{s}") for s in "hbd")
    pre = b.block
    b.branch(head)
    b.position_at_end(head)
    k = b.phi(I64)
    k.add_incoming(start, pre)

    def phis(tree):
        if isinstance(tree, list):
            return [phis(t) for t in tree]
        p = b.phi(VI32)
        p.add_incoming(tree, pre)
        return p
    sets = phis(init)
    b.cbranch(b.icmp_signed("<", k, stop), loop, done)
    b.position_at_end(loop)
    new = body(b, k, sets)

    def link(p, v):
        if isinstance(p, list):
            for a, c in zip(p, v):
                link(a, c)
        else:
            p.add_incoming(v, b.block)
    link(sets, new)
    k.add_incoming(b.add(k, I64(step)), b.block)
    b.branch(head)
    b.position_at_end(done)
    return k, sets


def rows_product(b, fn, g, epi, block_epi=None):
    """Every tile of the rows product: sums (m, block j) handed to epi(b, m, j, acc) with
    the column-sum correction applied (a tile of 4 rows to block_epi(b, m0, jb, acc[r][v])
    when given). Fewer than 4 rows take tiles of 8 vectors (enough independent sums to
    hide vpdpbusd's latency), more tiles of 4 rows by 4 vectors."""
    def fix(b, j, acc):
        cs = b.load(_gep(b, g["colsum"], b.mul(j, I64(64))), typ=VI32, align=4)
        return b.sub(acc, b.mul(_splat(b, g["z"], VI32), cs))

    def corrected(b, m0, jb, rows, nv, acc):
        fixed = [[fix(b, b.add(jb, I64(v)), acc[r][v]) for v in range(nv)]
                 for r in range(rows)]
        if block_epi is not None and rows == 4:
            block_epi(b, m0, jb, fixed)
            return
        for r in range(rows):
            for v in range(nv):
                epi(b, b.add(m0, I64(r)), b.add(jb, I64(v)), fixed[r][v])

    nb = b.udiv(b.add(g["n"], I64(15)), I64(16))

    def tile(b, rows, nv, m, jb):
        if "flags" not in g:
            _rows_tile(b, fn, g, rows, nv, m, jb, corrected)
            return
        narrow = ir.Constant(I1, 1)  # every row of the tile (row_flags)
        for r in range(rows):
            f = b.load(_gep(b, g["flags"], b.add(m, I64(r))), typ=I8)
            narrow = b.and_(narrow, b.trunc(f, I1))
        both_widths(b, fn, g, narrow, lambda b: _rows_tile(b, fn, g, rows, nv, m, jb,
                                                           corrected))

    def rowtiles(nv, tiles):
        def per(b, jb):
            m0 = I64(0)
            for rows in tiles:
                last = b.add(b.sub(g["m"], I64(rows)), I64(1))
                m0 = _loop(b, fn, m0, last, I64(rows), f"m{rows}x{nv}",
                           lambda b, m: tile(b, rows, nv, m, jb))
        return per

    few, many, done = (fn.append_basic_block(f"rp.{s}") for s in ("few", "many", "done"))
    b.cbranch(b.icmp_signed("<", g["m"], I64(4)), few, many)
    for block, wide, tiles in ((few, 8, (1,)), (many, 4, (4, 1))):
        b.position_at_end(block)
        j = _loop(b, fn, I64(0), b.add(b.sub(nb, I64(wide)), I64(1)), I64(wide), f"j{wide}",
                  rowtiles(wide, tiles))
        _loop(b, fn, j, nb, I64(1), f"j1w{wide}", rowtiles(1, tiles))
        b.branch(done)
    b.position_at_end(done)


def _lanes(b, g, j):
    """The mask of block j's lanes below n."""
    return _mask(b, b.sub(g["n"], b.mul(j, I64(16))))


def _vec_at(b, base, j, vt=VF32):
    return b.load(_gep(b, base, b.mul(j, I64(64))), typ=vt, align=4)


# ----------------------------------------------------------------------------- dynamic linear

DYN_ARGS = ["x", "out", "w"]
"""Array objects: x float32 (..., k) and out float32 (..., n), C-contiguous; w the
weight's WEIGHT_FIELDS (int64). The activation range is [0, qmax], qmax a parameter of
the compiled kernel: 127 (reduce_range) or 255."""
WEIGHT_FIELDS = ["k", "n", "wp", "colsum", "a", "b", "zin", "zout", "lo", "neg"]
"""A packed weight's description: sizes, then the addresses of the packed codes
(ceil(n/16), ceil(k/4), 16, 4) int8, the column sums (int32) and two float32 per-column
arrays (dynamic: weight scales, bias; static: M, bterm or null), all padded to 16 lanes;
for a static product the input and output zero points and the output's lowest code; for
a dynamic product with an addend, the number of leading columns returned negated (the
LSTM's sigmoid gates, which it then exponentiates negated: negation is exact)."""
_PTR_FIELDS = {"wp", "colsum", "a", "b"}


def _fields(b, obj):
    """The WEIGHT_FIELDS of the int64 array object obj: sizes as i64, addresses as
    pointers."""
    return fields_at(b, _data(b, obj))


def fields_at(b, w):
    """The WEIGHT_FIELDS stored at w (int64 values)."""
    return {name: b.load(_gep(b, w, I64(8 * i)), typ=PTR if name in _PTR_FIELDS else I64,
                         align=8) for i, name in enumerate(WEIGHT_FIELDS)}


def _minmax(b, fn, x, total):
    """(min, max, bad) over total (> 0) float32 values at x: bad is NaN when any value is
    NaN or infinite."""
    first = _splat(b, b.load(x, typ=F32), VF32)
    slots = {k: b.alloca(VF32) for k in ("mn", "mx", "bad")}
    b.store(first, slots["mn"])
    b.store(first, slots["mx"])
    b.store(ir.Constant(VF32, None), slots["bad"])

    def body(b, i, mask):
        v = load(b, VF32, b.gep(x, [i], source_etype=F32), mask, first)
        mn, mx, bad = (b.load(slots[k], typ=VF32) for k in ("mn", "mx", "bad"))
        b.store(b.select(b.fcmp_ordered("<", v, mn), v, mn), slots["mn"])
        b.store(b.select(b.fcmp_ordered(">", v, mx), v, mx), slots["mx"])
        b.store(b.fadd(bad, b.fsub(v, v)), slots["bad"])
    stream(b, fn, total, body, "mm")
    vec = {k: b.load(slots[k], typ=VF32) for k in slots}
    mn = mx = bad = None
    for t in range(16):
        a, c, d = (b.extract_element(vec[k], I32(t)) for k in ("mn", "mx", "bad"))
        mn = a if mn is None else b.select(b.fcmp_ordered("<", a, mn), a, mn)
        mx = c if mx is None else b.select(b.fcmp_ordered(">", c, mx), c, mx)
        bad = d if bad is None else b.fadd(bad, d)
    return mn, mx, bad


def narrow_codes(b, fn, p, count, zp):
    """i1: every one of count uint8 codes at p, and zp (i64, the padding's code), is at
    most 128 (the AVX2 product may then skip the split of wide codes)."""
    top = b.alloca(VI8)
    b.store(ir.Constant(VI8, None), top)

    def body(b, i, mask):
        v = load(b, VI8, _gep(b, p, i), mask, ir.Constant(VI8, None))
        t = b.load(top, typ=VI8)
        b.store(b.select(b.icmp_unsigned(">", v, t), v, t), top)
    stream(b, fn, count, body, "nc")
    vec = b.load(top, typ=VI8)
    big = b.icmp_signed(">", zp, I64(128))
    for t in range(16):
        big = b.or_(big, b.icmp_unsigned(">", b.extract_element(vec, I32(t)), I8(128)))
    return b.not_(big)


def both_widths(b, fn, g, narrow, emit):
    """emit(b) twice: with g["wide"] False where `narrow` (i1) holds, True elsewhere (only
    the AVX2 product distinguishes them; other ISAs emit once). The static linear decides
    per tile of rows, the convolution per output row."""
    if g["isa"] != "avx2":
        g["wide"] = True
        emit(b)
        return
    yes, no, done = (fn.append_basic_block(f"w.{s}") for s in ("narrow", "wide", "done"))
    b.cbranch(narrow, yes, no)
    for block, wide in ((yes, False), (no, True)):
        b.position_at_end(block)
        g["wide"] = wide
        emit(b)
        b.branch(done)
    b.position_at_end(done)


def _f32(b, v):
    """A double rounded to float32 and back."""
    return b.fpext(b.fptrunc(v, F32), F64)


def choose_qparams(b, mn, mx, qmax):
    """ops.tensor_quant.choose_qparams(mn, mx, 0, qmax) for finite float32 mn, mx (as
    doubles): (scale as a double holding a float32, zero point as a double integer)."""
    zero, qm = F64(0.0), b.sitofp(qmax, F64)
    mn = b.select(b.fcmp_ordered("<", mn, zero), mn, zero)
    mx = b.select(b.fcmp_ordered(">", mx, zero), mx, zero)
    scale = b.fdiv(b.fsub(mx, mn), qm)
    s32 = _f32(b, scale)
    inv = b.fptrunc(b.fdiv(F64(1.0), s32), F32)
    fabs = _intr(b.module, "llvm.fabs.f32", F32, [F32])
    degenerate = b.or_(b.fcmp_ordered("==", s32, zero),
                       b.fcmp_ordered("==", b.call(fabs, [inv]), F32(float("inf"))))
    scale = b.select(degenerate, F64(0.1), scale)
    small = b.fcmp_ordered("<", scale, F64(SMALL_SCALE))
    # below the floor: the range is widened around the zero point
    span = _f32(b, b.fmul(F64(SMALL_SCALE), qm))
    amp = _f32(b, b.fdiv(F64(SMALL_SCALE), _f32(b, scale)))
    mn_zero, mx_zero = b.fcmp_ordered("==", mn, zero), b.fcmp_ordered("==", mx, zero)
    mx_s = b.select(mn_zero, span, b.select(mx_zero, mx, _f32(b, b.fmul(mx, amp))))
    mn_s = b.select(mn_zero, mn, b.select(mx_zero, b.fsub(zero, span),
                                          _f32(b, b.fmul(mn, amp))))
    mn = b.select(small, mn_s, mn)
    mx = b.select(small, mx_s, mx)
    scale = b.select(small, F64(SMALL_SCALE), scale)
    dmin, dmax = b.fdiv(mn, scale), b.fdiv(mx, scale)
    fabs64 = _intr(b.module, "llvm.fabs.f64", F64, [F64])
    from_min, from_max = b.fsub(zero, dmin), b.fsub(qm, dmax)
    err_min = b.fsub(zero, b.call(fabs64, [dmin]))
    err_max = b.fsub(qm, b.call(fabs64, [dmax]))
    zp = b.select(b.fcmp_ordered("<", err_min, err_max), from_min, from_max)
    reven = _intr(b.module, "llvm.roundeven.f64", F64, [F64])
    nudged = b.call(reven, [zp])
    nudged = b.select(b.fcmp_ordered("<", zp, zero), zero, nudged)
    nudged = b.select(b.fcmp_ordered(">", zp, qm), qm, nudged)
    return _f32(b, scale), nudged


def _quantize_rows(b, fn, x, codes, m, k, k4, inv, z):
    """codes (m, k4) uint8 = clamp(rne(f32(x * inv + z)), 0, 255) of x (m, k), zeros
    past k; inv (a float32 value) and z (an integer) doubles. f32(x * inv + z) is one
    float32 fused multiply-add, fbgemm's own step: the numpy kernels' float64 route gives
    the same codes (docs/quantization.md, "Quantize and dequantize")."""
    vinv = _splat(b, b.fptrunc(inv, F32), VF32)
    vz = _splat(b, b.fptrunc(z, F32), VF32)
    fma = _intr(b.module, "llvm.fma.v16f32", VF32, [VF32, VF32, VF32])
    lo, hi = ir.Constant(VF32, None), _vconst(VF32, 255.0)

    def row(b, r):
        src = b.gep(x, [b.mul(r, k)], source_etype=F32)
        dst = _gep(b, codes, b.mul(r, k4))

        def chunk(b, i, mask):
            v = load(b, VF32, b.gep(src, [i], source_etype=F32), mask, lo)
            t = b.call(fma, [v, vinv, vz])
            q = b.fptoui(_clamp(b, _rne(b, t), lo, hi), VI8)
            store(b, q, _gep(b, dst, i), mask)
        stream(b, fn, k, chunk, "qc")
        _loop(b, fn, k, k4, I64(1), "qpad", lambda b, i: b.store(I8(0), _gep(b, dst, i)))
    _loop(b, fn, I64(0), m, I64(1), "qr", row)


def _malloc(b, size):
    f = _intr(b.module, "malloc", PTR, [I64])
    return b.call(f, [size])


def _free(b, p):
    b.call(_intr(b.module, "free", ir.VoidType(), [PTR]), [p])


def _scatter_cols(b, y, out, m, j, rows, mask):
    """Store the 16 lanes of y (columns 16 j.. of row m) into out transposed: out[c, m] of
    an (n, rows) float32 matrix."""
    lanes = ir.Constant(ir.VectorType(I64, 16), list(range(16)))
    col = b.add(_splat(b, b.mul(j, I64(16)), ir.VectorType(I64, 16)), lanes)
    off = b.mul(b.add(b.mul(col, _splat(b, rows, ir.VectorType(I64, 16))),
                      _splat(b, m, ir.VectorType(I64, 16))), _vconst(ir.VectorType(I64, 16), 4))
    base = _splat(b, b.ptrtoint(out, I64), ir.VectorType(I64, 16))
    ptrs = b.inttoptr(b.add(base, off), ir.VectorType(PTR, 16))
    vp = ir.VectorType(PTR, 16)
    f = _intr(b.module, "llvm.masked.scatter.v16f32.v16p0", ir.VoidType(), [VF32, vp, I32, M16])
    b.call(f, [y, ptrs, I32(4), mask])


def _store_cols4(b, ys, out, m0, j, rows, n):
    """ys: 4 rows m0.. of columns 16 j.. (16 x f32 each), stored transposed into out
    (n, rows): each column's 4 values are consecutive; columns from n on are skipped."""
    lo = b.shuffle_vector(ys[0], ys[1], ir.Constant(ir.VectorType(I32, 32), list(range(32))))
    hi = b.shuffle_vector(ys[2], ys[3], ir.Constant(ir.VectorType(I32, 32), list(range(32))))
    v4 = ir.VectorType(F32, 4)
    f = _intr(b.module, "llvm.masked.store.v4f32.p0", ir.VoidType(),
              [v4, PTR, I32, ir.VectorType(I1, 4)])
    for jj in range(16):
        idx = ir.Constant(ir.VectorType(I32, 4), [jj, 16 + jj, 32 + jj, 48 + jj])
        col = b.add(b.mul(j, I64(16)), I64(jj))
        dst = b.gep(out, [b.add(b.mul(col, rows), m0)], source_etype=F32)
        ok = _splat(b, b.icmp_signed("<", col, n), ir.VectorType(I1, 4))
        b.call(f, [b.shuffle_vector(lo, hi, idx), dst, I32(4), ok])


def build_dynamic(module, name, isa, qmax, transposed=False, addend=False, relu=False):
    """The dynamic product of array objects (DYN_ARGS and, with `addend`, a fourth: a
    float32 (m, n) array added to the result), m the product of x's leading dimensions:
    a thin entry to dynamic_core."""
    core = dynamic_core(module, name + "_core", isa, qmax, transposed, addend, relu)
    fn = ir.Function(module, ir.FunctionType(I32, [PTR] * (4 if addend else 3)), name)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    x, out, w = fn.args[:3]
    add = _data(b, fn.args[3]) if addend else ir.Constant(PTR, None)
    b.ret(b.call(core, [_data(b, x), _data(b, out), _data(b, w), _rows(b, fn, x), add]))
    return fn


def dynamic_core(module, name, isa, qmax, transposed=False, addend=False, relu=False):
    """name(x, out, fields, m, add) -> 0, or 1 (nothing written) when x holds NaN or an
    infinity: the dynamic product of x (m, k) float32 by the weight whose WEIGHT_FIELDS
    are at `fields`; `transposed`: out is (n, m); `addend`: add (m, n) float32 is added to
    the result (one float32 addition, after its rounding); `relu`: negative results
    become 0 (tensor.relu's np.clip: NaN and -0.0 kept)."""
    fn = ir.Function(module, ir.FunctionType(I32, [PTR, PTR, PTR, I64, PTR]), name)
    x, out, wf, m, add = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    a = fields_at(b, wf)
    a["m"], a["qmax"] = m, I64(qmax)
    a["wscale"], a["bias"] = a["a"], a["b"]
    mn, mx, bad = _minmax(b, fn, x, b.mul(a["m"], a["k"]))
    ok, fail = fn.append_basic_block("ok"), fn.append_basic_block("fail")
    b.cbranch(b.fcmp_unordered("uno", bad, bad), fail, ok)
    b.position_at_end(fail)
    b.ret(I32(1))
    b.position_at_end(ok)
    s_x, z = choose_qparams(b, b.fpext(mn, F64), b.fpext(mx, F64), a["qmax"])
    inv = b.fpext(b.fptrunc(b.fdiv(F64(1.0), s_x), F32), F64)
    k4 = b.and_(b.add(a["k"], I64(3)), I64(-4))
    codes = _malloc(b, b.mul(a["m"], k4))
    _quantize_rows(b, fn, x, codes, a["m"], a["k"], k4, inv, z)
    g = {"a": codes, "k4": k4, "m": a["m"], "wp": a["wp"], "kq": b.udiv(k4, I64(4)),
         "n": a["n"], "colsum": a["colsum"], "z": b.fptosi(z, I32), "isa": isa,
         "wide": qmax > 127}
    if not addend:
        add = None

    def y_of(b, m, j, acc):
        y = dequant(b, acc, s_x, _vec_at(b, a["wscale"], j), _vec_at(b, a["bias"], j))
        if add is not None:
            p = b.gep(add, [b.add(b.mul(m, a["n"]), b.mul(j, I64(16)))], source_etype=F32)
            y = b.fadd(y, _mload(b, VF32, p, _lanes(b, g, j), ir.Constant(VF32, None)))
            neg = _mask(b, b.sub(a["neg"], b.mul(j, I64(16))))
            y = b.select(neg, b.fneg(y), y)
        if relu:
            zero = ir.Constant(VF32, None)
            y = b.select(b.fcmp_ordered("<", y, zero), zero, y)
        return y

    def epi(b, m, j, acc):
        y = y_of(b, m, j, acc)
        if transposed:
            _scatter_cols(b, y, out, m, j, a["m"], _lanes(b, g, j))
            return
        dst = b.gep(out, [b.add(b.mul(m, a["n"]), b.mul(j, I64(16)))], source_etype=F32)
        _mstore(b, y, dst, _lanes(b, g, j))

    def block_epi(b, m0, jb, acc):  # 4 rows: 16 stores of 4 consecutive rows per column
        for v in range(len(acc[0])):
            j = b.add(jb, I64(v))
            ys = [y_of(b, b.add(m0, I64(r)), j, acc[r][v]) for r in range(4)]
            _store_cols4(b, ys, out, m0, j, a["m"], a["n"])

    rows_product(b, fn, g, epi, block_epi if transposed else None)
    _free(b, codes)
    b.ret(I32(0))
    return fn


# ----------------------------------------------------------------------------- static linear

STATIC_ARGS = ["q", "out", "w"]
"""Array objects: q uint8 (..., k) and out uint8 (..., n), C-contiguous; w the weight's
WEIGHT_FIELDS (a: M, b: bterm or null)."""


def build_static(module, name, isa, with_bias):
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR, PTR]), name)
    a = dict(zip(STATIC_ARGS, fn.args))
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    a.update(_fields(b, a["w"]))
    a["m"] = _rows(b, fn, a["q"])
    a["mul"], a["bterm"] = a["a"], a["b"]
    q, out = _data(b, a["q"]), _data(b, a["out"])
    k, m = a["k"], a["m"]
    k4 = b.and_(b.add(k, I64(3)), I64(-4))
    codes = _malloc(b, b.add(b.mul(m, k4), I64(4)))
    memcpy = _intr(b.module, "memcpy", PTR, [PTR, PTR, I64])

    def row(b, r):  # rows padded to k4 with zeros (the weight's padding is zero too)
        dst = _gep(b, codes, b.mul(r, k4))
        b.call(memcpy, [dst, _gep(b, q, b.mul(r, k)), k])
        _loop(b, fn, k, k4, I64(1), "pad", lambda b, i: b.store(I8(0), _gep(b, dst, i)))
    _loop(b, fn, I64(0), m, I64(1), "cp", row)
    g = {"a": codes, "k4": k4, "m": m, "wp": a["wp"], "kq": b.udiv(k4, I64(4)),
         "n": a["n"], "colsum": a["colsum"], "z": b.trunc(a["zin"], I32), "isa": isa}
    zout, lo = b.sitofp(a["zout"], F32), b.sitofp(a["lo"], F32)

    def epi(b, mm, j, acc):
        bt = _vec_at(b, a["bterm"], j) if with_bias else None
        y = requant(b, acc, bt, _vec_at(b, a["mul"], j), zout, lo)
        _mstore(b, y, _gep(b, out, b.add(b.mul(mm, a["n"]), b.mul(j, I64(16)))),
                _lanes(b, g, j))

    if isa == "avx2":  # which rows hold a code above 128 (the padding's codes are 0)
        g["flags"] = _malloc(b, b.add(m, I64(1)))
        _loop(b, fn, I64(0), m, I64(1), "fl", lambda b, r: b.store(
            b.zext(narrow_codes(b, fn, _gep(b, q, b.mul(r, k)), k, I64(0)), I8),
            _gep(b, g["flags"], r)))
    else:
        g["wide"] = True
    rows_product(b, fn, g, epi)
    if isa == "avx2":
        _free(b, g["flags"])
    _free(b, codes)
    b.ret_void()
    return fn


# ----------------------------------------------------------------------------- compiled

_FN: dict = {}
_OBJ = ctypes.py_object
_DYN_PROTO = ctypes.CFUNCTYPE(ctypes.c_int32, _OBJ, _OBJ, _OBJ)
_DYN_PROTO4 = ctypes.CFUNCTYPE(ctypes.c_int32, _OBJ, _OBJ, _OBJ, _OBJ)
_STATIC_PROTO = ctypes.CFUNCTYPE(None, _OBJ, _OBJ, _OBJ)


def _compiled(kind, params, build, proto):
    key = (kind,) + params
    fn = _FN.get(key)
    if fn is None:
        src = inspect.getsource(inspect.getmodule(build_dynamic))
        addr, = kernels.compile_kernel("qgemm", key, lambda m: build(m, "ember_q", *params),
                                       ["ember_q"], src)
        fn = _FN[key] = proto(addr)
    return fn


def dynamic_fn(qmax, transposed=False, addend=False, relu=False):
    """The dynamic linear kernel for activations in [0, qmax] (a ctypes function of
    DYN_ARGS, returning 0 or 1); `transposed`: out is (n, m), the product's transpose;
    `addend`: a fourth argument, float32 (m, n), added to the result; `relu`: the
    result's negative values become 0."""
    key = (int8_isa(), qmax, transposed, addend) + ((True,) if relu else ())
    return _compiled("dyn", key, build_dynamic, _DYN_PROTO4 if addend else _DYN_PROTO)


def static_fn(with_bias):
    """The static linear kernel (a ctypes function of STATIC_ARGS)."""
    return _compiled("static", (int8_isa(), with_bias), build_static, _STATIC_PROTO)
