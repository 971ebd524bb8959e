"""Dynamic int8 products (torch.ao's quantize_dynamic, fbgemm): linear, LSTM and GRU, in
the semantics of docs/quantization.md, bit for bit.

Written for the lite runtime's cost model, where every numpy call costs about a
microsecond whatever its size: per weight, everything that depends on it alone (the
float32 copy of the codes, their extreme, the checked scales, the LSTM's gate order) is
made once for a frozen weight; per call, the activation takes two reductions and six
passes (to float64, x 1/scale, + zero point, rounded to float32, rint, - zero point), the
product one float32 GEMM, the output four (to float64, x multiplier, + bias, rounded to
float32); numpy's casting copies beat its casting ufunc loops at every size measured.
Clamping the codes is skipped when the extremes' codes prove it a no-op
(quantization is monotonic). Inputs holding NaN or infinities take the general path
(`_linear_general`).
"""

from __future__ import annotations

import math
import struct

import numpy as np

from ember.ops.tensor_activation import relu
from ember.ops.tensor_common import frozen, prepared, reg
from ember.ops.tensor_quant import (_F32, _SMALL_SCALE, _code_of, _f32, _prep,
                                    _qrange, _scale_value, _tensor_scale, choose_qparams,
                                    int_matmul)
from ember.ops.quant_nonfinite import nonfinite_product
from ember.ops.tensorinfo import TensorInfo

_MIN, _MAX = np.minimum.reduce, np.maximum.reduce
_F64 = np.float64
_SAME = "same_kind"
_EXACT = 1 << 24


# ----------------------------------------------------------------------------- per weight


class DynWeight:
    """An int8 weight (N, K) ready for dynamic products: `wt` its codes as a float32 (K, N)
    matrix, `wmax` max |code|, `scale` a float (per tensor) or float32 (N,) array."""

    __slots__ = ("wt", "wmax", "scale", "n")

    def __init__(self, wt, wmax, scale):
        self.wt, self.wmax, self.scale, self.n = wt, wmax, scale, wt.shape[1]


def _build(w, w_scale, order=None):
    """DynWeight of codes w (N, K) and scales (a float, one or N of them); `order`
    permutes the output rows (the LSTM's gates)."""
    scale = w_scale if isinstance(w_scale, float) else _scale_value(w_scale)
    if order is not None:
        w = w[order]
        if not isinstance(scale, float):
            scale = np.ascontiguousarray(scale[order])
    wt, wmax = _prep(w)
    if not isinstance(scale, float) and scale.shape[0] != w.shape[0]:
        raise RuntimeError(f"quantized linear: {scale.shape[0]} weight scales for "
                           f"{w.shape[0]} output rows")
    return DynWeight(wt, wmax, scale)


_CACHE: dict = {}


def dyn_weight(w, w_scale):
    """The DynWeight of (w, w_scale), made once while both are frozen arrays (an artifact's
    weights) and every call otherwise."""
    key = (id(w), id(w_scale))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is w and hit[1] is w_scale:
        return hit[2]  # frozen arrays stay frozen: the entry cannot be stale
    if isinstance(w_scale, float):
        return prepared("qdyn", (w,), lambda w: _build(w, w_scale)) if frozen(w) else \
            _build(w, w_scale)
    if not (frozen(w) and frozen(w_scale)):
        return _build(w, w_scale)
    if len(_CACHE) >= 256:
        _CACHE.clear()
    dw = _build(w, w_scale)
    _CACHE[key] = (w, w_scale, dw)
    return dw


# ----------------------------------------------------------------------------- per call


def act_codes(rows, reduce_range=True):
    """The activation rows (M, K) float32 quantized as dynamic linear does (one min/max over
    all of them): (centred codes as float32, scale, max |centred code|), or None when rows
    are empty or hold NaN or infinities (the general path's business)."""
    if rows.size == 0:
        return None
    mn, mx = float(_MIN(rows, axis=None)), float(_MAX(rows, axis=None))
    if not (math.isfinite(mn) and math.isfinite(mx)):
        return None
    s_x, z = choose_qparams(mn, mx, 0, 127 if reduce_range else 255)
    inv = _f32(1.0 / s_x)
    lo, hi = _code_of(mn, inv, z), _code_of(mx, inv, z)
    t = rows.astype(_F64)  # (numpy's casting copy beats a casting ufunc loop)
    np.multiply(t, inv, out=t)  # exact: two float32 factors
    np.add(t, z, out=t)
    c = t.astype(np.float32)  # f32(x * inv + zp), rounded once
    np.rint(c, out=c)
    if lo < 0 or hi > 255:
        np.clip(c, 0, 255, out=c)
        lo, hi = min(max(lo, 0), 255), min(max(hi, 0), 255)
    if z:
        np.subtract(c, _F32(z), out=c)
    return c, s_x, max(z - lo, hi - z)


_CHUNK = 1 << 15
"""Outputs per pass group of a large product (an LSTM's input projection over the whole
sequence): its float64 temporaries stay in cache and below the size glibc serves with a
fresh mmap per allocation, whose page faults cost more than the passes themselves (the
batch-32 bench LSTM: 11.3 -> 5.0 ms)."""


def dyn_product(codes, dw, bias, out):
    """out (M, N) float32 = f32(f32(acc) * f32(s_x * s_w) + bias), acc the exact product of
    the centred codes (act_codes' triple) by dw's codes."""
    c, s_x, amax = codes
    step = max(_CHUNK // max(dw.n, 1), 1)
    if c.shape[0] > step:
        for i in range(0, c.shape[0], step):
            dyn_product((c[i:i + step], s_x, amax), dw, bias, out[i:i + step])
        return out
    if c.shape[1] * amax * dw.wmax <= _EXACT:  # every partial sum exact in float32
        acc = np.matmul(c, dw.wt)
    else:  # summed in float64 over exact blocks: f32(acc) first
        acc = int_matmul(c, dw.wt, amax, dw.wmax).astype(np.float32)
    if isinstance(dw.scale, float):
        m = _F64(_f32(s_x * dw.scale))
    else:
        m = np.multiply(_F32(s_x), dw.scale, dtype=np.float32).astype(_F64)
    y = acc.astype(_F64)
    np.multiply(y, m, out=y)  # exact: a float32 integer by a float32
    if bias is not None:
        np.add(y, bias, out=y)
    np.copyto(out, y, casting=_SAME)  # rounded once
    return out


def linear_dynamic(x, w, w_scale, bias, reduce_range=True):
    """torch.ao's quantized dynamic linear (fbgemm): x float32 (..., K), w int8 codes (N, K)
    with w_scale a float (per tensor) or a float32 (N,) array (per channel), zero point 0;
    bias float32 (N,) or None. The activation is quantized per call to quint8 [0, 127]."""
    if reduce_range and type(x) is _ND and (x.dtype is _F32D or x.dtype == _F32D) and \
            x.ndim == 2 and x.shape[0]:
        fast = _fast_of(w, w_scale, bias)
        if fast is not None and x.shape[1] == fast.k:
            y = fast.run(x)
            if y is not None:
                return y
    x = np.asarray(x, np.float32)
    if x.shape[-1] != w.shape[1]:
        raise RuntimeError(f"quantized linear: input with {x.shape[-1]} features, weight "
                           f"expects {w.shape[1]}")
    dw = dyn_weight(w, w_scale)
    rows = x.reshape(-1, x.shape[-1])
    codes = act_codes(rows, reduce_range)
    if codes is None:
        y = _linear_general(rows, dw, bias, reduce_range)
    else:
        y = dyn_product(codes, dw, bias, np.empty((rows.shape[0], dw.n), np.float32))
    return y.reshape(x.shape[:-1] + (dw.n,))


# ----------------------------------------------------------------------------- fast path

_ND = np.ndarray
_F32D = np.dtype(np.float32)
_INF = math.inf
try:
    from numpy._core.umath import clip as _CLIP
except ImportError:  # numpy < 2
    from numpy.core.umath import clip as _CLIP
"""_CLIP: the ufunc np.clip calls for two float bounds (tensor.relu's kernel)."""
_pack, _unpack = struct.Struct("<f").pack, struct.Struct("<f").unpack
_SMALL = float(_SMALL_SCALE)
_ROWS = 1 << 12
"""Rows per pass group of the fast path (its float64 temporaries stay small)."""


class _Fast:
    """A frozen dynamic linear's constants for 2-d float32 inputs with reduce_range (the
    lite runtime's usual call): everything but the activation's qparams is made once, and
    a call is two reductions, the qparams in Python floats and the passes of act_codes /
    dyn_product with no per-call checks. `exact`: every product of codes in [0, 128]
    centred at any zero point by these weights sums exactly in float32 (129 * the largest
    column sum of |w| is within 2^24; a tighter bound than K * max|w|), else None."""

    __slots__ = ("w", "ws", "b", "k", "n", "wt", "sw", "b64")

    def __init__(self, w, w_scale, bias, dw):
        self.w, self.ws, self.b = w, w_scale, bias
        self.k, self.n, self.wt = w.shape[1], dw.n, dw.wt
        self.sw = dw.scale  # a float, or float32 (N,) per channel
        self.b64 = None if bias is None else np.asarray(bias, np.float64)

    def run(self, x):
        """The product of x (M, K) float32, M > 0, or None when x holds NaN or infinities
        or its qparams are an unusual case (tiny range): the general path's business."""
        if x.shape[0] > _ROWS:
            return None
        y = fast_y64(x, self.wt, self.sw, self.b64)
        return None if y is None else y.astype(_F32D)  # rounded once


def fast_y64(x, wt, sw, b64, cols=False):
    """The dynamic product of x (M, K) float32 (M > 0) by the float32 codes wt (K, N) (a
    _Fast's: every product exact) before its rounding to float32: acc * f32(s_x * s_w) +
    bias in float64; None for inputs with NaN or infinities or a range below fbgemm's
    smallest scale (the general path's business). The qparams are choose_qparams(mn, mx,
    0, 127)'s for such inputs, in Python floats; the passes are act_codes' and
    dyn_product's with nothing checked per call. `cols`: x is (K, M) and the result the
    transposed product (N, M), as dyn_product_cols (b64 then a column (N, 1))."""
    mn = float(_MIN(x, axis=None))
    mx = float(_MAX(x, axis=None))
    if not (-_INF < mn and mx < _INF):  # NaN fails both
        return None
    lo = mn if mn < 0.0 else 0.0
    hi = mx if mx > 0.0 else 0.0
    scale = (hi - lo) / 127
    if scale < _SMALL:
        return None
    s_x = _unpack(_pack(scale))[0]
    dmin, dmax = lo / scale, hi / scale
    zp = -dmin if -abs(dmin) < 127 - abs(dmax) else 127 - dmax
    z = 0 if zp < 0 else 127 if zp > 127 else int(round(zp))
    inv = _unpack(_pack(1.0 / s_x))[0]
    t = x.astype(_F64)
    t *= inv  # exact: two float32 factors
    if z:
        t += z
    c = t.astype(_F32D)  # f32(x * inv + zp), rounded once
    np.rint(c, c)
    if mn < 0.0 and round(_unpack(_pack(mn * inv + z))[0]) < 0:
        np.maximum(c, _F32(0.0), c)  # codes >= 0 (at most 128: reduce_range)
    if z:
        c -= _F32(z)
    y = (np.matmul(wt.T, c) if cols else np.matmul(c, wt)).astype(_F64)
    if type(sw) is float:
        y *= _unpack(_pack(s_x * sw))[0]  # exact: a float32 integer by a float32
    else:
        m = np.multiply(_F32(s_x), sw, dtype=np.float32).astype(_F64)
        y *= m[:, None] if cols else m
    if b64 is not None:
        y += b64
    return y


_FAST: dict = {}


def _fast_of(w, w_scale, bias):
    """The _Fast of frozen operands (made on their first call), or None."""
    hit = _FAST.get(id(w))
    if hit is not None:
        if hit.w is w and hit.ws is w_scale and hit.b is bias:
            return hit
        if hit.w is w:
            return None  # the same weight with other operands: the general path
    if not (type(w) is _ND and w.dtype == np.int8 and w.ndim == 2 and w.shape[1] and
            type(w_scale) is _ND and (bias is None or (type(bias) is _ND and
                                                        bias.dtype == _F32D))
            and frozen(w) and frozen(w_scale) and (bias is None or frozen(bias))):
        return None
    dw = dyn_weight(w, w_scale)  # (checks the scales)
    if bias is not None and bias.shape != (dw.n,):
        return None
    if 129 * _column_l1(w) > _EXACT:
        return None
    if len(_FAST) >= 256:
        _FAST.clear()
    fast = _FAST[id(w)] = _Fast(w, w_scale, bias, dw)
    return fast


def _column_l1(w):
    """The largest sum of |codes| over one output row of w (N, K)."""
    return int(np.abs(w.astype(np.int32)).sum(axis=1).max()) if w.size else 0


def _linear_general(rows, dw, bias, reduce_range):
    """The dynamic product of any rows: empty (zeros and the bias, as torch), or holding NaN
    or infinities (quant_nonfinite)."""
    if rows.size:
        return nonfinite_product(rows, dw.wt, dw.scale, bias, reduce_range)
    lo, hi = _qrange("quint8", reduce_range)
    s_x, z_x = choose_qparams(0.0, 0.0, lo, hi)
    c = np.zeros(rows.shape, np.float32)
    return dyn_product((c, s_x, 255), dw, bias, np.empty((rows.shape[0], dw.n), np.float32))


def _linear_dynamic_op(x, w, w_scale, bias, reduce_range):
    """torch.ao's quantized dynamic linear; weight_scale has one element or one per row."""
    return linear_dynamic(x, w, w_scale, bias, reduce_range)


def _linear_dynamic_relu_op(x, w, w_scale, bias, reduce_range):
    """relu(quantized dynamic linear): tensor.relu's own kernel on the product (on the fast
    path the ufunc np.clip calls, without its wrapper), so the bits are those of the two
    ops (passes/quantize.py fold_relu makes it)."""
    if reduce_range and type(x) is _ND and (x.dtype is _F32D or x.dtype == _F32D) and \
            x.ndim == 2 and x.shape[0]:
        fast = _fast_of(w, w_scale, bias)
        if fast is not None and x.shape[1] == fast.k:
            y = fast.run(x)
            if y is not None:
                return _CLIP(y, 0.0, _INF, out=y)
    return relu(linear_dynamic(x, w, w_scale, bias, reduce_range), True)


# ----------------------------------------------------------------------------- dynamic RNNs


def _rnn_layers(params, count):
    if len(params) != 6 * count:
        raise RuntimeError(f"quantized dynamic RNN: expected {count} groups of 6 parameters "
                           f"(w_ih, s_ih, b_ih, w_hh, s_hh, b_hh), got {len(params)}")
    return [params[6 * k:6 * k + 6] for k in range(count)]


def _ifog(n):
    """Row order taking torch's LSTM gates (i, f, g, o) to (i, f, o, g): the three sigmoid
    gates side by side (a permutation of output rows changes no value)."""
    h = n // 4
    return np.r_[0:2 * h, 3 * h:4 * h, 2 * h:3 * h]


def _lstm_layer(w_ih, s_ih, b_ih, w_hh, s_hh, b_hh):
    order = _ifog(w_ih.shape[0])
    bias = [None if b is None else np.ascontiguousarray(np.asarray(b, np.float32)[order])
            for b in (b_ih, b_hh)]
    return (_build(w_ih, _tensor_scale(s_ih), order), bias[0],
            _build(w_hh, _tensor_scale(s_hh), order), bias[1])


def lstm_layer(p):
    """One layer-direction's (ih DynWeight, b_ih, hh DynWeight, b_hh), gates (i, f, o, g);
    made once for frozen parameters."""
    if all(isinstance(a, np.ndarray) for a in p):
        return prepared("qlstm", tuple(p), _lstm_layer)
    return _lstm_layer(*p)


def product_any(rows, dw, bias, out):
    """out (M, N) = the dynamic product of any rows (M, K): dyn_product of act_codes, or
    quant_nonfinite's for rows holding NaN or infinities."""
    codes = act_codes(rows)
    if codes is not None:
        return dyn_product(codes, dw, bias, out)
    out[...] = _linear_general(rows, dw, bias, True)
    return out


def product_any_cols(cols, dw, bias_col, out):
    """product_any transposed: cols (K, M), out (N, M), bias_col (N, 1) (the values of
    product_any on cols.T: fbgemm reads the rows in order)."""
    codes = act_codes(cols)
    if codes is not None:
        return dyn_product_cols(codes, dw, bias_col, out)
    bias = None if bias_col is None else bias_col[:, 0]
    out[...] = _linear_general(np.ascontiguousarray(cols.T), dw, bias, True).T
    return out


def dyn_product_cols(codes, dw, bias_col, out):
    """dyn_product transposed: out (N, M) = the product of dw's codes by the centred codes
    (K, M) of act_codes, with the same arithmetic (bias_col is the bias as (N, 1))."""
    c, s_x, amax = codes
    step = max(_CHUNK // max(dw.n, 1), 1)
    if c.shape[1] > step:
        for j in range(0, c.shape[1], step):
            dyn_product_cols((c[:, j:j + step], s_x, amax), dw, bias_col, out[:, j:j + step])
        return out
    wcols = dw.wt.T  # (N, K), the cached matrix read transposed by BLAS
    if c.shape[0] * amax * dw.wmax <= _EXACT:
        acc = np.matmul(wcols, c)
    else:
        acc = int_matmul(wcols, c, dw.wmax, amax).astype(np.float32)
    if isinstance(dw.scale, float):
        m = _F64(_f32(s_x * dw.scale))
    else:
        m = np.multiply(_F32(s_x), dw.scale, dtype=np.float32).astype(_F64)[:, None]
    y = acc.astype(_F64)
    np.multiply(y, m, out=y)
    if bias_col is not None:
        np.add(y, bias_col, out=y)
    np.copyto(out, y, casting=_SAME)
    return out


def _qlstm_direction(x, layer, h, c, out, reverse):
    """One direction of one layer over x (T, N, F), writing h of step t into out[t]: the
    input projection once for the whole sequence, the recurrent one per step; gates and
    cell math in float32 as torch's cell (gates = hh + ih, c = f*c + i*g, h = o*tanh(c)),
    in place on buffers made once."""
    return (_qlstm_columns if x.shape[1] > 1 else _qlstm_rows)(x, layer, h, c, out, reverse)


def _qlstm_rows(x, layer, h, c, out, reverse):
    """_qlstm_direction with the gates as rows (N, 4H): the faster layout at batch 1. A
    step whose h is finite (and not all zeros) quantizes it through fast_y64; the gates
    sit in one row [i | f | o | g | c], so that i * g and f * c are one multiplication
    (c = i * g + f * c: addition commutes, bit for bit)."""
    wih, bih, whh, bhh = layer
    steps, n = x.shape[0], x.shape[1]
    hid = h.shape[-1]
    xw = np.empty((steps * n, 4 * hid), np.float32)
    rows = x.reshape(steps * n, -1)
    product_any(rows, wih, bih, xw)
    xw = xw.reshape(steps, n, 4 * hid)
    buf = np.empty((n, 5 * hid), np.float32)
    buf[:, 4 * hid:] = c
    gates, sig, g = buf[:, :4 * hid], buf[:, :3 * hid], buf[:, 3 * hid:4 * hid]
    i_f, g_c, o, c = buf[:, :2 * hid], buf[:, 3 * hid:], buf[:, 2 * hid:3 * hid], buf[:, 4 * hid:]
    prod = np.empty((n, 2 * hid), np.float32)
    p0, p1 = prod[:, :hid], prod[:, hid:]
    t1 = np.empty((n, hid), np.float32)
    one = _F32(1.0)
    mul, add, tanh, exp, neg, copyto = \
        np.multiply, np.add, np.tanh, np.exp, np.negative, np.copyto
    fast = _step_fast(whh, bhh)
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        y = None if fast is None else fast_y64(h, fast[0], fast[1], fast[2])
        if y is None:
            product_any(h, whh, bhh, gates)
        else:
            copyto(gates, y, casting=_SAME)  # rounded once
        add(gates, xw[t], gates)
        neg(sig, sig)  # sigmoid: 1 / (1 + exp(-x))
        exp(sig, sig)
        add(sig, one, sig)
        np.divide(one, sig, sig)
        tanh(g, g)
        mul(i_f, g_c, prod)  # [i * g, f * c]
        add(p0, p1, c)
        tanh(c, t1)
        h = mul(o, t1, out[t])
    return h, c.copy()


_STEP: dict = {}


def _step_fast(dw, bias):
    """(codes, scales, bias as float64) of a recurrent DynWeight whose products fast_y64
    computes exactly (see _Fast), made once per DynWeight, or None."""
    hit = _STEP.get(id(dw))
    if hit is not None and hit[0] is dw and hit[1] is bias:
        return hit[2]
    exact = 129 * int(np.abs(dw.wt).sum(axis=0).max(initial=0)) <= _EXACT
    fast = (dw.wt, dw.scale, None if bias is None else np.asarray(bias, _F64)) if exact \
        else None
    if len(_STEP) >= 64:
        _STEP.clear()
    _STEP[id(dw)] = (dw, bias, fast)
    return fast


def _qlstm_columns(x, layer, h, c, out, reverse):
    """_qlstm_direction for batches: the gates as columns (4H, N), so that every gate block
    is contiguous (row slices of an (N, 4H) buffer are strided and halve the ufunc speed);
    the same values, element for element. As in _qlstm_rows, a finite state goes through
    fast_y64 and c sits below the gates ([i | f | o | g | c] blocks of rows)."""
    wih, bih, whh, bhh = layer
    steps, n = x.shape[0], x.shape[1]
    hid = h.shape[-1]
    x_cols = np.ascontiguousarray(x.transpose(2, 0, 1)).reshape(x.shape[2], steps * n)
    xw = np.empty((4 * hid, steps * n), np.float32)
    product_any_cols(x_cols, wih, None if bih is None else bih[:, None], xw)
    xw = xw.reshape(4 * hid, steps, n)
    bcol = None if bhh is None else bhh[:, None]
    buf = np.empty((5 * hid, n), np.float32)
    gates, sig, g = buf[:4 * hid], buf[:3 * hid], buf[3 * hid:4 * hid]
    i_f, g_c, o, c_t = buf[:2 * hid], buf[3 * hid:], buf[2 * hid:3 * hid], buf[4 * hid:]
    # copies (views would alias the caller's states, and h_t with c_t by default)
    h_t = np.array(np.asarray(h, np.float32).T, order="C")
    c_t[...] = np.asarray(c, np.float32).T
    prod = np.empty((2 * hid, n), np.float32)
    p0, p1 = prod[:hid], prod[hid:]
    t1 = np.empty((hid, n), np.float32)
    one = _F32(1.0)
    mul, add, tanh, exp, neg, copyto = \
        np.multiply, np.add, np.tanh, np.exp, np.negative, np.copyto
    fast = _step_fast(whh, bhh)
    if fast is not None and fast[2] is not None:
        fast = (fast[0], fast[1], fast[2][:, None])
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        y = None if fast is None else fast_y64(h_t, fast[0], fast[1], fast[2], True)
        if y is None:
            product_any_cols(h_t, whh, bcol, gates)
        else:
            copyto(gates, y, casting=_SAME)  # rounded once
        add(gates, xw[:, t], gates)
        neg(sig, sig)
        exp(sig, sig)
        add(sig, one, sig)
        np.divide(one, sig, sig)
        tanh(g, g)
        mul(i_f, g_c, prod)  # [i * g, f * c]: c = i * g + f * c, as in _qlstm_rows
        add(p0, p1, c_t)
        tanh(c_t, t1)
        mul(o, t1, h_t)
        out[t] = h_t.T
    return (out[0] if reverse else out[-1]) if steps else h, c_t.T.copy()


def _qgru_direction(x, layer, h, out, reverse):
    """One GRU direction: r, z = sigmoid(hh + ih), n = tanh(ih_n + hh_n * r),
    h = (h - n) * z + n, in float32 (torch's cell)."""
    wih, bih, whh, bhh = layer
    steps, n = x.shape[0], x.shape[1]
    hid = h.shape[-1]
    rows = x.reshape(steps * n, -1)
    xw = product_any(rows, wih, bih,
                     np.empty((steps * n, 3 * hid), np.float32)).reshape(steps, n, 3 * hid)
    hw = np.empty((n, 3 * hid), np.float32)
    rz = np.empty((n, 2 * hid), np.float32)
    nn_ = np.empty((n, hid), np.float32)
    one = _F32(1.0)
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        product_any(h, whh, bhh, hw)
        xi = xw[t]
        np.add(hw[:, :2 * hid], xi[:, :2 * hid], rz)
        np.negative(rz, rz)
        np.exp(rz, rz)
        np.add(rz, one, rz)
        np.divide(one, rz, rz)
        np.multiply(hw[:, 2 * hid:], rz[:, :hid], nn_)
        np.add(xi[:, 2 * hid:], nn_, nn_)
        np.tanh(nn_, nn_)
        hn = np.subtract(h, nn_)
        np.multiply(hn, rz[:, hid:], hn)
        h = np.add(hn, nn_, out[t])
    return h


def _gru_layer(w_ih, s_ih, b_ih, w_hh, s_hh, b_hh):
    bias = [None if b is None else np.asarray(b, np.float32) for b in (b_ih, b_hh)]
    return (_build(w_ih, _tensor_scale(s_ih)), bias[0], _build(w_hh, _tensor_scale(s_hh)),
            bias[1])


def _layers(kind, params, count):
    groups = _rnn_layers(params, count)
    if kind == "lstm":
        return [lstm_layer(p) for p in groups]
    return [_gru_layer(*p) for p in groups]


def _qrecurrent(kind):
    def kernel(x, hx, params, num_layers, bidirectional, batch_first):
        return recurrent(kind, x, hx, params, num_layers, bidirectional, batch_first)
    kernel.__doc__ = (f"torch's quantized dynamic {kind} (fbgemm): int8 input and recurrent "
                      "products, float32 cell math.")
    return kernel


def recurrent(kind, x, hx, params, num_layers, bidirectional, batch_first, engine=None):
    """The quantized dynamic LSTM / GRU; `engine` (an LSTM's only) replaces how layers are
    prepared and run: (layers(params, count) -> [layer], direction(x, layer, h, c, out,
    reverse) -> (h, c)), a layer's [2] having `n` (4 * hidden), as _qlstm_direction's."""
    x = np.asarray(x, np.float32)
    unbatched = x.ndim == 2
    if unbatched:
        x = x[:, None] if not batch_first else x[None]
    if x.ndim != 3:
        raise RuntimeError(f"input must have 2 or 3 dimensions, got {x.ndim}")
    seq = x.transpose(1, 0, 2) if batch_first else x  # (T, N, F)
    dirs = 2 if bidirectional else 1
    layers = (engine[0](params, num_layers * dirs) if engine else
              _layers(kind, params, num_layers * dirs))
    hid = layers[0][2].n // (4 if kind == "lstm" else 3)
    n = seq.shape[1]
    states = [np.asarray(s, np.float32) for s in hx]
    if unbatched:
        states = [s[:, None] for s in states]
    nstates = 2 if kind == "lstm" else 1
    if not states:
        states = [np.zeros((num_layers * dirs, n, hid), np.float32)] * nstates
    if len(states) != nstates or any(s.shape != (num_layers * dirs, n, hid) for s in states):
        raise RuntimeError(f"quantized dynamic {kind}: expected {nstates} initial states of "
                           f"shape {[num_layers * dirs, n, hid]}")
    direction = engine[1] if engine else _qlstm_direction
    with np.errstate(over="ignore", invalid="ignore"):
        return _run_layers(kind, seq, layers, states, num_layers, dirs, batch_first,
                           unbatched, direction)


def _run_layers(kind, seq, layers, states, num_layers, dirs, batch_first, unbatched,
                direction):
    """Every layer and direction over seq (T, N, F); (output, h_n[, c_n])."""
    hs, cs = [], []
    steps, n = seq.shape[0], seq.shape[1]
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            hid = states[0].shape[-1]
            out = np.empty((steps, n, hid), np.float32)
            if kind == "lstm":
                h, c = direction(seq, layers[k], states[0][k], states[1][k], out, d == 1)
                cs.append(c)
            else:
                h = _qgru_direction(seq, layers[k], states[0][k], out, d == 1)
            outs.append(out)
            hs.append(np.array(h))
        seq = outs[0] if dirs == 1 else np.concatenate(outs, axis=2)
    out = seq.transpose(1, 0, 2) if batch_first else seq
    fin = [np.stack(hs)] + ([np.stack(cs)] if kind == "lstm" else [])
    if unbatched:
        out = out[0] if batch_first else out[:, 0]
        fin = [f[:, 0] for f in fin]
    return (np.ascontiguousarray(out),) + tuple(fin)


# ----------------------------------------------------------------------------- registration

def _unknown(dtype, n=1):
    def info(args):
        t = TensorInfo(dtype, None)
        return t if n == 1 else (t,) * n
    return info


reg("tensor.quantized_linear_dynamic",
    "(Tensor input, Tensor weight, Tensor weight_scale, Tensor? bias, bool reduce_range) "
    "-> Tensor", _linear_dynamic_op, ("ember.quantized.linear_dynamic",),
    shape=_unknown("float32"), may_raise=True)
reg("tensor.quantized_linear_dynamic_relu",
    "(Tensor input, Tensor weight, Tensor weight_scale, Tensor? bias, bool reduce_range) "
    "-> Tensor", _linear_dynamic_relu_op, (), shape=_unknown("float32"), may_raise=True)
reg("tensor.quantized_lstm_dynamic",
    "(Tensor input, Tensor[] hx, Tensor[] params, int num_layers, bool bidirectional, "
    "bool batch_first) -> Tuple[Tensor, Tensor, Tensor]", _qrecurrent("lstm"),
    ("ember.quantized.lstm_dynamic",), shape=_unknown("float32", 3), may_raise=True)
reg("tensor.quantized_gru_dynamic",
    "(Tensor input, Tensor[] hx, Tensor[] params, int num_layers, bool bidirectional, "
    "bool batch_first) -> Tuple[Tensor, Tensor]", _qrecurrent("gru"),
    ("ember.quantized.gru_dynamic",), shape=_unknown("float32", 2), may_raise=True)
