"""One row times a matrix (a GEMV) with a bias + activation epilogue, natively.

    y[j] = act(sum_k x[k] * W[j, k] + bias[j])      for j < N   (W is (N, K), as torch's)

Two forms, by shape (`native` picks):

* columns (`build`, N >= DOT_BELOW): W^T (K, N) C-contiguous (a linear layer's cached
  transposed weight); column blocks of 8, 4, 2 and 1 `<16 x float>` vectors, then a
  masked tail: per k one broadcast of x[k] and one FMA per vector (eight independent
  accumulators cover the FMA latency); the weight streams row by row. The sum runs over
  k in order from +0.0, one FMA per term, then the bias, then relu (NaN stays NaN): the
  operations of kernel_gemm's one-row tile, so a row gets the same bits either way.
* dots (`build_dot`, few outputs, e.g. a classifier head): W itself, four outputs at a
  time, each a dot product over k in 16-lane vectors with two partial sums (k blocks of
  32, a masked tail), reduced in lane order at the end; so a long K does not run one FMA
  chain per output. The sum order differs from k order (as BLAS's does).
"""

from __future__ import annotations

import ctypes
import inspect

from llvmlite import ir

from ember.llvm import kernels
from ember.llvm.fused import F32, epilogue
from ember.llvm.kernel_gemm import MASK, V16, _Vec, act_source
from ember.llvm.kernel_rnn import _loop, _ptr, _splat
from ember.llvm.layout import I64, PTR

ARGS = ["x", "w", "bias", "y", "k", "n"]
PTRS = {"x", "w", "bias", "y"}
PROTO = kernels.prototype(*[ctypes.c_void_p if a in PTRS else ctypes.c_int64 for a in ARGS])
BLOCKS = (8, 4, 2, 1)
"""Vectors per column block, largest first."""


def _block(b, fn, a, nv, mask, j, has_bias, act):
    vec = _Vec(b, mask)
    zero = ir.Constant(V16, None)
    head, body, done = (fn.append_basic_block(f"gv{nv}{'m' * (mask is not None)}.{s}")
                        for s in "hbd")
    pre = b.block
    b.branch(head)
    b.position_at_end(head)
    k = b.phi(I64)
    k.add_incoming(I64(0), pre)
    acc = [b.phi(V16) for _ in range(nv)]
    for v in acc:
        v.add_incoming(zero, pre)
    b.cbranch(b.icmp_signed("<", k, a["k"]), body, done)
    b.position_at_end(body)
    xk = _splat(b, b.load(_ptr(b, a["x"], k), typ=F32), V16)
    wk = _ptr(b, a["w"], b.add(b.mul(k, a["n"]), j))
    fma = b.module.globals.get("llvm.fma.v16f32") or ir.Function(
        b.module, ir.FunctionType(V16, [V16] * 3), "llvm.fma.v16f32")
    for u in range(nv):
        acc[u].add_incoming(b.call(fma, [xk, vec.load(_ptr(b, wk, I64(16 * u))), acc[u]]),
                            body)
    k.add_incoming(b.add(k, I64(1)), body)
    b.branch(head)
    b.position_at_end(done)
    for u in range(nv):
        x = acc[u]
        col = b.add(j, I64(16 * u))
        if has_bias:
            x = b.fadd(x, vec.load(_ptr(b, a["bias"], col)))
        vec.store(epilogue(b, x, act), _ptr(b, a["y"], col))


def build(module, name, has_bias: bool, act) -> ir.Function:
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [
        PTR if x in PTRS else I64 for x in ARGS]), name)
    a = dict(zip(ARGS, fn.args))
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    j = I64(0)
    for nv in BLOCKS:
        last = b.add(b.sub(a["n"], I64(16 * nv)), I64(1))
        j = _loop(b, fn, j, last, I64(16 * nv), f"j{nv}",
                  lambda b, jj: _block(b, fn, a, nv, None, jj, has_bias, act))
    rem = b.sub(a["n"], j)
    tail, after = fn.append_basic_block("tail"), fn.append_basic_block("after")
    b.cbranch(b.icmp_signed(">", rem, I64(0)), tail, after)
    b.position_at_end(tail)
    lanes = ir.Constant(ir.VectorType(I64, 16), list(range(16)))
    mask = b.icmp_signed("<", lanes, _splat(b, rem, ir.VectorType(I64, 16)))
    assert mask.type == MASK
    _block(b, fn, a, 1, mask, j, has_bias, act)
    b.branch(after)
    b.position_at_end(after)
    b.ret_void()
    return fn


def _dot_rows(b, fn, a, rows, j):
    """Outputs j .. j + rows - 1 as dot products of W's rows with x."""
    zero = ir.Constant(V16, None)
    fma = b.module.globals.get("llvm.fma.v16f32") or ir.Function(
        b.module, ir.FunctionType(V16, [V16] * 3), "llvm.fma.v16f32")
    wrow = [_ptr(b, a["w"], b.mul(b.add(j, I64(r)), a["k"])) for r in range(rows)]
    kend = b.mul(b.sdiv(a["k"], I64(32)), I64(32))
    head, body, done = (fn.append_basic_block(f"d{rows}.{s}") for s in "hbd")
    pre = b.block
    b.branch(head)
    b.position_at_end(head)
    k = b.phi(I64)
    k.add_incoming(I64(0), pre)
    acc = [[b.phi(V16) for _ in range(2)] for _ in range(rows)]
    for r in range(rows):
        for h in range(2):
            acc[r][h].add_incoming(zero, pre)
    b.cbranch(b.icmp_signed("<", k, kend), body, done)
    b.position_at_end(body)
    xv = [b.load(_ptr(b, a["x"], b.add(k, I64(16 * h))), typ=V16, align=4) for h in range(2)]
    for r in range(rows):
        for h in range(2):
            wv = b.load(_ptr(b, wrow[r], b.add(k, I64(16 * h))), typ=V16, align=4)
            acc[r][h].add_incoming(b.call(fma, [wv, xv[h], acc[r][h]]), body)
    k.add_incoming(b.add(k, I64(32)), body)
    b.branch(head)
    b.position_at_end(done)
    sums = [b.fadd(acc[r][0], acc[r][1]) for r in range(rows)]
    # the k tail (< 32 columns) in up to two masked vectors
    lanes = ir.Constant(ir.VectorType(I64, 16), list(range(16)))
    vec = None
    for h in range(2):
        start = b.add(kend, I64(16 * h))
        rem = b.sub(a["k"], start)
        mask = b.icmp_signed("<", lanes, _splat(b, rem, ir.VectorType(I64, 16)))
        vec = _Vec(b, mask)
        xv = vec.load(_ptr(b, a["x"], start))
        for r in range(rows):
            sums[r] = b.call(fma, [vec.load(_ptr(b, wrow[r], start)), xv, sums[r]])
    red = b.module.globals.get("llvm.vector.reduce.fadd.v16f32") or ir.Function(
        b.module, ir.FunctionType(F32, [F32, V16]), "llvm.vector.reduce.fadd.v16f32")
    for r in range(rows):
        y = b.call(red, [ir.Constant(F32, 0.0), sums[r]])
        col = b.add(j, I64(r))
        if a["has_bias"]:
            y = b.fadd(y, b.load(_ptr(b, a["bias"], col), typ=F32))
        b.store(epilogue(b, y, a["act"]), _ptr(b, a["y"], col))
    del vec


def build_dot(module, name, has_bias: bool, act) -> ir.Function:
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [
        PTR if x in PTRS else I64 for x in ARGS]), name)
    a = dict(zip(ARGS, fn.args), has_bias=has_bias, act=act)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    four = b.mul(b.sdiv(a["n"], I64(4)), I64(4))
    _loop(b, fn, I64(0), four, I64(4), "j4", lambda b, j: _dot_rows(b, fn, a, 4, j))
    _loop(b, fn, four, a["n"], I64(1), "j1", lambda b, j: _dot_rows(b, fn, a, 1, j))
    b.ret_void()
    return fn


DOT_BELOW = 64
"""Fewer outputs than this take the dot-product form."""
_FN: dict = {}


def native(has_bias: bool, act: str | None, dot: bool = False):
    """The compiled GEMV for these epilogue options: a ctypes function of ARGS whose
    arrays are passed as `kernels.array(a)` (bias: 0 when absent); `w` is W^T (K, N), or
    W (N, K) itself for the dot form."""
    opts = (has_bias, act, dot)
    fn = _FN.get(opts)
    if fn is None:
        src = inspect.getsource(inspect.getmodule(build)) + act_source()
        maker = build_dot if dot else build
        addr, = kernels.compile_kernel("gemv", opts,
                                       lambda m: maker(m, "ember_gemv", has_bias, act),
                                       ["ember_gemv"], src, arrays=(0, 1, 2, 3))
        fn = _FN[opts] = PROTO(addr)
    return fn
