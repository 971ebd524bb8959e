"""A float32 matrix product with a bias + activation epilogue, as native register tiles.

numpy's BLAS (OpenBLAS) runs its AVX2 kernels on this machine's AVX-512 CPU; this kernel
runs <16 x float> tiles of 8 rows x 48 columns (24 accumulators) with explicit FMAs,
and reads its right operand through a row-offset table, so that a stride-1 convolution
is the same product with no im2col copy (kernel_conv.py):

    C[m*scm + i*sci + j] = act(init + sum_k A[m*sam + k*sak] * B[off[k] + i*sbi + j] + bias)

for m < M, k < K, i < NI, j < NJ; `init` is 0 or C's own value (`accumulate`: the LSTM
adds the recurrent product to the step's input projection), `bias` per row m, per column
j, or none, `act` none or relu (numpy's: NaN stays NaN). The sum runs over k in order
from `init`, one FMA per term; BLAS sums in its own order, so results differ from the
VM's by float32 rounding of a K-term sum (tests: within 1e-5 of the sum of |a * b|).

Loops: panels of PANEL rows, output rows i, column blocks, row tiles of 8, 4 and 1 rows;
column blocks of 48, 32, 16 and a masked tail of fewer than 16 (masked loads and stores
never touch memory outside the operands). Measured on this machine (Zen 5, one thread):
236-245 GFLOP/s on 32x128x512 and 1024x64x512, against a 272 GFLOP/s FMA peak and
numpy's OpenBLAS at about 100.
"""

from __future__ import annotations

import ctypes
import inspect

from llvmlite import ir

from ember.llvm import kernels
from ember.llvm.fused import F32, epilogue
from ember.llvm.kernel_rnn import _loop, _ptr, _splat
from ember.llvm.layout import I64, PTR

V16 = ir.VectorType(F32, 16)
MASK = ir.VectorType(ir.IntType(1), 16)
I32 = ir.IntType(32)
ARGS = ["a", "sam", "sak", "off", "b", "sbi", "c", "scm", "sci", "bias", "m", "k", "ni", "nj"]
PTRS = {"a", "off", "b", "c", "bias"}
PROTO = kernels.prototype(*[ctypes.c_void_p if x in PTRS else ctypes.c_int64 for x in ARGS])
ROWS = (8, 4, 1)
"""Row tiles, largest first."""
PANEL = 64
"""Rows of A per panel: each right-operand column block is reused over a panel's rows
from L1, and a panel of A stays in L1 / L2 over all column blocks."""


def fn_type():
    return ir.FunctionType(ir.VoidType(), [PTR if x in PTRS else I64 for x in ARGS])


def _intr(m, name, ret, args):
    f = m.globals.get(name)
    return f if f is not None else ir.Function(m, ir.FunctionType(ret, args), name)


class _Vec:
    """Vector loads and stores, masked when `mask` is given."""

    def __init__(self, b, mask):
        self.b, self.mask = b, mask
        m = b.module
        if mask is not None:
            self.mload = _intr(m, "llvm.masked.load.v16f32.p0", V16, [PTR, I32, MASK, V16])
            self.mstore = _intr(m, "llvm.masked.store.v16f32.p0", ir.VoidType(),
                                [V16, PTR, I32, MASK])

    def load(self, p):
        if self.mask is None:
            return self.b.load(p, typ=V16, align=4)
        return self.b.call(self.mload, [p, I32(4), self.mask, ir.Constant(V16, None)])

    def store(self, v, p):
        if self.mask is None:
            self.b.store(v, p, align=4)
        else:
            self.b.call(self.mstore, [v, p, I32(4), self.mask])


def _relu(b, v):
    zero = ir.Constant(V16, None)
    pos = b.select(b.fcmp_ordered(">", v, zero), v, zero)
    return b.select(b.fcmp_unordered("uno", v, v), v, pos)


def act_source() -> str:
    from ember.llvm.fused import epilogue_source
    return epilogue_source()


def _tile(b, fn, a, rows, nv, mask, m0, j, brow, crow, opts):
    """One rows x (16 * nv) tile of C at rows m0.., columns j.. of output row i."""
    bias_kind, act, accumulate = opts
    vec = _Vec(b, mask)
    arow = [_ptr(b, a["a"], b.mul(b.add(m0, I64(r)), a["sam"])) for r in range(rows)]
    cp = [[_ptr(b, crow, b.add(b.mul(b.add(m0, I64(r)), a["scm"]), b.add(j, I64(16 * v))))
           for v in range(nv)] for r in range(rows)]
    bp = _ptr(b, brow, j)
    zero = ir.Constant(V16, None)
    init = [[vec.load(cp[r][v]) if accumulate else zero for v in range(nv)]
            for r in range(rows)]
    head, body, done = (fn.append_basic_block(f"k{rows}x{nv}.{s}") for s in "hbd")
    pre = b.block
    b.branch(head)
    b.position_at_end(head)
    k = b.phi(I64)
    k.add_incoming(I64(0), pre)
    acc = [[b.phi(V16) for _ in range(nv)] for _ in range(rows)]
    for r in range(rows):
        for v in range(nv):
            acc[r][v].add_incoming(init[r][v], pre)
    b.cbranch(b.icmp_signed("<", k, a["k"]), body, done)
    b.position_at_end(body)
    off = b.load(b.gep(a["off"], [k], source_etype=I64), typ=I64)
    bk = _ptr(b, bp, off)
    bv = [vec.load(_ptr(b, bk, I64(16 * v))) for v in range(nv)]
    fma = _intr(b.module, "llvm.fma.v16f32", V16, [V16] * 3)
    ak = b.mul(k, a["sak"])
    for r in range(rows):
        av = _splat(b, b.load(_ptr(b, arow[r], ak), typ=F32), V16)
        for v in range(nv):
            acc[r][v].add_incoming(b.call(fma, [av, bv[v], acc[r][v]]), body)
    k.add_incoming(b.add(k, I64(1)), body)
    b.branch(head)
    b.position_at_end(done)
    for r in range(rows):
        for v in range(nv):
            x = acc[r][v]
            if bias_kind == "row":
                x = b.fadd(x, _splat(b, b.load(_ptr(b, a["bias"], b.add(m0, I64(r))),
                                               typ=F32), V16))
            elif bias_kind == "col":
                x = b.fadd(x, vec.load(_ptr(b, a["bias"], b.add(j, I64(16 * v)))))
            vec.store(epilogue(b, x, act), cp[r][v])


def _rows(b, fn, a, nv, mask, j, brow, crow, opts, panel):
    """Every row tile of the panel (first row, end) for columns j .. j + 16 * nv (or the
    masked tail)."""
    m0, end = panel
    for rows in ROWS:
        last = b.add(b.sub(end, I64(rows)), I64(1))  # m0 + rows <= end
        m0 = _loop(b, fn, m0, last, I64(rows), f"m{rows}",
                   lambda b, m: _tile(b, fn, a, rows, nv, mask, m, j, brow, crow, opts))


def build(module, name, opts) -> ir.Function:
    """`name(ARGS…)`: the product for one (bias kind, activation, accumulate)."""
    fn = ir.Function(module, fn_type(), name)
    a = dict(zip(ARGS, fn.args))
    b = ir.IRBuilder(fn.append_basic_block("entry"))

    def row(b, i, panel):
        brow = _ptr(b, a["b"], b.mul(i, a["sbi"]))
        crow = _ptr(b, a["c"], b.mul(i, a["sci"]))
        j = I64(0)
        for nv in (3, 2, 1):
            last = b.add(b.sub(a["nj"], I64(16 * nv)), I64(1))
            j = _loop(b, fn, j, last, I64(16 * nv), f"j{nv}",
                      lambda b, jj: _rows(b, fn, a, nv, None, jj, brow, crow, opts, panel))
        rem = b.sub(a["nj"], j)
        tail, after = fn.append_basic_block("tail"), fn.append_basic_block("after")
        b.cbranch(b.icmp_signed(">", rem, I64(0)), tail, after)
        b.position_at_end(tail)
        lanes = ir.Constant(ir.VectorType(I64, 16), list(range(16)))
        mask = b.icmp_signed("<", lanes, _splat(b, rem, ir.VectorType(I64, 16)))
        _rows(b, fn, a, 1, mask, j, brow, crow, opts, panel)
        b.branch(after)
        b.position_at_end(after)

    def panel(b, p):
        end = b.add(p, I64(PANEL))
        end = b.select(b.icmp_signed("<", end, a["m"]), end, a["m"])
        _loop(b, fn, I64(0), a["ni"], I64(1), "i", lambda b, i: row(b, i, (p, end)))

    _loop(b, fn, I64(0), a["m"], I64(PANEL), "p", panel)
    b.ret_void()
    return fn


_FN: dict = {}


def native(bias_kind: str | None, act: str | None, accumulate: bool = False,
           arrays: bool = False):
    """The compiled product (a ctypes function of ARGS) for these epilogue options;
    arrays=True: a, off, b, c and bias are passed as `kernels.array(v)` (bias 0 if none)."""
    opts = (bias_kind, act, accumulate, arrays)
    fn = _FN.get(opts)
    if fn is None:
        src = inspect.getsource(inspect.getmodule(build)) + act_source()
        addr, = kernels.compile_kernel(
            "gemm", opts[:3], lambda m: build(m, "ember_gemm", opts[:3]), ["ember_gemm"], src,
            arrays=tuple(ARGS.index(x) for x in ("a", "off", "b", "c", "bias")) if arrays
            else ())
        fn = _FN[opts] = PROTO(addr)
    return fn
