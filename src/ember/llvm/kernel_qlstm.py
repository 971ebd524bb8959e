"""The quantized dynamic LSTM with its int8 products native (kernel_qgemm.py's dynamic
kernel): the input projection of a whole sequence in one call, the recurrent product
(activation qparams, codes, product and epilogue, plus the step's projection, the sigmoid
gates negated) in one call per step. exp and tanh stay numpy's ufuncs (native code does
not reproduce their bits); the arithmetic between them (1 / (1 + e), c = f * c + i * g)
is one native call (build_cell), IEEE operations in the numpy kernel's order, so results
are the numpy kernel's (ops/tensor_quant_dynamic.py), bit for bit. At batch 1 the whole
step loop is one native call (build_sequence) that calls numpy's own float32 exp and tanh
loops (numpy_loops.py) where they were found and checked.

`NativeQLSTM` is `tensor.quantized_lstm_dynamic` under the LLVM backend; parameters it
cannot pack (odd types, invalid scales) and inputs or states holding NaN or infinities
(the kernel's general path) run the numpy kernel from the start.
"""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
from llvmlite import ir

from ember.llvm import kernel_qgemm as Q
from ember.llvm import kernels
from ember.llvm.kernel_rnn import _loop
from ember.llvm.layout import I64, PTR
from ember.llvm.kernel_qlinear import NATIVE_OK, _all_frozen, _dyn_pack, _weight_ok
from ember.ops.tensor_quant_dynamic import _ifog, recurrent

_ND = np.ndarray
_F32 = np.dtype(np.float32)


def build_cell(module, name):
    """name(gates, c, L) of array objects: cell_core on their data."""
    core = cell_core(module, name + "_core")
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR, I64]), name)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    b.call(core, [Q._data(b, fn.args[0]), Q._data(b, fn.args[1]), fn.args[2]])
    b.ret_void()
    return fn


def cell_core(module, name):
    """name(gates, c, L): gates float32 [i | f | o | g] blocks of L values each (i, f, o
    holding exp(-x), g tanh'd), c float32 L values: the step's middle, as the numpy
    kernel's ufuncs compute it, one IEEE operation each in its order: s = 1 / (1 + e)
    for i, f, o (o stored back), then c = f32(f * c) + f32(i * g)."""
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR, I64]), name)
    gates, c, n = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    one = Q._vconst(Q.VF32, 1.0)
    zero = ir.Constant(Q.VF32, None)

    def body(b, i, mask):
        def at(block):
            return b.gep(gates, [b.add(b.mul(n, I64(block)), i)], source_etype=Q.F32)
        si, sf, so = (b.fdiv(one, b.fadd(Q.load(b, Q.VF32, at(k), mask, one), one))
                      for k in range(3))
        gg = Q.load(b, Q.VF32, at(3), mask, zero)
        cp = b.gep(c, [i], source_etype=Q.F32)
        cv = Q.load(b, Q.VF32, cp, mask, zero)
        Q.store(b, b.fadd(b.fmul(sf, cv), b.fmul(si, gg)), cp, mask)
        Q.store(b, so, at(2), mask)
    Q.stream(b, fn, n, body, "cell")
    b.ret_void()
    return fn


SEQ_ARRAYS = ["h0", "c", "out", "xw", "gates", "t1"]
"""build_sequence's array objects, float32 C-contiguous: the initial h (H), the cell
state c (H, updated in place), the output (steps, H), the input projection (steps, 4H),
scratch gates (4H) and t1 (H)."""
SEQ_FIELDS = ["whh", "steps", "hid", "reverse", "exp", "exp_data", "tanh", "tanh_data"]
"""Its int64 plan: the address of the recurrent weight's WEIGHT_FIELDS; the number of
steps, H, 1 to run the steps backwards; numpy's float32 exp and tanh loops and their data
(numpy_loops.py)."""
_LOOP_T = ir.FunctionType(ir.VoidType(), [PTR] * 4)


def build_sequence(module, name, isa):
    """name(plan) -> 0, or 1 when a step's h holds NaN or an infinity (the numpy kernel
    then runs the call from the start): every step of _rows in one native loop, numpy's
    exp and tanh called through their own loops, so the bits are the numpy kernel's."""
    product = Q.dynamic_core(module, name + "_product", isa, 127, False, True)
    cell = cell_core(module, name + "_cell")
    fn = ir.Function(module, ir.FunctionType(Q.I32, [PTR] * (1 + len(SEQ_ARRAYS))), name)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    plan = Q._data(b, fn.args[0])
    f = {k: b.load(Q._gep(b, plan, I64(8 * i)), typ=I64, align=8)
         for i, k in enumerate(SEQ_FIELDS)}
    p = {k: Q._data(b, v) for k, v in zip(SEQ_ARRAYS, fn.args[1:])}
    p["whh"] = b.inttoptr(f["whh"], PTR)
    args, dims, steps = b.alloca(PTR, 2), b.alloca(I64), b.alloca(I64, 2)
    for i in range(2):
        b.store(I64(4), b.gep(steps, [I64(i)], source_etype=I64))
    hprev = b.alloca(PTR)
    b.store(p["h0"], hprev)
    hid = f["hid"]
    fail = fn.append_basic_block("fail")

    def floats(base, count):
        return b.gep(base, [count], source_etype=Q.F32)

    def numpy_loop(b, which, src, dst, n):
        b.store(src, args)
        b.store(dst, b.gep(args, [I64(1)], source_etype=PTR))
        b.store(n, dims)
        loop = b.inttoptr(f[which], _LOOP_T.as_pointer())
        b.call(loop, [args, dims, steps, b.inttoptr(f[which + "_data"], PTR)])

    def step(b, k):
        back = b.icmp_signed("!=", f["reverse"], I64(0))
        t = b.select(back, b.sub(b.sub(f["steps"], I64(1)), k), k)
        xw_t = floats(p["xw"], b.mul(t, b.mul(hid, I64(4))))
        out_t = floats(p["out"], b.mul(t, hid))
        bad = b.call(product, [b.load(hprev, typ=PTR), p["gates"], p["whh"], I64(1), xw_t])
        ok = fn.append_basic_block("step.ok")
        b.cbranch(b.icmp_signed("!=", bad, Q.I32(0)), fail, ok)
        b.position_at_end(ok)
        gates = p["gates"]
        numpy_loop(b, "exp", gates, gates, b.mul(hid, I64(3)))
        g = floats(gates, b.mul(hid, I64(3)))
        numpy_loop(b, "tanh", g, g, hid)
        b.call(cell, [gates, p["c"], hid])
        numpy_loop(b, "tanh", p["c"], p["t1"], hid)
        o = floats(gates, b.mul(hid, I64(2)))

        def mul(b, i, mask):
            v = b.fmul(Q.load(b, Q.VF32, floats(o, i), mask, ir.Constant(Q.VF32, None)),
                       Q.load(b, Q.VF32, floats(p["t1"], i), mask, ir.Constant(Q.VF32, None)))
            Q.store(b, v, floats(out_t, i), mask)
        Q.stream(b, fn, hid, mul, "h")
        b.store(out_t, hprev)
    _loop(b, fn, I64(0), f["steps"], I64(1), "t", step)
    b.ret(Q.I32(0))
    b.position_at_end(fail)
    b.ret(Q.I32(1))
    return fn


_SEQ: list = []


def sequence_fn():
    """The compiled build_sequence (a ctypes function of the plan array), or None when
    numpy's loops could not be found and checked."""
    if not _SEQ:
        from ember.llvm import numpy_loops
        fn = None
        if numpy_loops.loops() is not None:
            src = inspect.getsource(inspect.getmodule(build_sequence)) + inspect.getsource(Q)
            key = (Q.int8_isa(),)
            addr, = kernels.compile_kernel(
                "qlstm_seq", key, lambda m: build_sequence(m, "ember_qseq", *key),
                ["ember_qseq"], src)
            fn = ctypes.CFUNCTYPE(ctypes.c_int32,
                                  *[ctypes.py_object] * (1 + len(SEQ_ARRAYS)))(addr)
        _SEQ.append(fn)
    return _SEQ[0]


_CELL: list = []


def cell_fn():
    """The compiled build_cell (a ctypes function of three arguments)."""
    if not _CELL:
        src = inspect.getsource(inspect.getmodule(build_cell)) + inspect.getsource(Q)
        addr, = kernels.compile_kernel("qlstm_cell", (), lambda m: build_cell(m, "ember_cell"),
                                       ["ember_cell"], src)
        _CELL.append(ctypes.CFUNCTYPE(None, ctypes.py_object, ctypes.py_object,
                                      ctypes.c_int64)(addr))
    return _CELL[0]


class _General(Exception):
    """A value the native path leaves to the numpy kernel's general path."""


def _pack_layer(w_ih, s_ih, b_ih, w_hh, s_hh, b_hh):
    """(ih Packed, None, hh Packed, None) with the gates in the numpy kernel's (i, f, o, g)
    order and each bias inside its Packed, or None when the numpy kernel must judge."""
    out = []
    for w, s, b, neg in ((w_ih, s_ih, b_ih, 0), (w_hh, s_hh, b_hh, 3 * w_hh.shape[1])):
        if not _weight_ok(w) or not isinstance(s, (_ND, float)):
            return None
        order = _ifog(w.shape[0])
        s = np.asarray(s, np.float32).reshape(-1)
        if s.size == w.shape[0]:
            s = s[order]
        if b is not None:
            if not (type(b) is _ND and b.shape == (w.shape[0],)):
                return None
            b = np.ascontiguousarray(np.asarray(b, np.float32)[order])
        p = _dyn_pack(np.ascontiguousarray(w[order]), s, b, neg)
        if p is None:
            return None
        out += [p, None]
    return tuple(out) if out[0].n == out[2].n == 4 * w_hh.shape[1] else None


class NativeQLSTM:
    """tensor.quantized_lstm_dynamic with native products."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.cache: dict = {}
        self.fn = self.fn_a = self.fn_t = self.cell = self.seq = self.loops = None

    def __call__(self, x, hx, params, num_layers, bidirectional, batch_first):
        count = num_layers * (2 if bidirectional else 1)
        layers = self._layers(params, count) if NATIVE_OK and type(x) is _ND and \
            x.dtype is _F32 else None
        if layers is not None:
            if self.fn is None:
                self.fn, self.fn_a = Q.dynamic_fn(127), Q.dynamic_fn(127, False, True)
                self.fn_t = Q.dynamic_fn(127, True, True)
                self.cell = cell_fn()
                self.seq = sequence_fn()
                from ember.llvm.numpy_loops import loops
                self.loops = loops()
            y = self._single(x, layers, hx, batch_first) if count == 1 else None
            if y is not None:
                kernels.count("tensor.quantized_lstm_dynamic", "native")
                return y
            try:
                y = recurrent("lstm", x, hx, params, num_layers, bidirectional, batch_first,
                              (lambda p, c: layers, self._direction))
            except _General:
                pass
            else:
                kernels.count("tensor.quantized_lstm_dynamic", "native")
                return y
        kernels.count("tensor.quantized_lstm_dynamic", "numpy")
        return self.kernel(x, hx, params, num_layers, bidirectional, batch_first)

    def _single(self, x, layers, hx, batch_first):
        """One layer, one direction, one sample: _rows and _sequence without
        recurrent()'s general bookkeeping (the same calls, the same bits); None when the
        call is another or a kernel declines (the general path then judges)."""
        if self.seq is None or x.ndim not in (2, 3) or \
                (x.ndim == 3 and x.shape[0 if batch_first else 1] != 1):
            return None
        wih, _, whh, _ = layers[0]
        steps, hid = x.shape[-3 + batch_first] if x.ndim == 3 else x.shape[0], whh.n // 4
        if steps == 0 or x.shape[-1] != wih.k or whh.k != hid:
            return None
        state = (1, hid) if x.ndim == 2 else (1, 1, hid)
        if hx and (len(hx) != 2 or any(type(s) is not _ND or s.dtype is not _F32 or
                                       s.shape != state for s in hx)):
            return None
        xw = np.empty((steps, 1, 4 * hid), np.float32)
        if self.fn(np.ascontiguousarray(x.reshape(steps, wih.k)), xw.reshape(steps, -1),
                   wih.fields):
            return None
        if hx:  # copies: the states are the caller's
            h, c = (np.array(s.reshape(1, hid)) for s in hx)
        else:
            h, c = np.zeros((1, hid), np.float32), np.zeros((1, hid), np.float32)
        out = np.empty((steps, 1, hid), np.float32)
        gates, t1 = np.empty((1, 4 * hid), np.float32), np.empty((1, hid), np.float32)
        try:
            self._sequence(h, c, out, xw, gates, t1, whh, False)
        except _General:
            return None
        if x.ndim == 2:
            return out.reshape(steps, hid), out[-1].copy(), c
        return (out.reshape(1, steps, hid) if batch_first else out,
                out[-1].reshape(1, 1, hid).copy(), c.reshape(1, 1, hid))

    def _layers(self, params, count):
        if len(params) != 6 * count:
            return None
        layers = []
        for k in range(count):
            group = tuple(params[6 * k:6 * k + 6])
            key = tuple(map(id, group))
            hit = self.cache.get(key)
            if hit is not None and all(a is b for a, b in zip(hit[0], group)):
                layer = hit[1]
            else:
                layer = _pack_layer(*group)
                if _all_frozen(*group):
                    if len(self.cache) >= 64:
                        self.cache.clear()
                    self.cache[key] = (group, layer)
            if layer is None:
                return None
            layers.append(layer)
        return layers

    def _direction(self, x, layer, h, c, out, reverse):
        """One direction of one layer, in the numpy kernel's layout (rows for one sample,
        columns for batches: elementwise, the same values either way)."""
        if x.shape[1] > 1:
            return self._columns(x, layer, h, c, out, reverse)
        return self._rows(x, layer, h, c, out, reverse)

    def _rows(self, x, layer, h, c, out, reverse):
        """ops.tensor_quant_dynamic._qlstm_rows (one sample) with the two products and
        the cell's middle (build_cell) native."""
        wih, _, whh, _ = layer
        steps, n = x.shape[0], x.shape[1]
        hid = h.shape[-1]
        fn = self.fn
        if n == 0:
            raise _General
        xw = np.empty((steps * n, 4 * hid), np.float32)
        if steps and fn(np.ascontiguousarray(x.reshape(steps * n, -1)), xw, wih.fields):
            raise _General
        xw = xw.reshape(steps, n, 4 * hid)
        gates = np.empty((n, 4 * hid), np.float32)  # one row: the four gate blocks
        sig, g, o = gates[:, :3 * hid], gates[:, 3 * hid:], gates[:, 2 * hid:3 * hid]
        c = np.array(c, np.float32)
        h = np.ascontiguousarray(h, np.float32)
        t1 = np.empty((n, hid), np.float32)
        if self.seq is not None and n == 1:
            return self._sequence(h, c, out, xw, gates, t1, whh, reverse)
        mul, tanh, cell = np.multiply, np.tanh, self.cell
        for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
            # gates = hh + ih (as the kernel adds), the sigmoid gates negated (1 / (1 +
            # exp(-x))): by the product
            if self.fn_a(h, gates, whh.fields, xw[t]):
                raise _General
            np.exp(sig, sig)
            tanh(g, g)
            cell(gates, c, hid)  # sigmoids' 1 / (1 + e), c = f * c + i * g
            tanh(c, t1)
            h = mul(o, t1, out[t])
        return h, c

    def _sequence(self, h, c, out, xw, gates, t1, whh, reverse):
        """The loop of _rows as one native call (build_sequence): the same bits."""
        steps, hid = out.shape[0], h.shape[-1]
        loops = self.loops
        plan = np.array([whh.fields.ctypes.data, steps, hid, 1 if reverse else 0,
                         loops["exp"][0], loops["exp"][1] or 0, loops["tanh"][0],
                         loops["tanh"][1] or 0], np.int64)
        if self.seq(plan, h, c, out, xw, gates, t1):
            raise _General
        return (out[0] if reverse else out[-1]) if steps else h, c

    def _columns(self, x, layer, h, c, out, reverse):
        """ops.tensor_quant_dynamic._qlstm_columns with the two products native: the input
        projection as rows, the recurrent product adding the step's projection and storing
        the gates transposed (as columns)."""
        wih, _, whh, _ = layer
        steps, n = x.shape[0], x.shape[1]
        hid = h.shape[-1]
        fn = self.fn_t
        xw = np.empty((steps * n, 4 * hid), np.float32)
        if steps and self.fn(np.ascontiguousarray(x.reshape(steps * n, -1)), xw, wih.fields):
            raise _General
        xw = xw.reshape(steps, n, 4 * hid)
        gates = np.empty((4 * hid, n), np.float32)
        sig, g, o = gates[:3 * hid], gates[3 * hid:], gates[2 * hid:3 * hid]
        h_rows = np.ascontiguousarray(h, np.float32)
        h_t = np.empty((hid, n), np.float32)
        c_t = np.array(np.asarray(c, np.float32).T, order="C")
        t1 = np.empty((hid, n), np.float32)
        mul, tanh, cell = np.multiply, np.tanh, self.cell
        for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
            if fn(h_rows, gates, whh.fields, xw[t]):  # as in _rows
                raise _General
            np.exp(sig, sig)
            tanh(g, g)
            cell(gates, c_t, hid * n)  # as in _rows
            tanh(c_t, t1)
            mul(o, t1, h_t)
            out[t] = h_t.T
            h_rows = out[t]
        return (out[0] if reverse else out[-1]) if steps else h, c_t.T
