"""Quantized tensor arithmetic: the integer semantics of docs/quantization.md, once.

Codes are plain numpy arrays (uint8 for activations, int8 for weights); a tensor's scale
and zero point travel beside it as numbers (per-tensor) or float32 / int arrays
(per-channel). Every formula reproduces torch's fbgemm engine bit for bit; where torch
computes a fused multiply-add in float32 the kernel computes the exact product in
float64 and rounds once to float32 (exact here: the product of two float32 values has
at most 48 significant bits; see docs/quantization.md for the one double-rounding case).

Integer products never use numpy's integer matmul (no BLAS; 20-45x slower): the centred
codes are float32 or float64 arrays whose products and partial sums are small integers,
which float BLAS computes exactly (see `int_matmul`).
"""

from __future__ import annotations

import math
import struct

import numpy as np

from ember.ops.tensor_common import frozen, prepared, reg
from ember.ops.tensorinfo import TensorInfo

_F32 = np.float32
_SMALL_SCALE = _F32(6.1e-5)
"""torch's ChooseQuantizationParams floor for a scale (SMALL_SCALE_THRESHOLD)."""
_EPS32 = _F32(np.finfo(np.float32).eps)
"""Observers' floor for a scale (torch.finfo(torch.float32).eps = 2**-23)."""

QRANGE = {"quint8": (0, 255), "qint8": (-128, 127), "qint32": (-(1 << 31), (1 << 31) - 1)}
_NP = {"quint8": np.uint8, "qint8": np.int8, "qint32": np.int32}


_PIECE = 1 << 17
"""Elements a large static convolution (output elements per group of samples) or quantize
(input elements per piece) works on at once: the temporaries (centred input, accumulator,
requantization buffer; the quantize's float64 copy) then stay in cache and come from the
heap, where a whole batch's (4 MB each for the bench CNN at batch 32) came from fresh
mmaps whose page faults cost more than the passes."""


def _qrange(dtype, reduce_range=False):
    if dtype not in QRANGE:
        raise RuntimeError(f"unsupported quantized dtype {dtype!r} (expected one of "
                           f"{', '.join(QRANGE)})")
    lo, hi = QRANGE[dtype]
    if reduce_range:
        lo, hi = lo // 2, hi // 2
    return lo, hi


# ----------------------------------------------------------------------------- parameters


_PACK = struct.Struct("<f")
_SMALL = float(_SMALL_SCALE)


def _f32(v: float) -> float:
    """v rounded to float32, as a Python float (infinite past float32's range)."""
    try:
        return _PACK.unpack(_PACK.pack(v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def choose_qparams(mn, mx, qmin, qmax, preserve_sparsity=False):
    """fbgemm's / torch's ChooseQuantizationParams for the float32 range [mn, mx]:
    (scale as a Python float holding a float32, zero point as an int). A NaN bound counts
    as 0."""
    mn, mx = float(mn), float(mx)
    mn = 0.0 if math.isnan(mn) else min(mn, 0.0)
    mx = 0.0 if math.isnan(mx) else max(mx, 0.0)
    scale = (mx - mn) / (qmax - qmin)
    s32 = _f32(scale)
    if s32 == 0 or math.isinf(_f32(1.0 / s32)):
        scale = 0.1
    if scale < _SMALL:
        org = scale
        scale = _SMALL
        if mn == 0:
            mx = _f32(_SMALL * (qmax - qmin))
        elif mx == 0:
            mn = _f32(-_SMALL * (qmax - qmin))
        else:
            amp = _f32(_SMALL / _f32(org))
            mn, mx = _f32(mn * amp), _f32(mx * amp)
    from_min = qmin - mn / scale
    from_max = qmax - mx / scale
    err_min = abs(qmin) - abs(mn / scale)
    err_max = abs(qmax) - abs(mx / scale)
    zp = from_min if err_min < err_max else from_max
    if mn < 0 and mx > 0 and preserve_sparsity:
        zp = (qmin + qmax) / 2
    if zp != zp:  # an infinite range: x86 converts the NaN to the integer indefinite
        nudged = -2 ** 31
    elif zp < qmin:
        nudged = qmin
    elif zp > qmax:
        nudged = qmax
    else:
        nudged = int(round(zp))
    return _f32(scale), nudged


def dynamic_qparams(x, reduce_range=True):
    """The activation (scale, zero point) quantized dynamic linear picks for x: one
    min/max over the whole input, quint8, [0, 127] with reduce_range."""
    mn, mx = (float(x.min()), float(x.max())) if x.size else (0.0, 0.0)
    lo, hi = _qrange("quint8", reduce_range)
    return choose_qparams(mn, mx, lo, hi)


def symmetric_scale(absmax, qmin=-128, qmax=127):
    """Observers' symmetric scale max|w| / ((qmax - qmin) / 2) in float32, floored at 2**-23."""
    s = np.asarray(absmax, np.float32) / _F32((qmax - qmin) / 2)
    return np.maximum(s, _EPS32).astype(np.float32)


# ----------------------------------------------------------------------------- quantize


def inv_scale(scale):
    """f32(1 / f32(scale)), elementwise for per-channel scales."""
    return (_F32(1.0) / np.asarray(scale, np.float32)).astype(np.float32)


def quantize_codes(x, scale, zp, qmin, qmax, out_dtype, axis=None):
    """clamp(rne(f32(x * f32(1/scale) + zp)), qmin, qmax): fbgemm's Quantize (one fused
    multiply-add in float32). Per channel along `axis` when scale is an array."""
    x = np.asarray(x, np.float32)
    if axis is None and x.size > _PIECE:  # pieces: the float64 temporary stays small
        flat = x.reshape(-1)
        out = np.empty(flat.shape, out_dtype)
        for i in range(0, flat.size, _PIECE):
            out[i:i + _PIECE] = quantize_codes(flat[i:i + _PIECE], scale, zp, qmin,
                                                    qmax, out_dtype)
        return out.reshape(x.shape)
    inv = inv_scale(scale).astype(np.float64)
    z = np.asarray(zp, np.float64)
    if axis is not None:
        shape = [1] * x.ndim
        shape[axis] = -1
        inv, z = inv.reshape(shape), z.reshape(shape)
    with np.errstate(invalid="ignore", over="ignore"):
        t = x.astype(np.float64)
        t *= inv
        t += z
        v = t.astype(np.float32)
        np.rint(v, out=v)
    np.maximum(v, qmin, out=v)  # NaN stays, then gives qmax, as fbgemm's vminps does
    np.fmin(v, qmax, out=v)
    return v.astype(out_dtype)


def quantize_per_tensor(x, scale, zero_point, dtype):
    """torch.quantize_per_tensor(x, scale, zero_point, dtype): the codes (uint8 / int8)."""
    _check_qparams(scale, zero_point, dtype)
    lo, hi = _qrange(dtype)
    return quantize_codes(x, scale, zero_point, lo, hi, _NP[dtype])


def quantize_per_channel(x, scales, zero_points, axis, dtype):
    """torch.quantize_per_channel: codes with one scale / zero point per slice of `axis`."""
    scales = np.asarray(scales, np.float32).reshape(-1)
    zps = np.asarray(zero_points, np.int64).reshape(-1)
    if axis < 0 or axis >= x.ndim or scales.shape[0] != x.shape[axis] or \
            zps.shape[0] != x.shape[axis]:
        raise RuntimeError(f"quantize_per_channel: {scales.shape[0]} scales and "
                           f"{zps.shape[0]} zero points for axis {axis} of a tensor of "
                           f"shape {list(x.shape)}")
    for s, z in zip(scales, zps):
        _check_qparams(float(s), int(z), dtype)
    lo, hi = _qrange(dtype)
    return quantize_codes(x, scales, zps, lo, hi, _NP[dtype], axis)


def dequantize(q, scale, zero_point):
    """(q - zero_point) * scale in float32 (the integer difference is exact)."""
    if q.dtype.itemsize > 2:
        return arr32((q.astype(np.int64) - zero_point).astype(np.float32) * _F32(scale))
    y = np.subtract(q, _F32(zero_point), dtype=np.float32)  # exact: 8-bit codes
    y *= _F32(scale)
    return y


def dequantize_per_channel(q, scales, zero_points, axis):
    """(q - zp[c]) * scale[c] in float32 along `axis`."""
    shape = [1] * q.ndim
    shape[axis] = -1
    s = np.asarray(scales, np.float32).reshape(shape)
    z = np.asarray(zero_points, np.int32).reshape(shape)
    return arr32((q.astype(np.int32) - z).astype(np.float32) * s)


def arr32(a):
    return np.asarray(a, np.float32)


def _check_qparams(scale, zp, dtype):
    lo, hi = _qrange(dtype)
    if not (np.isfinite(scale) and scale > 0):
        raise RuntimeError(f"quantization scale must be finite and positive, got {scale}")
    if not lo <= zp <= hi:
        raise RuntimeError(f"zero point {zp} is out of range [{lo}, {hi}] for {dtype}")


# ----------------------------------------------------------------------------- exact products

EXACT_K32 = 514
"""Longest dot product of codes (|a| <= 255, |b| <= 128) whose partial sums all stay
exact in float32 (|sum| <= 2**24) whatever the codes."""
_EXACT = 1 << 24


def exact_block(amax, bmax):
    """The longest dot product of integers |a| <= amax, |b| <= bmax that float32 computes
    exactly in any order of summation (every partial sum within 2**24)."""
    return max(_EXACT // max(int(amax) * int(bmax), 1), 1)


def int_matmul(a, b, amax=255, bmax=128):
    """The exact integer product a (M, K) @ b (K, N) of small integers (|a| <= amax,
    |b| <= bmax) held in float arrays: one float32 GEMM when K is within exact_block
    (the result, exact, as float32), else float32 GEMMs over K blocks of that length whose
    exact results are summed in float64 (when K splits evenly into such blocks, all of
    them as one batched GEMM, the blocks summed by one reduction)."""
    k = a.shape[-1]
    a32 = a.astype(np.float32, copy=False)
    b32 = b.astype(np.float32, copy=False)
    block = exact_block(amax, bmax)
    if k <= block:
        return np.matmul(a32, b32)
    nb = _even_blocks(k, block)
    if nb and a32.ndim == 2 and b32.ndim == 2:
        sub = k // nb
        parts = np.matmul(a32.reshape(a32.shape[0], nb, sub).transpose(1, 0, 2),
                          b32.reshape(nb, sub, b32.shape[1]))
        return parts.sum(axis=0, dtype=np.float64)  # integers: exact in any order
    acc = None
    for lo in range(0, k, block):
        part = np.matmul(a32[..., lo:lo + block], b32[lo:lo + block])
        acc = part.astype(np.float64) if acc is None else acc + part
    return acc


def _even_blocks(k, block):
    """The fewest blocks, no longer than `block`, that split k evenly (0: none close to
    the fewest possible)."""
    least = -(-k // block)
    for nb in range(least, min(2 * least, k) + 1):
        if k % nb == 0:
            return nb
    return 0


def _centred_max(c):
    """max |c| of centred codes (0 for an empty array)."""
    return max(-float(c.min()), float(c.max())) if c.size else 0


def _weight_max(w):
    return _weight_prep(w)[1]


def _fma32(a, b, c):
    """f32(a * b + c) for float32 operands, rounded once (a * b is exact in float64)."""
    v = a.astype(np.float64) * np.asarray(b, np.float64)
    if c is not None:
        v = v + np.asarray(c, np.float64)
    return v.astype(np.float32)


# ----------------------------------------------------------------------------- dynamic linear


def _weight_t32(w):
    """The int8 weight (N, K) as a float32 (K, N) matrix (cached for a frozen weight)."""
    return _weight_prep(w)[0]


def _prep(w):
    return np.ascontiguousarray(w.T.astype(np.float32)), \
        (int(np.abs(w.astype(np.int16)).max()) if w.size else 0)


def _weight_prep(w):
    """(the int8 weight (N, K) as a float32 (K, N) matrix, max |code|), made once for a
    frozen weight."""
    return prepared("qT", (w,), _prep) if frozen(w) else _prep(w)


def _code_of(v, inv, zp):
    """The code fbgemm's Quantize gives the float32 value v (unclamped)."""
    return round(_f32(v * inv + zp))


def _check_scales(s, what):
    if s.size == 0 or not np.all(np.isfinite(s)) or not np.all(s > 0):
        raise RuntimeError(f"{what}: quantization scales must be finite and positive")


def _scale_value(w_scale):
    s = np.asarray(w_scale, np.float32)
    _check_scales(s, "quantized linear")
    return s if s.size > 1 else float(s.reshape(-1)[0])


def _tensor_scale(w_scale):
    """The weight scales as a float (one) or a float32 array, checked (once for a loaded
    artifact's frozen scales; a float passes through)."""
    if isinstance(w_scale, float):
        return w_scale
    return prepared("qs", (w_scale,), _scale_value) if frozen(w_scale) else \
        _scale_value(w_scale)


# ----------------------------------------------------------------------------- static ops


def requantize(acc, s_in, w_scale, bias, s_out, zp_out, relu=False, axis=-1):
    """fbgemm's requantization of exact int32 sums `acc` (float32 or float64 holding
    integers) with per-output-channel weight scales along `axis`:
    atw = f32(s_in * s_w); M = f32(atw / s_out); v = f32(f32(f32(acc) + f32(bias / atw)) * M);
    q = clamp(rne(v) + zp_out, lo, 255), lo = zp_out with a fused ReLU, else 0.
    Works in place on one contiguous float32 buffer (the convolution's accumulator is a
    trimmed view, on which every pass would be strided)."""
    shape = [1] * acc.ndim
    shape[axis] = -1
    bterm, m = _requant_consts(s_in, w_scale, bias, s_out)
    m = m.reshape(shape)
    with np.errstate(invalid="ignore", over="ignore"):
        if acc.dtype != np.float32:
            v = acc.astype(np.float32)
            if bterm is not None:
                v += bterm.reshape(shape)
            v *= m
        elif bterm is not None:  # out of place: a fresh contiguous buffer for the rest
            v = np.add(acc, bterm.reshape(shape))
            v *= m
        elif acc.flags.writeable and acc.flags.c_contiguous:
            v = acc
            v *= m
        else:
            v = np.multiply(acc, m)
        np.rint(v, out=v)
        v += _F32(zp_out)
        np.clip(v, zp_out if relu else 0, 255, out=v)
    return v.astype(np.uint8)


def _requant_build(s_in, s_out):
    def build(w_scale, bias):
        atw = (_F32(s_in) * np.asarray(w_scale, np.float32)).astype(np.float32)
        m = (atw / _F32(s_out)).astype(np.float32)
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            bterm = None if bias is None else \
                (np.asarray(bias, np.float32).reshape(-1) / atw).astype(np.float32)
        return bterm, m
    return build


def _requant_consts(s_in, w_scale, bias, s_out):
    """(f32(bias / atw) or None, M) of requantize, per output channel: made once for frozen
    weight scales and bias (they and the two scales are all they depend on)."""
    build = _requant_build(s_in, s_out)
    if isinstance(w_scale, np.ndarray) and frozen(w_scale) and \
            (bias is None or (isinstance(bias, np.ndarray) and frozen(bias))):
        return prepared(("rq", float(s_in), float(s_out)), (w_scale, bias), build)
    return build(w_scale, bias)


def _codes_bound(zp, k, wmax, c):
    """max |centred code| to plan the exact product with: provable from the zero point
    alone (uint8 codes lie in [0, 255]) whenever that bound keeps float32 exact, else the
    actual extreme of the centred codes c."""
    bound = max(zp, 255 - zp)
    return bound if k * bound * max(wmax, 1) <= _EXACT else _centred_max(c)


def _centred(q, zp):
    return q.astype(np.float32) - _F32(zp)


def linear_static(q, s_in, zp_in, w, w_scale, bias, s_out, zp_out, relu):
    """Quantized linear (fbgemm): uint8 codes q (..., K) -> uint8 codes (..., N)."""
    if q.shape[-1] != w.shape[1]:
        raise RuntimeError(f"quantized linear: input with {q.shape[-1]} features, weight "
                           f"expects {w.shape[1]}")
    rows = _centred(q.reshape(-1, q.shape[-1]), zp_in)
    wmax = _weight_max(w)
    acc = int_matmul(rows, _weight_t32(w), _codes_bound(zp_in, q.shape[-1], wmax, rows), wmax)
    out = requantize(acc, s_in, _channel_scales(w_scale, w.shape[0]), bias, s_out, zp_out,
                     relu)
    return out.reshape(q.shape[:-1] + (w.shape[0],))


def _channel_scales(w_scale, o):
    """The weight scales as one float32 per output channel (a frozen array as it is)."""
    if isinstance(w_scale, np.ndarray) and w_scale.dtype == np.float32 and \
            w_scale.shape == (o,):
        return w_scale
    return np.broadcast_to(np.asarray(w_scale, np.float32).reshape(-1), (o,))


def _pair(v):
    return (v, v) if isinstance(v, int) else (v[0], v[1])


def conv2d_static(q, s_in, zp_in, w, w_scale, bias, s_out, zp_out, stride, padding,
                  dilation, groups, relu):
    """Quantized conv2d (fbgemm): uint8 codes (N, C, H, W), int8 weight (O, C/g, kh, kw)
    with per-channel (or one) scales; padding holds the input zero point, so the
    centred input is zero-padded."""
    if q.ndim != 4:
        raise RuntimeError(f"quantized conv2d expects a 4-d input, got {q.ndim}-d")
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    n, c, h, wd = q.shape
    o, cg, kh, kw = w.shape
    if c != cg * groups or o % groups:
        raise RuntimeError(f"quantized conv2d: input with {c} channels, weight {list(w.shape)}"
                           f" and groups={groups}")
    step = max(_PIECE // max(o * h * wd, 1), 1)
    if n > step:  # sample groups: see _PIECE
        args = (s_in, zp_in, w, w_scale, bias, s_out, zp_out, stride, padding, dilation,
                groups, relu)
        first = conv2d_static(q[:step], *args)
        out = np.empty((n,) + first.shape[1:], np.uint8)
        out[:step] = first
        for i in range(step, n, step):
            out[i:i + step] = conv2d_static(q[i:i + step], *args)
        return out
    ws = _channel_scales(w_scale, o)
    wmax = _weight_max(w)
    k = cg * kh * kw
    wide = groups == 1 and (sh, sw) == (1, 1) and kh * kw > 1 and \
        h + 2 * ph > dh * (kh - 1) and wd + 2 * pw > dw * (kw - 1)
    if wide and k * max(zp_in, 255 - zp_in) * max(wmax, 1) <= _EXACT:
        acc = _conv_centred_wide(q, zp_in, _conv_weight_f32(w), ph, pw, dh, dw)
        return requantize(acc, s_in, ws, bias, s_out, zp_out, relu, axis=1)
    xc = _centred(q, zp_in)
    if k <= exact_block(_codes_bound(zp_in, k, wmax, xc), wmax):
        # every partial sum is an integer within 2**24: float32's convolution is exact
        from ember.ops.tensor_conv import conv2d
        acc = conv2d(xc, _conv_weight_f32(w), None, [sh, sw], [ph, pw], [dh, dw], groups)
        return requantize(acc, s_in, ws, bias, s_out, zp_out, relu, axis=1)
    x = np.zeros((n, c, h + 2 * ph, wd + 2 * pw), np.float32)
    x[:, :, ph:ph + h, pw:pw + wd] = xc
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if oh <= 0 or ow <= 0:
        raise RuntimeError("quantized conv2d: output size is too small")
    sn, sc, sy, sx = x.strides
    cols = np.lib.stride_tricks.as_strided(
        x, (n, groups, oh, ow, cg, kh, kw),
        (sn, sc * cg, sy * sh, sx * sw, sc, sy * dh, sx * dw))
    wg = _conv_weight32(w, groups)  # (groups, cg*kh*kw, o/g)
    k = cg * kh * kw
    a = cols.reshape(n, groups, oh * ow, k).transpose(1, 0, 2, 3).reshape(groups, -1, k)
    acc = np.empty((groups, a.shape[1], o // groups), np.float64)
    for g in range(groups):
        acc[g] = int_matmul(a[g], wg[g])
    acc = acc.reshape(groups, n, oh * ow, o // groups).transpose(1, 0, 3, 2)
    acc = acc.reshape(n, o, oh, ow)
    return requantize(acc, s_in, ws, bias, s_out, zp_out, relu, axis=1)


def _conv_centred_wide(q, zp, wf, ph, pw, dh, dw):
    """The exact float32 convolution (stride 1, one group) of the centred codes q - zp
    (N, C, H, W) by the float32 weight codes wf (O, C, kh, kw), every partial sum an
    integer within 2**24: the centred input is written once into its zero-padded buffer
    (padding holds the zero point, so centred it is 0), then tensor_conv's wide im2col (a
    row of slack below for the last windows' overrun) and one GEMM per sample. Any
    summation order gives these exact sums, so the bits are float32 conv2d's on the
    centred codes. (N, O, Ho, Wo): a view trimmed to Wo columns."""
    n, c, h, wd = q.shape
    o, _, kh, kw = wf.shape
    hp, wp = h + 2 * ph, wd + 2 * pw
    ho, wo = hp - dh * (kh - 1), wp - dw * (kw - 1)
    extra = -(-(dw * (kw - 1)) // wp)
    xp = np.zeros((n, c, hp + extra, wp), np.float32)
    np.subtract(q, _F32(zp), out=xp[:, :, ph:ph + h, pw:pw + wd], dtype=np.float32)
    flat = xp.reshape(n, c, -1)
    s1, s2 = flat.strides[1], flat.strides[2]
    w2 = wf.reshape(o, -1)
    big = ho * wp
    out = np.empty((n, o, ho, wp), np.float32)
    cols = np.empty((c * kh * kw, big), np.float32)
    shaped = cols.reshape(c, kh, kw, big)
    for i in range(n):
        np.copyto(shaped, np.lib.stride_tricks.as_strided(
            flat[i], (c, kh, kw, big), (s1, dh * wp * s2, dw * s2, s2), writeable=False))
        np.matmul(w2, cols, out=out[i].reshape(o, big))
    return out[:, :, :, :wo]


def _conv_weight_f32(w):
    """The int8 weight as float32, frozen when w is (so the float kernel's caches hold)."""
    if frozen(w):
        return prepared("qconvf", (w,), lambda w: _frozen_copy(w.astype(np.float32)))
    return w.astype(np.float32)


def _conv_weight32(w, groups):
    o = w.shape[0]

    def build(w):
        wf = w.astype(np.float32).reshape(groups, o // groups, -1)
        return np.ascontiguousarray(wf.transpose(0, 2, 1))
    return prepared("qconv", (w,), build) if frozen(w) else build(w)


def _requant_float(v, s_out, zp_out, relu):
    """quantize_val: clamp(rne(f32(v * f32(1/s_out))) + zp_out) of float32 values (the
    form torch's elementwise quantized ops use)."""
    with np.errstate(invalid="ignore", over="ignore"):
        r = np.rint((v * inv_scale(s_out)).astype(np.float32)) + zp_out
    return np.clip(r, zp_out if relu else 0, 255).astype(np.uint8)


def _deq_fma(q, s, zp):
    """torch's vectorized dequantize: fma(q, s, -zp * s) in float32."""
    premul = _F32(-_F32(zp) * _F32(s))
    return _fma32(q.astype(np.float32), _F32(s), premul)


def add_static(a, sa, za, b, sb, zb, s_out, zp_out, relu):
    """quantized::add (QFunctional.add): dequantize both, add in float32, requantize."""
    v = (_deq_fma(a, sa, za) + _deq_fma(b, sb, zb)).astype(np.float32)
    return _requant_float(v, s_out, zp_out, relu)


def mul_static(a, sa, za, b, sb, zb, s_out, zp_out, relu):
    """quantized::mul (QFunctional.mul): the exact product of the centred codes, requantized
    by one float32 multiplier f32(f32(sa * sb) * f32(1 / s_out)) (requantize_from_int)."""
    m = _F32(_F32(_F32(sa) * _F32(sb)) * inv_scale(s_out))
    c = ((a.astype(np.int32) - np.int32(za)) * (b.astype(np.int32) - np.int32(zb)))
    with np.errstate(invalid="ignore", over="ignore"):
        r = np.rint((c.astype(np.float32) * m).astype(np.float32)) + zp_out
    return np.clip(r, zp_out if relu else 0, 255).astype(np.uint8)


def cat_static(qs, scales, zps, dim, s_out, zp_out):
    """quantized::cat: each input requantized to (s_out, zp_out) unless it already has them."""
    parts = []
    for q, s, z in zip(qs, scales, zps):
        if _F32(s) == _F32(s_out) and z == zp_out:
            parts.append(q)
        else:
            parts.append(_requant_float(_deq_fma(q, s, z), s_out, zp_out, False))
    return np.concatenate(parts, axis=dim)


def _out_size(output_size, h, w):
    size = [output_size, output_size] if isinstance(output_size, int) else list(output_size)
    if len(size) != 2:
        raise RuntimeError(f"adaptive_avg_pool2d: output_size must have 2 elements, got "
                           f"{len(size)}")
    oh = h if size[0] is None or size[0] < 0 else int(size[0])
    ow = w if size[1] is None or size[1] < 0 else int(size[1])
    if oh <= 0 or ow <= 0:
        raise RuntimeError(f"adaptive_avg_pool2d: output size {[oh, ow]} must be positive")
    return oh, ow


def adaptive_avg_pool2d_static(q, output_size, zp, channels_last):
    """torch's quantized adaptive_avg_pool2d (the output keeps the input's qparams): the sum
    of each window's codes, then, as torch's kernels for each memory layout do,
    channels_last: acc = sum - zp * size, code = rne(f32(acc * f32(1 / f32(1 / f32(1 /
    size))) + zp)); contiguous: code = rne(f32(f32(sum) * f32(1 / size)))."""
    if q.ndim not in (3, 4):
        raise RuntimeError(f"quantized adaptive_avg_pool2d expects a 3-d or 4-d input, got "
                           f"{q.ndim}-d")
    if q.ndim == 3:
        return adaptive_avg_pool2d_static(q[None], output_size, zp, channels_last)[0]
    n, c, h, w = q.shape
    oh, ow = _out_size(output_size, h, w)
    out = np.empty((n, c, oh, ow), np.float32)
    qi = q.astype(np.int64)
    for i in range(oh):
        h0, h1 = (i * h) // oh, -((-(i + 1) * h) // oh)
        for j in range(ow):
            w0, w1 = (j * w) // ow, -((-(j + 1) * w) // ow)
            size = (h1 - h0) * (w1 - w0)
            total = qi[:, :, h0:h1, w0:w1].sum(axis=(2, 3))
            m = _F32(_F32(1.0) / _F32(size))
            if channels_last:
                inv = _F32(_F32(1.0) / _F32(_F32(1.0) / m))
                out[:, :, i, j] = ((total - zp * size).astype(np.float64) * float(inv)
                                   + zp).astype(np.float32)
            else:
                out[:, :, i, j] = (total.astype(np.float32) * m).astype(np.float32)
    np.rint(out, out=out)
    np.clip(out, 0, 255, out=out)
    return out.astype(np.uint8)


def _code_val(scale, zp, value):
    """torch's quantize_val for quint8: clamp(zp + rne(f32(value * f32(1 / scale))))."""
    return min(max(zp + round(_f32(value * _f32(1.0 / _f32(scale)))), 0), 255)


def relu6_static(q, scale, zp):
    """quantized::relu6: clamp(q, zp, quantize_val(6.0)); the qparams stay."""
    return np.clip(q, zp, _code_val(scale, zp, 6.0)).astype(np.uint8)


def hardswish_static(q, s_in, z_in, s_out, z_out):
    """quantized::hardswish (torch's vectorized loop): d = fma(q, s, -zp * s);
    y = f32(f32(d * min(max(d + 3, 0), 6)) / 6); code = clamp(rne(f32(y * f32(1 / s_out)))
    + zp_out, 0, 255)."""
    d = _deq_fma(q, s_in, z_in)
    y = ((d * np.minimum(np.maximum(d + _F32(3), _F32(0)), _F32(6))).astype(np.float32)
         / _F32(6)).astype(np.float32)
    return _requant_float(y, s_out, z_out, False)


# ----------------------------------------------------------------------------- weight only


def _frozen_copy(a):
    """a as a read-only array over an immutable bytes object: frozen (tensor_common.frozen),
    so the kernels that take it keep their caches (linear's W^T, conv's layouts)."""
    a = np.ascontiguousarray(a)
    return np.frombuffer(a.tobytes(), a.dtype).reshape(a.shape)


def _dequantize_weight_now(codes, scales):
    s = np.asarray(scales, np.float32).reshape((-1,) + (1,) * (codes.ndim - 1))
    _check_scales(s, "dequantize_weight")
    if s.shape[0] not in (1, codes.shape[0]):
        raise RuntimeError(f"dequantize_weight: {s.shape[0]} scales for a weight of "
                           f"{codes.shape[0]} output channels")
    return (codes.astype(np.float32) * s).astype(np.float32)


def dequantize_weight(codes, scales):
    """int8 weight codes times their per-output-channel (or single) scales, in float32:
    computed once per loaded artifact (frozen codes), every call otherwise."""
    if frozen(codes) and frozen(scales):
        return prepared("dqw", (codes, scales),
                        lambda c, s: _frozen_copy(_dequantize_weight_now(c, s)))
    return _dequantize_weight_now(codes, scales)


# ----------------------------------------------------------------------------- torch.ao markers
# The layers torch.ao's static modules convert to (ember.nn.quantized) call these; their
# input qparams are bound after freezing by passes/ao_qparams.py, which rewrites each into
# the operators above. Run unbound (an unfrozen module), they refuse.


def _unbound(*args):
    raise RuntimeError("a torch.ao quantized layer ran before its input's scale and zero "
                       "point were bound: script the model with ember.script(model) "
                       "(optimize=True, the default), which binds them when it freezes")


def quantized_relu(q, zero_point):
    """ReLU of quint8 codes: max(q, zero_point)."""
    return np.maximum(q, np.uint8(zero_point)).astype(q.dtype)


# ----------------------------------------------------------------------------- calibration

SINKS: dict = {}
"""slot -> callable(array): where `tensor.quant_observe` sends the values it sees while
ember.quantize calibrates (empty otherwise: the op then does nothing)."""


def quant_observe(x, slot):
    """Hand x to the calibration observer of `slot` (ember.quantize's instrumented copy)."""
    sink = SINKS.get(slot)
    if sink is not None:
        sink(x)


# ----------------------------------------------------------------------------- registration

def _same_shape(dtype):
    """Result: the first argument's shape, of `dtype` (None: of the `dtype` argument)."""
    def info(args):
        dt = dtype
        if dt is None:
            q = args[3].const
            dt = {"quint8": "uint8", "qint8": "int8", "qint32": "int32"}.get(q)
        return TensorInfo(dt, args[0].shape)
    return info


def _unknown(dtype, n=1):
    def info(args):
        t = TensorInfo(dtype, None)
        return t if n == 1 else (t,) * n
    return info


reg("tensor.quantize_per_tensor",
    "(Tensor input, float scale, int zero_point, str dtype) -> Tensor",
    quantize_per_tensor, ("ember.quantized.quantize_per_tensor",), shape=_same_shape(None),
    may_raise=True)
reg("tensor.dequantize_codes", "(Tensor codes, float scale, int zero_point) -> Tensor",
    dequantize, shape=_same_shape("float32"), may_raise=True)
reg("tensor.quantized_linear",
    "(Tensor input, float scale, int zero_point, Tensor weight, Tensor weight_scale, "
    "Tensor? bias, float out_scale, int out_zero_point, bool relu) -> Tensor",
    linear_static, shape=_unknown("uint8"), may_raise=True)
reg("tensor.quantized_conv2d",
    "(Tensor input, float scale, int zero_point, Tensor weight, Tensor weight_scale, "
    "Tensor? bias, float out_scale, int out_zero_point, int[] stride, int[] padding, "
    "int[] dilation, int groups, bool relu) -> Tensor", conv2d_static, shape=_unknown("uint8"),
    may_raise=True)
reg("tensor.quantized_add",
    "(Tensor a, float a_scale, int a_zero_point, Tensor b, float b_scale, int b_zero_point, "
    "float out_scale, int out_zero_point, bool relu) -> Tensor", add_static, shape=_same_shape("uint8"),
    may_raise=True)
reg("tensor.quantized_mul",
    "(Tensor a, float a_scale, int a_zero_point, Tensor b, float b_scale, int b_zero_point, "
    "float out_scale, int out_zero_point, bool relu) -> Tensor", mul_static, shape=_same_shape("uint8"),
    may_raise=True)
reg("tensor.dequantize_weight", "(Tensor codes, Tensor scales) -> Tensor", dequantize_weight,
    shape=lambda args: TensorInfo("float32", args[0].shape), may_raise=True)
reg("tensor.quant_observe", "(Tensor input, int slot) -> None", quant_observe)
reg("tensor.quantized_relu", "(Tensor codes, int zero_point) -> Tensor", quantized_relu,
    shape=_same_shape("uint8"))
for _name, _sig in [
        ("ao_dequantize", "(Tensor codes) -> Tensor"),
        ("ao_conv2d", "(Tensor codes, Tensor weight, Tensor weight_scale, Tensor? bias, "
                      "float out_scale, int out_zero_point, int[] stride, int[] padding, "
                      "int[] dilation, int groups, bool relu) -> Tensor"),
        ("ao_linear", "(Tensor codes, Tensor weight, Tensor weight_scale, Tensor? bias, "
                      "float out_scale, int out_zero_point, bool relu) -> Tensor"),
        ("ao_add", "(Tensor a, Tensor b, float out_scale, int out_zero_point, bool relu) "
                   "-> Tensor"),
        ("ao_mul", "(Tensor a, Tensor b, float out_scale, int out_zero_point, bool relu) "
                   "-> Tensor"),
        ("ao_cat", "(Tensor[] codes, int dim, float out_scale, int out_zero_point) -> Tensor")]:
    reg(f"tensor.{_name}", _sig, _unbound, (f"ember.quantized.{_name}",),
        shape=_unknown("float32" if _name == "ao_dequantize" else "uint8"), may_raise=True,
        doc=f"torch.ao's quantized {_name[3:]}, before its input qparams are bound.")
reg("tensor.quantized_cat",
    "(Tensor[] codes, float[] scales, int[] zero_points, int dim, float out_scale, "
    "int out_zero_point) -> Tensor", cat_static, shape=_unknown("uint8"), may_raise=True)
reg("tensor.quantized_adaptive_avg_pool2d",
    "(Tensor codes, Any output_size, int zero_point, bool channels_last) -> Tensor",
    adaptive_avg_pool2d_static, shape=_unknown("uint8"), may_raise=True)
reg("tensor.quantized_relu6", "(Tensor codes, float scale, int zero_point) -> Tensor",
    relu6_static, shape=_same_shape("uint8"))
reg("tensor.quantized_hardswish", "(Tensor codes, float scale, int zero_point, "
    "float out_scale, int out_zero_point) -> Tensor", hardswish_static,
    shape=_same_shape("uint8"))
reg("tensor.ao_hardswish", "(Tensor codes, float out_scale, int out_zero_point) -> Tensor",
    _unbound, ("ember.quantized.ao_hardswish",), shape=_unknown("uint8"), may_raise=True,
    doc="torch.ao's quantized hardswish, before its input qparams are bound.")
