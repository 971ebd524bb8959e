"""Self-attention natively: tensor.multi_head_attention without masks.

`NativeMHA` is `tensor.multi_head_attention` under the LLVM backend. A call it covers —
float32, self-attention (query is key is value) of (L, N, E) or (L, E) whose elements
are contiguous (rows and sequences any whole number of floats apart: a batch-first
input's transpose is read in place), packed in_proj weights of torch's shapes, no masks,
no dropout, need_weights False — runs each sequence as native products (kernel_gemm.py)
and a native softmax, the output written into its rows of the (L, N, O) result:

    qkv = x @ [W_q * s; W_k; W_v]^T + [b_q * s; b_k; b_v]     (s = 1 / sqrt(head dim))
    per head h:  scores_h = q_h @ k_h^T      (k transposed once for all heads)
    softmax over each row of every head's scores (`build_softmax`)
    per head h:  ctx[:, h] = attn_h @ v_h     (written into the rows the projection reads)
    out = ctx @ W_o^T + b_o

The weights are rearranged once per weight set (cached by identity for frozen weights,
as the kernel's own one-sequence path caches its rearranged copy) and q is scaled through
them, as the numpy kernel does. Every other call runs the numpy kernel, which raises its
errors. Accuracy: the products sum in k order with FMAs and softmax shifts each row by
its own max, x - max exact in double and its exp rounded once, the row sum in double (within
2 ulp of the correctly rounded softmax, measured); the numpy kernel's
BLAS order, global shift and float32 sums round differently (tests: within 1e-5 of its
output on unit-scale inputs).
"""

from __future__ import annotations

import ctypes
import inspect
import math

import numpy as np
from llvmlite import ir

from ember.llvm import kernel_gemm as G
from ember.llvm import kernels, vmath
from ember.llvm.kernel_rnn import _loop, _ptr
from ember.llvm.layout import I64, PTR
from ember.llvm.vmath import F32, F64, exp_f64

_ND = np.ndarray
_F32 = np.dtype(np.float32)
_A = kernels.array
_SM_ARGS = ["x", "rows", "n"]
_SM_PROTO = kernels.prototype(ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)


def build_softmax(module) -> None:
    """`ember_softmax(x, rows, n)`: each of `rows` contiguous rows of n floats replaced by
    its softmax: the row's max (NaN-propagating through the exp), exp(x - max) with the
    difference exact in double and the exp (vmath.exp_f64) rounded once to float32 (in a
    loop of its own, which the host's vectors run), their sum in double, each divided by
    the float32 sum: within 2 ulp of the correctly rounded softmax."""
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, I64, I64]), "ember_softmax")
    x, rows, n = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    slot, acc = b.alloca(F32), b.alloca(F64)  # (in the entry block: promoted to registers)

    def row(b, r):
        xr = _ptr(b, x, b.mul(r, n))
        b.store(ir.Constant(F32, float("-inf")), slot)

        def mx(b, j):
            v = b.load(_ptr(b, xr, j), typ=F32)
            m = b.load(slot, typ=F32)
            b.store(b.select(b.fcmp_ordered(">", v, m), v, m), slot)
        _loop(b, fn, I64(0), n, I64(1), "mx", mx)
        m = b.load(slot, typ=F32)
        b.store(ir.Constant(F64, 0.0), acc)

        md = b.fpext(m, F64)

        def ex(b, j):  # no loop-carried value: vectorized for the host
            p = _ptr(b, xr, j)  # x - max exact in double, its exp rounded once
            d = b.fsub(b.fpext(b.load(p, typ=F32), F64), md)
            e = b.select(b.fcmp_unordered("uno", d, d), d, exp_f64(b, d))
            b.store(b.fptrunc(e, F32), p)
        _loop(b, fn, I64(0), n, I64(1), "ex", ex)

        def add(b, j):
            e = b.load(_ptr(b, xr, j), typ=F32)
            b.store(b.fadd(b.load(acc, typ=F64), b.fpext(e, F64)), acc)
        _loop(b, fn, I64(0), n, I64(1), "sm", add)
        tot = b.fptrunc(b.load(acc, typ=F64), F32)

        def div(b, j):
            p = _ptr(b, xr, j)
            b.store(b.fdiv(b.load(p, typ=F32), tot), p)
        _loop(b, fn, I64(0), n, I64(1), "dv", div)
    _loop(b, fn, I64(0), rows, I64(1), "r", row)
    b.ret_void()


_SOFTMAX: list = []


def softmax_rows(x: np.ndarray) -> None:
    """Softmax over the last dim of a float32 C-contiguous x, in place."""
    if not _SOFTMAX:
        src = inspect.getsource(build_softmax) + vmath.source()
        addr, = kernels.compile_kernel("softmax", (), build_softmax, ["ember_softmax"], src,
                                       arrays=(0,))
        _SOFTMAX.append(_SM_PROTO(addr))
    n = x.shape[-1]
    _SOFTMAX[0](_A(x), x.size // n, n)


class NativeSoftmax:
    """tensor.softmax over the last dim of a float32 C-contiguous tensor (no dtype): a
    copy of x (libc's memcpy) turned into its softmax in place by `softmax_rows`, both
    noted for plans; every other call runs the kernel. Rows shift by their own max where
    the kernel shifts by the global one: results differ within a few ulp."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, x, dim, dtype=None):
        if dtype is not None or type(x) is not _ND or x.dtype is not _F32 or x.ndim == 0 \
                or x.size == 0 or not x.flags.c_contiguous or not x.flags.aligned or \
                type(dim) is not int or dim not in (-1, x.ndim - 1):
            kernels.count("tensor.softmax", "numpy")
            return self.kernel(x, dim, dtype)
        kernels.count("tensor.softmax", "native")
        out = np.empty(x.shape, _F32)
        copy = kernels.memcpy()
        cargs = (out.ctypes.data, x.ctypes.data, x.nbytes)
        copy(*cargs)
        n = x.shape[-1]
        softmax_rows(out)
        if kernels.RECORDING[0] is not None:
            kernels.note(copy, cargs, (x,), (out,))
            kernels.note(_SOFTMAX[0], (_A(out), x.size // n, n), (out,), (out,))
        return out

    def why_numpy(self, x, dim, dtype=None) -> str:
        return "not the last dim of a float32 C-contiguous tensor (or a dtype given): " + \
            kernels_describe((x,))


_WEIGHTS: dict = {}


def _weights(w, b, ow, ob, heads):
    """(W_in^T with q scaled, its bias, W_o^T, b_o): contiguous float32, cached by the
    weights' identity when they are frozen (the kernel's cache condition)."""
    from ember.ops.tensor_common import frozen

    key = (id(w), id(b), id(ow), id(ob), heads)
    hit = _WEIGHTS.get(key)
    if hit is not None and all(p is q for p, q in zip(hit[0], (w, b, ow, ob))):
        return hit[1]
    e = w.shape[1]
    scale = np.float32(1.0 / math.sqrt(e // heads))
    win = np.array(w, np.float32)
    win[:e] *= scale
    bias = None
    if b is not None:
        bias = np.array(b, np.float32)
        bias[:e] *= scale
    prepared = (np.ascontiguousarray(win.T), bias, np.ascontiguousarray(ow.T),
                None if ob is None else np.ascontiguousarray(ob))
    if all(a is None or frozen(a) for a in (w, b, ow, ob)):
        if len(_WEIGHTS) >= 64:
            _WEIGHTS.clear()
        _WEIGHTS[key] = ((w, b, ow, ob), prepared)
    return prepared


def _offsets(k, n):
    from ember.llvm.kernel_linear import _offsets as offsets
    return offsets(k, n)


def _gemm(bias_kind):
    return G.native(bias_kind, None, arrays=True)


_HEADS_ARGS = ["a", "sam", "off", "b", "c", "scm", "m", "k", "nj", "heads", "sa", "sb", "sc"]
_HEADS_PTRS = ("a", "off", "b", "c")
_HEADS_PROTO = kernels.prototype(*[ctypes.c_void_p if x in _HEADS_PTRS else ctypes.c_int64
                                   for x in _HEADS_ARGS])


def build_heads(module) -> None:
    """`ember_heads(…)`: for each head h, the product C_h = A_h @ B_h (kernel_gemm, no
    bias) with A_h = a + h * sa, B_h = b + h * sb, C_h = c + h * sc (floats): one call for
    every head."""
    gemm = G.build(module, "ember_heads_gemm", (None, None, False))
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [
        PTR if x in _HEADS_PTRS else I64 for x in _HEADS_ARGS]), "ember_heads")
    a = dict(zip(_HEADS_ARGS, fn.args))
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    null = ir.Constant(PTR, None)

    def head(b, h):
        b.call(gemm, [_ptr(b, a["a"], b.mul(h, a["sa"])), a["sam"], I64(1), a["off"],
                      _ptr(b, a["b"], b.mul(h, a["sb"])), I64(0),
                      _ptr(b, a["c"], b.mul(h, a["sc"])), a["scm"], I64(0), null,
                      a["m"], a["k"], I64(1), a["nj"]])
    _loop(b, fn, I64(0), a["heads"], I64(1), "h", head)
    b.ret_void()


_HEADS: list = []


def _heads():
    if not _HEADS:
        src = inspect.getsource(build_heads) + inspect.getsource(G) + G.act_source()
        addr, = kernels.compile_kernel(
            "heads", (), build_heads, ["ember_heads"], src,
            arrays=tuple(_HEADS_ARGS.index(x) for x in _HEADS_PTRS))
        _HEADS.append(_HEADS_PROTO(addr))
    return _HEADS[0]


_TR_PROTO = kernels.prototype(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
                              ctypes.c_int64, ctypes.c_int64)


def build_transpose(module) -> None:
    """`ember_transpose(src, dst, rows, cols, ld)`: dst (cols, rows) = the (rows, cols)
    block of src whose rows lie ld floats apart, transposed."""
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR, I64, I64, I64]),
                     "ember_transpose")
    src, dst, rows, cols, ld = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))

    def row(b, i):
        def col(b, j):
            v = b.load(_ptr(b, src, b.add(b.mul(i, ld), j)), typ=F32)
            b.store(v, _ptr(b, dst, b.add(b.mul(j, rows), i)))
        _loop(b, fn, I64(0), cols, I64(1), "c", col)
    _loop(b, fn, I64(0), rows, I64(1), "r", row)
    b.ret_void()


_TRANSPOSE: list = []


def _transpose():
    if not _TRANSPOSE:
        addr, = kernels.compile_kernel("transpose", (), build_transpose, ["ember_transpose"],
                                       inspect.getsource(build_transpose))
        _TRANSPOSE.append(_TR_PROTO(addr))
    return _TRANSPOSE[0]


def attend(x, heads, w, b, ow, ob, out=None):
    """The output (L, O) of self-attention over x (L, E), natively, into `out` if given
    (x's and out's rows may lie apart: one sequence of a batch; each native call noted for
    a plan, llvm/graph.py: the prepared weights are constants when frozen)."""
    length, e = x.shape
    hd = e // heads
    prepared = _weights(w, b, ow, ob, heads)
    wt, bt, wot, obt = prepared
    rec = kernels.RECORDING[0] is not None
    consts = _consts(prepared, (w, b, ow, ob)) if rec else ()
    qkv = np.empty((length, 3 * e), np.float32)
    off_e = _offsets(e, 3 * e)
    _call(rec, _gemm(None if bt is None else "col"), (
        _A(x), x.strides[0] // 4, 1, _A(off_e), _A(wt), 0, _A(qkv), 3 * e, 0,
        0 if bt is None else _A(bt), length, e, 1, 3 * e), (x, off_e, wt, bt), (qkv,),
        consts + (off_e,))
    kt = np.empty((e, length), np.float32)  # (E, L): row h*hd + d is k_h[:, d]
    _call(rec, _transpose(), (qkv.ctypes.data + 4 * e, kt.ctypes.data, length, e, 3 * e),
          (qkv,), (kt,))
    scores = np.empty((heads, length, length), np.float32)
    ctx = np.empty((length, e), np.float32)
    per_head = _heads()
    off_l = _offsets(hd, length)
    off_v = _offsets(length, 3 * e)
    _call(rec, per_head, (_A(qkv), 3 * e, _A(off_l), _A(kt), _A(scores), length, length, hd,
                          length, heads, hd, hd * length, length * length),
          (qkv, off_l, kt), (scores,), (off_l,))
    softmax_rows(scores)
    if rec:
        kernels.note(_SOFTMAX[0], (_A(scores), scores.size // length, length), (scores,),
                     (scores,))
    v = qkv[:, 2 * e:]  # a view, held over the call
    _call(rec, per_head, (_A(scores), length, _A(off_v), _A(v), _A(ctx), e, length, length,
                          hd, heads, length * length, hd, hd),
          (scores, off_v, v), (ctx,), (off_v,))
    o = wot.shape[1]
    if out is None:
        out = np.empty((length, o), np.float32)
    off_o = _offsets(e, o)
    _call(rec, _gemm(None if obt is None else "col"), (
        _A(ctx), e, 1, _A(off_o), _A(wot), 0, _A(out), out.strides[0] // 4, 0,
        0 if obt is None else _A(obt), length, e, 1, o), (ctx, off_o, wot, obt),
        (out,) if out.base is None else (out, out.base), consts + (off_o,))
    return out


def _call(rec, fn, args, reads, writes, consts=()):
    fn(*args)
    if rec:
        kernels.note(fn, args, [a for a in reads if a is not None], writes, consts)


def _consts(prepared, weights) -> tuple:
    """The prepared weights, constants of a plan when the weights are frozen."""
    from ember.ops.tensor_common import frozen

    if all(a is None or frozen(a) for a in weights):
        return tuple(a for a in prepared if a is not None)
    return ()


def _rows(q) -> bool:
    """q's (L, [N,] E) elements contiguous and aligned, its rows and sequences apart by
    whole floats: each sequence q[:, n] is a product operand as it lies."""
    return q.flags.aligned and q.strides[-1] == 4 and all(s % 4 == 0 and s >= 0
                                                           for s in q.strides[:-1])


def _f32(*arrays) -> bool:
    return all(a is None or (type(a) is _ND and a.dtype is _F32) for a in arrays)


def covered(query, key, value, embed_dim, num_heads, w, b, bias_k, bias_v, add_zero_attn,
            dropout_p, ow, ob, training, key_padding_mask, need_weights, attn_mask,
            separate, qw, kw, vw, static_k, static_v, average, is_causal) -> bool:
    if not (query is key and key is value) or type(query) is not _ND or \
            query.dtype is not _F32 or query.ndim not in (2, 3) or not _rows(query):
        return False
    e = query.shape[-1]
    if need_weights is not False or attn_mask is not None or key_padding_mask is not None \
            or is_causal is not False or separate is not False or add_zero_attn is not False \
            or bias_k is not None or bias_v is not None or static_k is not None \
            or static_v is not None or (training is not False and dropout_p != 0.0):
        return False
    if type(num_heads) is not int or num_heads <= 0 or e == 0 or e % num_heads or \
            embed_dim != e or query.shape[0] == 0:
        return False
    if not _f32(w, b, ow, ob) or w is None or w.shape != (3 * e, e) or \
            (b is not None and b.shape != (3 * e,)) or ow.ndim != 2 or ow.shape[1] != e or \
            (ob is not None and ob.shape != ow.shape[:1]):
        return False
    return True


class NativeMHA:
    """tensor.multi_head_attention: `attend` where `covered`, else the kernel."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, *args):
        if len(args) != 25 or not covered(*args):
            kernels.count("tensor.multi_head_attention", "numpy")
            return self.kernel(*args)
        kernels.count("tensor.multi_head_attention", "native")
        query, heads, w, b, ow, ob = args[0], args[4], args[5], args[6], args[11], args[12]
        if query.ndim == 2:
            return attend(query, heads, w, b, ow, ob), None
        length, n, _ = query.shape
        if query.strides[1] > query.strides[0]:  # a batch-first input's transpose: the
            # output lies batch-first too, so transposing it back gives contiguous rows
            out = np.empty((n, length, ow.shape[0]), np.float32).transpose(1, 0, 2)
        else:
            out = np.empty((length, n, ow.shape[0]), np.float32)
        for i in range(n):  # (views held over each call: the kernels read their data)
            q, o = query[:, i], out[:, i]
            attend(q, heads, w, b, ow, ob, o)
        return out, None

    def why_numpy(self, *args) -> str:
        return ("outside the native self-attention (no masks, need_weights False, "
                "float32 packed weights, contiguous elements): " +
                kernels_describe(args[:3]))


def kernels_describe(args) -> str:
    from ember.llvm.report import describe_args
    return describe_args(args)
