"""Quantized linear (dynamic and static) through the native int8 product (kernel_qgemm.py).

`NativeQLinearDynamic` is `tensor.quantized_linear_dynamic` and `NativeQLinear`
`tensor.quantized_linear` under the LLVM backend. Each packs its weight once (frozen
weights: an artifact's or a scripted module's constants) and runs a call whose input is
a C-contiguous array of the right dtype natively; everything else (NaN or infinite
inputs of the dynamic product, invalid scales, unfrozen operands of unusual types) runs
the numpy kernel, which also raises the errors. Both paths give the same bits.
"""

from __future__ import annotations

import ctypes

import numpy as np

from ember.llvm import kernel_qgemm as Q
from ember.llvm import kernels
from ember.llvm.kernels import COUNTS
from ember.ops.tensor_common import frozen

_ND = np.ndarray
_F32, _U8, _I8 = np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.int8)
MAX_K = 65536
"""Longest dot product whose int32 sum cannot overflow (65536 * 255 * 128 < 2**31)."""


def _offset_ok() -> bool:
    """True when numpy arrays keep their data pointer, number of dimensions and shape
    where the kernels read them."""
    a = np.empty((3, 5, 7), np.float32)
    dims = ctypes.c_void_p.from_address(id(a) + Q.DIMS_OFFSET).value
    return ctypes.c_void_p.from_address(id(a) + Q.DATA_OFFSET).value == a.ctypes.data and \
        ctypes.c_int.from_address(id(a) + Q.ND_OFFSET).value == 3 and dims is not None and \
        list((ctypes.c_int64 * 3).from_address(dims)) == [3, 5, 7]


NATIVE_OK = _offset_ok()
_TWINS: dict = {}


def note(fn, args, reads, writes, consts=()) -> None:
    """kernels.note (a whole-function plan is recording: llvm/graph.py) for a kernel
    whose array parameters are numpy array objects (ctypes.py_object): noted as the same
    code address typed with c_void_p, each object passed as its address, which a plan
    replays (the kernel reads the data pointer and shape from the object it is given);
    a kernel returning c_int32 may decline a call, which the plan checks (llvm/graph.py).
    consts: arrays derived from frozen weights that the plan must keep (packed weights
    and the arrays their fields point to)."""
    twin = _TWINS.get(id(fn))
    if twin is None or twin[0] is not fn:
        types = [ctypes.c_void_p if t is ctypes.py_object else t for t in fn.argtypes]
        addr = ctypes.cast(fn, ctypes.c_void_p).value
        twin = _TWINS[id(fn)] = (fn, ctypes.CFUNCTYPE(fn.restype, *types)(addr))
    kernels.note(twin[1], [id(a) if t is ctypes.py_object else a
                           for t, a in zip(fn.argtypes, args)], reads, writes, consts)


class Packed:
    """A weight (N, K) packed for the rows product, with its padded per-column arrays a
    and b; `fields` its kernel_qgemm.WEIGHT_FIELDS (`zps`: the static product's zero
    points and lowest code)."""

    __slots__ = ("n", "k", "keep", "fields", "a", "b")

    def __init__(self, w, a=None, b=None, zps=(0, 0, 0), neg=0):
        n, k = w.shape
        nb, kq = -(-n // 16), -(-k // 4)
        full = np.zeros((nb * 16, kq * 4), np.int8)
        full[:n, :k] = w
        wp = np.ascontiguousarray(full.reshape(nb, 16, kq, 4).transpose(0, 2, 1, 3))
        cs = np.zeros(nb * 16, np.int32)
        cs[:n] = w.astype(np.int32).sum(axis=1)
        self.n, self.k = n, k
        self.a, self.b = _pad(a, nb), _pad(b, nb)
        self.fields = np.array([k, n] + [0 if v is None else v.ctypes.data
                                         for v in (wp, cs, self.a, self.b)] + list(zps)
                               + [neg],
                               np.int64)
        self.keep = (wp, cs)


def _pad(v, nb):
    if v is None:
        return None
    out = np.zeros(nb * 16, np.float32)
    out[:v.shape[0]] = v
    return out


class _Cache:
    """Packed weights of frozen operands, by the weight's identity and the float
    arguments they depend on (hits[key] = (weight, scales, bias, Packed or None));
    unfrozen operands are packed every call."""

    def __init__(self):
        self.hits: dict = {}

    def get(self, w, w_scale, bias, extra, build):
        key = (id(w),) + extra
        hit = self.hits.get(key)
        if hit is not None and hit[0] is w and hit[1] is w_scale and hit[2] is bias:
            return hit[3]
        packed = build()
        if _all_frozen(w, w_scale, bias):
            if len(self.hits) >= 256:
                self.hits.clear()
            self.hits[key] = (w, w_scale, bias, packed)
        return packed


def _all_frozen(*arrays) -> bool:
    """True when every array is None or frozen (nothing can change its values)."""
    return all(a is None or (type(a) is _ND and frozen(a)) for a in arrays)


def _weight_ok(w) -> bool:
    return type(w) is _ND and w.dtype is _I8 and w.ndim == 2 and 0 < w.shape[1] <= MAX_K \
        and w.shape[0] > 0


# ----------------------------------------------------------------------------- dynamic


def _dyn_pack(w, w_scale, bias, neg=0):
    """Packed (a: weight scales per column, b: bias or zeros), or None when the numpy
    kernel must judge the call (bad scales, odd bias)."""
    n = w.shape[0]
    s = np.asarray(w_scale, np.float32).reshape(-1)
    if s.size not in (1, n) or not np.all(np.isfinite(s)) or not np.all(s > 0):
        return None
    if bias is None:
        b = np.zeros(n, np.float32)
    elif type(bias) is _ND and bias.dtype is _F32 and bias.shape == (n,):
        b = bias
    else:
        return None
    return Packed(w, np.broadcast_to(s, (n,)), b, neg=neg)


class NativeQLinearDynamic:
    """tensor.quantized_linear_dynamic (with `relu`: tensor.quantized_linear_dynamic_relu)
    natively where it covers the call (the first lines: a cached weight's fast path)."""

    def __init__(self, kernel, relu=False):
        self.kernel, self.relu = kernel, relu
        self.name = "tensor.quantized_linear_dynamic" + ("_relu" if relu else "")
        self.native = (self.name, "native")
        self.cache = _Cache()
        self.fns: dict = {}
        self.fast: dict = {}
        """id(w) -> (w, w_scale, bias, k, n, kernel without / with reduce_range, Packed)
        of frozen operands: the fast path of 2-d inputs."""

    def __call__(self, x, w, w_scale, bias, reduce_range):
        hit = self.fast.get(id(w))
        if hit is not None and hit[0] is w and hit[1] is w_scale and hit[2] is bias and \
                type(x) is _ND and x.dtype is _F32 and x.ndim == 2 and x.shape[1] == hit[3] \
                and x.shape[0] and x.flags.c_contiguous:
            out = np.empty((x.shape[0], hit[4]), _F32)
            fn = hit[6 if reduce_range else 5]
            if not fn(x, out, hit[7].fields):
                COUNTS[self.native] = COUNTS.get(self.native, 0) + 1
                if kernels.RECORDING[0] is not None:
                    _note_dynamic(fn, x, out, hit[7])
                return out
        return self._general(x, w, w_scale, bias, reduce_range)

    def _fn(self, reduce_range):
        fn = self.fns.get(bool(reduce_range))
        if fn is None:
            fn = self.fns[bool(reduce_range)] = Q.dynamic_fn(127 if reduce_range else 255,
                                                             relu=self.relu)
        return fn

    def _general(self, x, w, w_scale, bias, reduce_range):
        if type(x) is _ND and x.dtype is _F32 and x.ndim and _weight_ok(w) and \
                x.shape[-1] == w.shape[1] and x.size and x.flags.c_contiguous and NATIVE_OK:
            p = self.cache.get(w, w_scale, bias, (), lambda: _dyn_pack(w, w_scale, bias))
            if p is not None:
                out = np.empty(x.shape[:-1] + (p.n,), np.float32)
                fn = self._fn(reduce_range)
                if not fn(x, out, p.fields):
                    kernels.count(self.name, "native")
                    self._remember(w, w_scale, bias, p)
                    if kernels.RECORDING[0] is not None:
                        _note_dynamic(fn, x, out, p)
                    return out
                kernels.decline()  # NaN or infinities: the numpy kernel's general path
        kernels.count(self.name, "numpy")
        return self.kernel(x, w, w_scale, bias, reduce_range)

    def _remember(self, w, w_scale, bias, p):
        if id(w) not in self.fast and _all_frozen(w, w_scale, bias):
            if len(self.fast) >= 256:
                self.fast.clear()
            self.fast[id(w)] = (w, w_scale, bias, p.k, p.n, self._fn(False), self._fn(True),
                                p)


def _note_dynamic(fn, x, out, p):
    """Note a dynamic product that ran (for a plan: llvm/graph.py); on other inputs of the
    shape it may decline (NaN or infinities), which the plan checks."""
    note(fn, (x, out, p.fields), (x, p.fields), (out,),
         (p.fields,) + p.keep + tuple(v for v in (p.a, p.b) if v is not None))


_STATIC_NATIVE = ("tensor.quantized_linear", "native")


# ----------------------------------------------------------------------------- static


def static_consts(s_in, w_scale, bias, s_out, o):
    """(bterm or None, M) of the static requantization, float32 per output channel, or
    None when one is not finite (the numpy kernel then decides)."""
    from ember.ops.tensor_quant import _channel_scales, _requant_consts
    ws = _channel_scales(w_scale, o)
    if ws.shape != (o,):
        return None
    if bias is not None and not (type(bias) is _ND and bias.dtype is _F32 and
                                 bias.size == o):
        return None
    bterm, m = _requant_consts(s_in, ws, bias, s_out)
    if not np.all(np.isfinite(m)) or (bterm is not None and not np.all(np.isfinite(bterm))):
        return None
    return bterm, m


def _static_pack(w, w_scale, bias, s_in, s_out, zps):
    consts = static_consts(s_in, w_scale, bias, s_out, w.shape[0])
    if consts is None:
        return None
    return Packed(w, consts[1], consts[0], zps)


class NativeQLinear:
    """tensor.quantized_linear (static) natively where it covers the call."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.cache = _Cache()
        self.fns: dict = {}
        self.last: dict = {}
        """id(w) -> (w, w_scale, bias, the other arguments, kernel, Packed): the fast path
        of frozen operands called with the same arguments again."""

    def __call__(self, q, s_in, zp_in, w, w_scale, bias, s_out, zp_out, relu):
        hit = self.last.get(id(w))
        if hit is not None and hit[0] is w and hit[1] is w_scale and hit[2] is bias and \
                type(q) is _ND and q.dtype is _U8 and q.ndim == 2 and \
                q.shape[1] == hit[5].k and q.shape[0] and q.flags.c_contiguous and \
                hit[3] == (s_in, zp_in, s_out, zp_out, relu):
            out = np.empty((q.shape[0], hit[5].n), _U8)
            hit[4](q, out, hit[5].fields)
            COUNTS[_STATIC_NATIVE] = COUNTS.get(_STATIC_NATIVE, 0) + 1
            if kernels.RECORDING[0] is not None:
                _note_static(hit[4], q, out, hit[5])
            return out
        return self._general(q, s_in, zp_in, w, w_scale, bias, s_out, zp_out, relu)

    def _general(self, q, s_in, zp_in, w, w_scale, bias, s_out, zp_out, relu):
        if NATIVE_OK and type(q) is _ND and q.dtype is _U8 and q.flags.c_contiguous and \
                _weight_ok(w) and q.ndim >= 1 and q.shape[-1] == w.shape[1] and q.size and \
                isinstance(w_scale, _ND):
            zps = (int(zp_in), int(zp_out), int(zp_out) if relu else 0)
            p = self.cache.get(w, w_scale, bias, (float(s_in), float(s_out)) + zps,
                               lambda: _static_pack(w, w_scale, bias, s_in, s_out, zps))
            if p is not None:
                fn = self.fns.get(p.b is not None) or self._compile(p.b is not None)
                out = np.empty(q.shape[:-1] + (p.n,), np.uint8)
                fn(q, out, p.fields)
                kernels.count("tensor.quantized_linear", "native")
                if kernels.RECORDING[0] is not None:
                    _note_static(fn, q, out, p)
                if _all_frozen(w, w_scale, bias):
                    if len(self.last) >= 256:
                        self.last.clear()
                    self.last[id(w)] = (w, w_scale, bias, (s_in, zp_in, s_out, zp_out, relu),
                                        fn, p)
                return out
        kernels.count("tensor.quantized_linear", "numpy")
        return self.kernel(q, s_in, zp_in, w, w_scale, bias, s_out, zp_out, relu)

    def _compile(self, with_bias):
        fn = self.fns[with_bias] = Q.static_fn(with_bias)
        return fn


def _note_static(fn, q, out, p):
    note(fn, (q, out, p.fields), (q, p.fields), (out,),
         (p.fields,) + p.keep + tuple(v for v in (p.a, p.b) if v is not None))
