"""The quantized dynamic LSTM with its int8 products native (kernel_qgemm.py's dynamic
kernel): the input projection of a whole sequence in one call, the recurrent product
(activation qparams, codes, product and epilogue, plus the step's projection, the sigmoid
gates negated) in one call per step. exp and tanh stay numpy's ufuncs (native code does
not reproduce their bits); the arithmetic between them (1 / (1 + e), c = f * c + i * g)
is one native call (build_cell), IEEE operations in the numpy kernel's order, so results
are the numpy kernel's (ops/tensor_quant_dynamic.py), bit for bit.

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
from ember.llvm.layout import I64, PTR
from ember.llvm.kernel_qlinear import NATIVE_OK, _all_frozen, _dyn_pack, _weight_ok
from ember.ops.tensor_quant_dynamic import _ifog, recurrent

_ND = np.ndarray
_F32 = np.dtype(np.float32)


def build_cell(module, name):
    """name(gates, c, L): gates float32 [i | f | o | g] blocks of L values each (i, f, o
    holding exp(-x), g tanh'd), c float32 L values (array objects): the step's middle,
    as the numpy kernel's ufuncs compute it, one IEEE operation each in its order:
    s = 1 / (1 + e) for i, f, o (o stored back), then c = f32(f * c) + f32(i * g)."""
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR, I64]), name)
    go, co, n = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    gates, c = Q._data(b, go), Q._data(b, co)
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
        self.fn = self.fn_a = self.fn_t = self.cell = None

    def __call__(self, x, hx, params, num_layers, bidirectional, batch_first):
        count = num_layers * (2 if bidirectional else 1)
        layers = self._layers(params, count) if NATIVE_OK and type(x) is _ND and \
            x.dtype is _F32 else None
        if layers is not None:
            if self.fn is None:
                self.fn, self.fn_a = Q.dynamic_fn(127), Q.dynamic_fn(127, False, True)
                self.fn_t = Q.dynamic_fn(127, True, True)
                self.cell = cell_fn()
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
