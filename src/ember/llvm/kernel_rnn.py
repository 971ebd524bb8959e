"""The LSTM recurrence as one native call: every time step's recurrent product and gate
math, for all batch rows, in one LLVM function.

`NativeLSTM` is `tensor.lstm` under the LLVM backend. It keeps the numpy kernel's plan
(ops/tensor_rnn.py): the input projection of all steps is one GEMM through numpy (the
BLAS it ships), the weights are the kernel's own prepared ones (gates reordered to
(i, f, o, g), i/f/o pre-scaled by 1/2, W_hh^T C-contiguous, cached per frozen weight
set). The recurrence then runs natively: per step, rows in blocks of four, the product
h @ W_hh^T accumulates in vector registers (UNITS <16 x float> per row, fused
multiply-add), starting from the step's input projection, W_hh^T read as packed column
panels (`_packed`: each block's H x 96 panel contiguous; W_hh^T does not fit in L1, and
a row-major read of it 2 KiB apart per k ran at about half the speed: bench LSTM b1
recurrence 104 -> 58 us); then per element sigmoid(i, f, o) = tanh * 0.5 + 0.5,
c = i * g + f * c, h = o * tanh(c), h written straight into the output.

Accuracy: the gate math is float32 operation by operation, as the kernel's ufuncs; tanh
is ember's (llvm/fused.py: within 1 ulp of the correctly rounded value); the recurrent
product sums in k order with FMAs where BLAS picks its own order, so results differ from
the VM's by float32 rounding of the products (tests: within 2e-6 absolute over 32 steps
on the bench model's scale, checked against the VM).

From BATCHED rows on, a step is one native product instead (build_batched: kernel_gemm's
8-row tiles over all rows of [x_t | h] times the stacked [W_ih^T; W_hh^T], bias in the
epilogue: no separate projection pass), then the rows' gate math; h kept beside x_t in
a contiguous buffer (rows of a batch-first output lie T * H floats apart, which maps
them all to the same cache sets).

Covered: float32 input and weights, no projection (proj_size 0), an even hidden size, at
least one step; any layers, directions, batch, batch_first, initial states. Anything
else runs the numpy kernel (`kernels.COUNTS` counts both).
"""

from __future__ import annotations

import ctypes
import inspect
import math
import threading

import numpy as np
from llvmlite import ir

from ember.llvm import kernels, vmath
from ember.llvm.layout import I64, PTR
from ember.llvm.vmath import F32, tanh_f32
from ember.ops import tensor_rnn as R
from ember.ops.tensor_linalg import flat_matmul

V8 = ir.VectorType(F32, 8)
V16 = ir.VectorType(F32, 16)
_ARGS = ["xw", "sxn", "sxt", "wh", "h0", "out", "son", "sot", "c", "g", "n", "t", "h", "rev"]
_PTRS = {"xw", "wh", "h0", "out", "c", "g"}
_PROTO = kernels.prototype(*[ctypes.c_void_p if a in _PTRS else ctypes.c_int64
                             for a in _ARGS])
BLOCK = 4
"""Batch rows per block: each W_hh^T vector load feeds this many rows' accumulators."""
UNITS = 6
"""<16 x float> vectors per column block of the recurrent product (BLOCK * UNITS
accumulators)."""


# ----------------------------------------------------------------------------- codegen

def _fn_type(extra=()):
    return ir.FunctionType(ir.VoidType(), [PTR if a in _PTRS else I64 for a in _ARGS]
                           + list(extra))


def _ptr(b, base, off):
    return b.gep(base, [off], source_etype=F32)


def _splat(b, x, vt):
    v = b.insert_element(ir.Constant(vt, ir.Undefined), x, I64(0))
    return b.shuffle_vector(v, ir.Constant(vt, ir.Undefined),
                            ir.Constant(ir.VectorType(ir.IntType(32), vt.count), [0] * vt.count))


def _loop(b, fn, start, stop, step, name, body):
    """for i in range(start, stop, step): body(b, i) (stop: a value; body may add blocks)."""
    head, loop, done = (fn.append_basic_block(f"{name}.{s}") for s in ("h", "b", "d"))
    pre = b.block
    b.branch(head)
    b.position_at_end(head)
    i = b.phi(I64)
    i.add_incoming(start, pre)
    b.cbranch(b.icmp_signed("<", i, stop), loop, done)
    b.position_at_end(loop)
    body(b, i)
    i.add_incoming(b.add(i, step), b.block)
    b.branch(head)
    b.position_at_end(done)
    return i


def _gemv_blocks(b, fn, rows, units, vt, jstart, g4, hdim, xrow, wh, hprev, grow):
    """For column blocks of units vectors of type vt from jstart while they fit in 4H:
    acc = the step's input projection, acc += h[k] * W[k, block] over k (k in order, one
    FMA each), stored to the gate buffer. Returns the first column not covered."""
    lanes = vt.count
    width = lanes * units
    tag = f"j{units}x{lanes}"
    head, loop, done = (fn.append_basic_block(f"{tag}.{s}") for s in ("h", "b", "d"))
    pre = b.block
    b.branch(head)
    b.position_at_end(head)
    jb = b.phi(I64)
    jb.add_incoming(jstart, pre)
    b.cbranch(b.icmp_signed("<=", b.add(jb, I64(width)), g4), loop, done)
    b.position_at_end(loop)
    acc0 = [[b.load(_ptr(b, xrow[r], b.add(jb, I64(lanes * u))), typ=vt, align=4)
             for u in range(units)] for r in range(rows)]
    khead, kbody, kdone = (fn.append_basic_block(f"k{tag}.{s}") for s in ("h", "b", "d"))
    kpre = b.block
    b.branch(khead)
    b.position_at_end(khead)
    k = b.phi(I64)
    k.add_incoming(I64(0), kpre)
    acc = [[b.phi(vt) for _ in range(units)] for _ in range(rows)]
    for r in range(rows):
        for u in range(units):
            acc[r][u].add_incoming(acc0[r][u], kpre)
    b.cbranch(b.icmp_signed("<", k, hdim), kbody, kdone)
    b.position_at_end(kbody)
    wrow = b.add(b.mul(jb, hdim), b.mul(k, I64(width)))  # packed panels (_packed)
    w = [b.load(_ptr(b, wh, b.add(wrow, I64(lanes * u))), typ=vt, align=4)
         for u in range(units)]
    fma = _intrinsic(b, f"llvm.fmuladd.v{lanes}f32", vt, 3)
    for r in range(rows):
        hv = _splat(b, b.load(_ptr(b, hprev[r], k), typ=F32), vt)
        for u in range(units):
            acc[r][u].add_incoming(b.call(fma, [hv, w[u], acc[r][u]]), kbody)
    k.add_incoming(b.add(k, I64(1)), kbody)
    b.branch(khead)
    b.position_at_end(kdone)
    for r in range(rows):
        for u in range(units):
            b.store(acc[r][u], _ptr(b, grow[r], b.add(jb, I64(lanes * u))), align=4)
    jb.add_incoming(b.add(jb, I64(width)), kdone)
    b.branch(head)
    b.position_at_end(done)
    return jb


def _intrinsic(b, name, t, nargs):
    m = b.module
    f = m.globals.get(name)
    return f if f is not None else ir.Function(m, ir.FunctionType(t, [t] * nargs), name)


def _gates(b, fn, hdim, grow, crow, orow, hrow=None):
    """c = i * g + f * c and h = o * tanh(c) for one row's H elements (h also to hrow), in
    three loops of one tanh per element each (small bodies: no spills, and the host's
    vectors run them): sigmoid of the i, f, o gates (3H contiguous, in place), tanh of g
    (in place), then c and h. The same operations per element as in one loop."""
    half = ir.Constant(F32, 0.5)

    def sig(b, j):
        p = _ptr(b, grow, j)
        b.store(b.fadd(b.fmul(tanh_f32(b, b.load(p, typ=F32)), half), half), p)
    _loop(b, fn, I64(0), b.mul(hdim, I64(3)), I64(1), "sg", sig)
    gate_g = _ptr(b, grow, b.mul(hdim, I64(3)))

    def tg(b, j):
        p = _ptr(b, gate_g, j)
        b.store(tanh_f32(b, b.load(p, typ=F32)), p)
    _loop(b, fn, I64(0), hdim, I64(1), "tg", tg)

    def body(b, j):
        def gate(k):
            return b.load(_ptr(b, grow, b.add(j, b.mul(hdim, I64(k)))), typ=F32)
        i_, f_, o_, g_ = gate(0), gate(1), gate(2), gate(3)
        cp = _ptr(b, crow, j)
        c = b.fadd(b.fmul(i_, g_), b.fmul(f_, b.load(cp, typ=F32)))
        b.store(c, cp)
        h = b.fmul(o_, tanh_f32(b, c))
        b.store(h, _ptr(b, orow, j))
        if hrow is not None:
            b.store(h, _ptr(b, hrow, j))
    _loop(b, fn, I64(0), hdim, I64(1), "e", body)


def _rows_function(module, rows, units, name):
    """`name(args…, i64 n0)`: the whole recurrence for batch rows n0 .. n0 + rows - 1."""
    fn = ir.Function(module, _fn_type([I64]), name)
    a = dict(zip(_ARGS + ["n0"], fn.args))
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    hdim = a["h"]
    g4 = b.mul(hdim, I64(4))

    def step(b, t):
        rev = b.icmp_signed("!=", a["rev"], I64(0))
        last = b.sub(a["t"], I64(1))
        tt = b.select(rev, b.sub(last, t), t)
        tprev = b.select(rev, b.add(tt, I64(1)), b.sub(tt, I64(1)))
        first = b.icmp_signed("==", t, I64(0))
        xrow, hprev, orow, crow, grow = [], [], [], [], []
        for r in range(rows):
            row = b.add(a["n0"], I64(r))
            xrow.append(_ptr(b, a["xw"], b.add(b.mul(row, a["sxn"]), b.mul(tt, a["sxt"]))))
            orow_at = lambda s: _ptr(b, a["out"], b.add(b.mul(row, a["son"]),  # noqa: E731
                                                         b.mul(s, a["sot"])))
            hprev.append(b.select(first, _ptr(b, a["h0"], b.mul(row, hdim)), orow_at(tprev)))
            orow.append(orow_at(tt))
            crow.append(_ptr(b, a["c"], b.mul(row, hdim)))
            grow.append(_ptr(b, a["g"], b.mul(I64(r), g4)))
        j = I64(0)
        for n, vt in ((units, V16), (1, V16), (1, V8)):  # 4H is a multiple of 8
            j = _gemv_blocks(b, fn, rows, n, vt, j, g4, hdim, xrow, a["wh"], hprev, grow)
        for r in range(rows):
            _gates(b, fn, hdim, grow[r], crow[r], orow[r])

    _loop(b, fn, I64(0), a["t"], I64(1), "t", step)
    b.ret_void()
    return fn


def build(module) -> None:
    """`ember_lstm(args…)`: rows in blocks of BLOCK, then one at a time."""
    many = _rows_function(module, BLOCK, UNITS, "ember_lstm_rows4")
    one = _rows_function(module, 1, UNITS, "ember_lstm_rows1")
    fn = ir.Function(module, _fn_type(), "ember_lstm")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    n = fn.args[_ARGS.index("n")]
    blocks = b.mul(b.sdiv(n, I64(BLOCK)), I64(BLOCK))
    _loop(b, fn, I64(0), blocks, I64(BLOCK), "r4",
          lambda b, n0: b.call(many, list(fn.args) + [n0]))
    _loop(b, fn, blocks, n, I64(1), "r1", lambda b, n0: b.call(one, list(fn.args) + [n0]))
    b.ret_void()


_XARGS = ["x", "sxn", "sxt", "w", "bias", "xh", "out", "son", "sot", "c", "g", "n", "t", "h",
          "i", "rev", "off", "k0"]
_XPTRS = {"x", "w", "bias", "xh", "out", "c", "g", "off"}


def build_batched(module, has_bias) -> None:
    """`ember_lstm_xh(_XARGS…)`: per step, each row's input x_t is copied beside its h in
    `xh` (rows [x_t | h], I + H wide), then one native product of all rows (kernel_gemm.py)
    with the stacked weights [W_ih^T; W_hh^T] gives the step's gates (bias in the epilogue),
    then each row's gate math writes c, h (into xh) and the output. No projection pass:
    x_t @ W_ih^T is computed with the recurrent product. The first step sums over the
    first k0 rows of the stack only: I when h0 is all zeros and W_hh finite (its products
    are then ±0.0, which change no sum that starts at +0.0), else I + H."""
    from ember.llvm import kernel_gemm as G

    gemm = G.build(module, "ember_lstm_product", ("col" if has_bias else None, None, False))
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [
        PTR if x in _XPTRS else I64 for x in _XARGS]), "ember_lstm_xh")
    a = dict(zip(_XARGS, fn.args))
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    hdim = a["h"]
    g4 = b.mul(hdim, I64(4))
    width = b.add(a["i"], hdim)
    memcpy = module.globals.get("llvm.memcpy.p0.p0.i64") or ir.Function(
        module, ir.FunctionType(ir.VoidType(), [PTR, PTR, I64, ir.IntType(1)]),
        "llvm.memcpy.p0.p0.i64")

    def step(b, t):
        rev = b.icmp_signed("!=", a["rev"], I64(0))
        tt = b.select(rev, b.sub(b.sub(a["t"], I64(1)), t), t)

        def copy(b, r):
            src = _ptr(b, a["x"], b.add(b.mul(r, a["sxn"]), b.mul(tt, a["sxt"])))
            b.call(memcpy, [_ptr(b, a["xh"], b.mul(r, width)), src, b.mul(a["i"], I64(4)),
                            ir.IntType(1)(0)])
        _loop(b, fn, I64(0), a["n"], I64(1), "cp", copy)
        k = b.select(b.icmp_signed("==", t, I64(0)), a["k0"], width)
        b.call(gemm, [a["xh"], width, I64(1), a["off"], a["w"], I64(0), a["g"], g4, I64(0),
                      a["bias"], a["n"], k, I64(1), g4])

        def row(b, r):
            grow = _ptr(b, a["g"], b.mul(r, g4))
            orow = _ptr(b, a["out"], b.add(b.mul(r, a["son"]), b.mul(tt, a["sot"])))
            _gates(b, fn, hdim, grow, _ptr(b, a["c"], b.mul(r, hdim)), orow,
                   _ptr(b, a["xh"], b.add(b.mul(r, width), a["i"])))
        _loop(b, fn, I64(0), a["n"], I64(1), "row", row)

    _loop(b, fn, I64(0), a["t"], I64(1), "t", step)
    b.ret_void()


_FN: list = []
_FN_GEMM: dict = {}
_PROTO_XH = kernels.prototype(*[ctypes.c_void_p if x in _XPTRS else ctypes.c_int64
                                for x in _XARGS])
BATCHED = 8
"""From this many rows the recurrence runs as one product per step (build_batched)."""


def _source() -> str:
    from ember.llvm import kernel_gemm as G

    return inspect.getsource(inspect.getmodule(build)) + vmath.source() + \
        inspect.getsource(G)


def _native():
    if not _FN:
        addr, = kernels.compile_kernel("lstm", (BLOCK,), build, ["ember_lstm"], _source(),
                                       arrays=tuple(_ARGS.index(p) for p in sorted(_PTRS)))
        _FN.append(_PROTO(addr))
    return _FN[0]


def _native_batched(has_bias):
    fn = _FN_GEMM.get(has_bias)
    if fn is None:
        addr, = kernels.compile_kernel("lstm_xh", (has_bias,),
                                       lambda m: build_batched(m, has_bias),
                                       ["ember_lstm_xh"], _source(),
                                       arrays=tuple(_XARGS.index(p) for p in sorted(_XPTRS)))
        fn = _FN_GEMM[has_bias] = _PROTO_XH(addr)
    return fn


# ----------------------------------------------------------------------------- calls

class NativeLSTM:
    """tensor.lstm: the native recurrence where it covers the call, else the kernel."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, x, hx, params, has_biases, num_layers, dropout, train,
                 bidirectional, batch_first):
        if not _covered(x, params, has_biases, num_layers, bidirectional):
            kernels.count("tensor.lstm", "numpy")
            return self.kernel(x, hx, params, has_biases, num_layers, dropout, train,
                               bidirectional, batch_first)
        kernels.count("tensor.lstm", "native")
        return _lstm(x, hx, params, has_biases, num_layers, bidirectional, batch_first)


def _covered(x, params, has_biases, num_layers, bidirectional) -> bool:
    """Float32, no projection, an even hidden size, every weight of the shape its layer
    needs, at least one step and one row (anything else: the kernel, and its errors)."""
    if type(x) is not np.ndarray or x.dtype != np.float32 or x.ndim not in (2, 3) or \
            x.size == 0:
        return False
    if not isinstance(params, (list, tuple)) or len(params) < 2 or any(
            type(p) is not np.ndarray or p.dtype != np.float32 for p in params):
        return False
    dirs = 2 if bidirectional else 1
    per = 4 if has_biases else 2
    if type(num_layers) is not int or num_layers < 1 or len(params) != per * num_layers * dirs:
        return False
    hid = params[1].shape[0] // 4 if params[1].ndim == 2 else 0
    if hid == 0 or hid % 2:
        return False
    for k in range(num_layers * dirs):
        p = params[k * per:(k + 1) * per]
        width = x.shape[-1] if k < dirs else dirs * hid
        want = [(4 * hid, width), (4 * hid, hid)] + [(4 * hid,)] * (per - 2)
        if [a.shape for a in p] != want:
            return False
    return True


def _lstm(x, hx, params, has_biases, num_layers, bidirectional, batch_first):
    """ops/tensor_rnn.lstm's layer loop, each direction's recurrence native."""
    dirs = 2 if bidirectional else 1
    per, _ = R._check_params(params, has_biases, num_layers, dirs, "lstm")
    x, unbatched = R._sequence(x, batch_first)
    n = x.shape[0] if batch_first else x.shape[1]
    hid = params[1].shape[0] // 4
    h0, c0 = R._initial(hx, 2, num_layers * dirs, n, (hid, hid), x.dtype, unbatched)
    zeros = hx is None or (isinstance(hx, (list, tuple)) and not hx)  # made just now
    fixed = kernels.RECORDING[0] is not None and _frozen(params)
    hs, cs = [], []
    for layer in range(num_layers):
        steps = R._steps(x, batch_first)
        out = np.empty(((n, steps) if batch_first else (steps, n)) + (dirs * hid,), x.dtype)
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh, _ = R._layer_params(params, has_biases, k, per, False)
            weights = R._weights("lstm", (w_ih, w_hh, b_ih, b_hh), R._lstm_weights)
            h, c = _direction(x, batch_first, weights, h0[k], c0[k], out, d * hid, d == 1,
                              zeros, fixed)
            hs.append(h)
            cs.append(c)
        x = out
    return R._finish(x, unbatched, batch_first), R._stack(hs, unbatched), \
        R._stack(cs, unbatched)


_LOCAL = threading.local()
_A = kernels.array


def _offsets(k, n):
    from ember.llvm.kernel_linear import _offsets as offsets
    return offsets(k, n)


def _scratch(shape):
    """A float32 buffer of this shape private to the thread and to one call at a time
    (the projection: the recurrence reads it and nothing keeps it), reused across calls:
    a fresh one costs page faults on every call (2 MiB for the bench model at batch 32)."""
    buf = getattr(_LOCAL, "xw", None)
    size = math.prod(shape)
    if buf is None or buf.size < size:
        buf = _LOCAL.xw = np.empty(max(size, 1 << 16), np.float32)
    return buf[:size].reshape(shape)


def _projection(x, wi, b, rec=False, fixed=False):
    """x @ W_ih^T (+ bias) for every step at once: the native product from 8 rows (x's
    leading dims flattened) into a per-thread scratch buffer (while a plan records, a
    buffer of its own, and the call noted), numpy's BLAS below."""
    rows = x.reshape(-1, x.shape[-1])
    if rows.shape[0] < BATCHED:
        xw = flat_matmul(x, wi)
        if b is not None:
            xw += b
        return np.ascontiguousarray(xw, np.float32)
    from ember.llvm import kernel_gemm as G

    wi = np.ascontiguousarray(wi, np.float32)
    k, width = wi.shape
    xw = np.empty(x.shape[:-1] + (width,), np.float32) if rec else \
        _scratch(x.shape[:-1] + (width,))
    off = _offsets(k, width)
    bias = None if b is None else np.ascontiguousarray(b, np.float32)
    fn = G.native(None if b is None else "col", None, arrays=True)
    args = (_A(rows), k, 1, _A(off), _A(wi), 0, _A(xw), width, 0,
            0 if bias is None else _A(bias), rows.shape[0], k, 1, width)
    fn(*args)
    if rec:
        prepared = (wi, bias) if fixed else ()
        kernels.note(fn, args, [a for a in (rows, off, wi, bias) if a is not None], (xw,),
                     (off,) + tuple(a for a in prepared if a is not None))
    return xw


def _frozen(params) -> bool:
    from ember.ops.tensor_common import frozen

    return all(frozen(p) for p in params)


def _direction(x, batch_first, weights, h0, c0, out, col, reverse, zeros=False,
               fixed=False):
    """One direction of one layer (zeros: the initial state was made by this call;
    fixed: the weights are frozen, so what the kernels prepare from them is constant)."""
    wi, wh, b = weights
    n, hid = c0.shape
    steps = R._steps(x, batch_first)
    if n >= BATCHED:
        return _direction_batched(x, batch_first, weights, h0, c0, out, col, reverse)
    x, out_bf = np.ascontiguousarray(x), batch_first
    rec = kernels.RECORDING[0] is not None
    xw = _projection(x, wi, b, rec, fixed)
    wh = _packed(wh)
    h0 = np.ascontiguousarray(h0, np.float32)
    c = np.array(c0, np.float32, order="C")
    g = np.empty((BLOCK, 4 * hid), np.float32)
    sx, so = xw.strides, out.strides
    sxn, sxt = (sx[0], sx[1]) if batch_first else (sx[1], sx[0])
    son, sot = (so[0], so[1]) if out_bf else (so[1], so[0])
    dst = out[..., col:]  # (held: the kernel reads the view object's data pointer)
    args = (_A(xw), sxn // 4, sxt // 4, _A(wh), _A(h0), _A(dst), son // 4, sot // 4, _A(c),
            _A(g), n, steps, hid, 1 if reverse else 0)
    _native()(*args)
    if rec:
        _note_direction(args, xw, wh, h0, c, c0, g, out, dst, fixed, zeros)
    last = 0 if reverse else steps - 1
    h = (out[:, last] if out_bf else out[last])[:, col:col + hid].copy()
    return h, c


def _note_direction(args, xw, wh, h0, c, c0, g, out, dst, fixed, zeros):
    """kernels.note for the recurrence, after a noted copy of c0 into c (the kernel updates
    c in place: a plan restores it each call). A zero initial state made by the call is a
    constant; the packed weights are when the layer's weights are frozen."""
    c0 = np.asarray(c0)
    if c0.dtype != np.float32 or not c0.flags.c_contiguous:
        return
    state = (h0, c0) if zeros else ()
    copy = kernels.memcpy()
    cargs = (c.ctypes.data, c0.ctypes.data, c.nbytes)
    kernels.note(copy, cargs, (c0,), (c,), state)
    consts = (wh,) if fixed else ()
    kernels.note(_native(), args, (xw, wh, h0, c), (out, dst, c), consts + state, (g,))


_STACKED: dict = {}
_PACKED: dict = {}


def panel_widths(cols: int) -> list[int]:
    """The recurrent product's column blocks over 4H columns, in order (build's loops:
    UNITS vectors of 16, then single vectors of 16, then of 8)."""
    out, j = [], 0
    for w in (16 * UNITS, 16, 8):
        while j + w <= cols:
            out.append(w)
            j += w
    return out


def _packed(wh):
    """W_hh^T (H, 4H) as the recurrent product reads it: each column block's H x width
    panel contiguous, panels in column order (a panel at element offset j * H), so each
    block streams one contiguous run instead of H rows 16 KiB apart. Cached per weight
    (the kernel's prepared weights are the same object every call)."""
    key = id(wh)
    hit = _PACKED.get(key)
    if hit is None or hit[0] is not wh:
        if len(_PACKED) >= 64:
            _PACKED.clear()
        h, cols = wh.shape
        panels, j = [], 0
        for w in panel_widths(cols):
            panels.append(np.ascontiguousarray(wh[:, j:j + w], np.float32).ravel())
            j += w
        hit = _PACKED[key] = (wh, np.concatenate(panels))
    return hit[1]


def _stacked(wi, wh):
    """[W_ih^T; W_hh^T] (I + H, 4H), C-contiguous, cached per weight pair (the kernel's
    prepared weights are the same objects every call for a frozen model), and whether
    W_hh is finite (then a zero h0's products add nothing)."""
    key = (id(wi), id(wh))
    hit = _STACKED.get(key)
    if hit is None or hit[0] is not wi or hit[1] is not wh:
        if len(_STACKED) >= 64:
            _STACKED.clear()
        w = np.ascontiguousarray(np.concatenate([wi, wh]), np.float32)
        hit = _STACKED[key] = (wi, wh, w, bool(np.isfinite(wh).all()))
    return hit[2], hit[3]


def _direction_batched(x, batch_first, weights, h0, c0, out, col, reverse):
    wi, wh, b = weights
    n, hid = c0.shape
    steps = R._steps(x, batch_first)
    x = np.ascontiguousarray(x, np.float32)
    width = x.shape[-1] + hid
    w, finite = _stacked(wi, wh)
    xh = np.empty((n, width), np.float32)
    xh[:, x.shape[-1]:] = h0
    c = np.array(c0, np.float32, order="C")
    g = np.empty((n, 4 * hid), np.float32)
    bias = None if b is None else np.ascontiguousarray(b, np.float32)
    off = _offsets(width, 4 * hid)  # (cached: alive over the call)
    sx, so = x.strides, out.strides
    sxn, sxt = (sx[0], sx[1]) if batch_first else (sx[1], sx[0])
    son, sot = (so[0], so[1]) if batch_first else (so[1], so[0])
    dst = out[..., col:]  # (held: the kernel reads the view object's data pointer)
    _native_batched(bias is not None)(
        _A(x), sxn // 4, sxt // 4, _A(w), 0 if bias is None else _A(bias), _A(xh),
        _A(dst), son // 4, sot // 4, _A(c), _A(g), n, steps, hid, x.shape[-1],
        1 if reverse else 0, _A(off), x.shape[-1] if finite and not h0.any() else width)
    last = 0 if reverse else steps - 1
    h = (out[:, last] if batch_first else out[last])[:, col:col + hid].copy()
    return h, c
