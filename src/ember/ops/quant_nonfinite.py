"""Dynamic int8 products of inputs holding NaN or infinities, as torch's fbgemm engine
computes them (docs/quantization.md, "Inputs that are not finite").

torch does not reject such inputs; its results follow from fbgemm's AVX2 code and x86's
conversions, and this module reproduces them step by step:

- the range is fbgemm's FindMinMax: eight lanes of `vminps`/`vmaxps` (which return their
  second operand when either is NaN, so a NaN restarts its lane), each lane seeded with the
  first value, then folded and the tail scanned with `std::min`/`std::max` (which keep the
  running value against a NaN). A NaN range (the first value NaN) is torch's "min should be
  less than or equal to max" RuntimeError;
- qparams are choose_qparams' (an infinite range gives an infinite scale, and a NaN zero
  point becomes x86's integer indefinite, -2**31);
- a code is clamp(cvt(min(f32(x * inv + zp), 2**31 - 128)), 0, 255): NaN becomes 255;
- the product is vpmaddubsw's: products of codes above 127 (which reduce_range keeps
  finite inputs from) saturate at int16 in pairs of k (fbgemm's AVX2 and AVX-512 kernels;
  its VNNI kernels do not saturate, and torch's results differ there);
- then int32 arithmetic that wraps: acc - zp * column sum;
- the output f32(raw) * f32(s_x * s_w) + bias, rounded once (0 * inf is NaN).

This is the rare path: integer matmul in int64, no care for speed.
"""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_quant import _f32, _qrange, choose_qparams

_LANES = 8
_I32_FLOAT_MAX = np.float32(2 ** 31 - 128)  # fbgemm's largest int32 exact in float32


def _lane_fold(lanes, seed, less, pick):
    """One of FindMinMax's vector reductions over lanes (R, 8): each lane's value after
    `v = v if less(v, x) else x` from `seed`, as float64 (NaN when the lane ends on one);
    `pick` (np.min / np.max) is that fold over values with no NaN."""
    with np.errstate(invalid="ignore"):
        nan = np.isnan(lanes)
        rows = lanes.shape[0]
        last = np.where(nan.any(axis=0), rows - 1 - np.argmax(nan[::-1], axis=0), -1)
        out = np.empty(_LANES)
        for j in range(_LANES):
            if last[j] == rows - 1:
                out[j] = np.nan
                continue
            best = pick(lanes[last[j] + 1:, j])
            out[j] = best if last[j] >= 0 or less(best, seed) else seed
        return out


def _lt(a, b):
    return a < b


def _gt(a, b):
    return a > b


def _scalar_fold(start, values, less):
    """std::min / std::max folded left: `t = x if less(x, t) else t` (NaN x are skipped)."""
    t = start
    for x in values:
        if less(x, t):
            t = x
    return t


def fbgemm_min_max(flat):
    """fbgemm's FindMinMax of float32 values (len > 0) as Python floats (NaN possible)."""
    flat = np.asarray(flat, np.float32).reshape(-1)
    first = float(flat[0])
    lo = hi = first
    n8 = flat.size // _LANES * _LANES if flat.size >= _LANES else 0
    if n8:
        lanes = flat[:n8].reshape(-1, _LANES).astype(np.float64)
        lo = _scalar_fold(lo, map(float, _lane_fold(lanes, first, _lt, np.min)), _lt)
        hi = _scalar_fold(hi, map(float, _lane_fold(lanes, first, _gt, np.max)), _gt)
    tail = flat[n8:]
    if tail.size:
        good = tail[~np.isnan(tail)]
        if good.size:
            lo = _scalar_fold(lo, (float(good.min()),), _lt)
            hi = _scalar_fold(hi, (float(good.max()),), _gt)
    return lo, hi


def fbgemm_codes(rows, inv, zp):
    """fbgemm's Quantize of float32 rows to uint8 codes (int64), any values."""
    with np.errstate(invalid="ignore", over="ignore"):
        t = (rows.astype(np.float64) * float(inv) + float(np.float32(zp))).astype(np.float32)
        nan = np.isnan(t)
        t = np.minimum(t, _I32_FLOAT_MAX)
        t = np.rint(np.where(nan, 0, t))
    q = np.clip(t, 0, 255).astype(np.int64)  # cvt of -inf or below -2**31 clamps to 0 too
    q[nan] = 255
    return q


def _pair_saturated(q, w):
    """The product of uint8 codes q (M, K) by int8 codes w (K, N) as fbgemm's AVX2 and
    AVX-512 kernels sum it: vpmaddubsw adds the products of k = 2p and 2p + 1 with int16
    saturation, then the pairs add exactly. Only codes above 127 (NaN, an infinity) can
    saturate, so other rows take the plain product."""
    acc = q @ w
    for i in np.flatnonzero(q.max(axis=1) > 127):
        prods = q[i][:, None] * w
        if prods.shape[0] % 2:
            prods = np.concatenate([prods, np.zeros((1, w.shape[1]), np.int64)])
        pairs = prods[0::2] + prods[1::2]
        acc[i] = np.clip(pairs, -2 ** 15, 2 ** 15 - 1).sum(axis=0)
    return acc


def _wrap32(v):
    return (v + 2 ** 31) % 2 ** 32 - 2 ** 31


def fbgemm_product(rows, codes_kn, scale, bias, s_x, zp):
    """f32(f32(raw) * f32(s_x * s_w) + bias) of uint8 codes of rows (M, K) by int8 weight
    codes_kn (K, N): raw = wrap32(acc - wrap32(zp * column sum))."""
    q = fbgemm_codes(rows, _f32(1.0 / s_x), zp)
    w = np.asarray(codes_kn).astype(np.int64)
    raw = _wrap32(_pair_saturated(q, w) - _wrap32(zp * w.sum(axis=0)))
    with np.errstate(invalid="ignore", over="ignore"):
        if isinstance(scale, float):
            m = np.float64(_f32(s_x * scale))
        else:
            m = np.multiply(np.float32(s_x), scale, dtype=np.float32).astype(np.float64)
        y = raw.astype(np.float32).astype(np.float64) * m
        if bias is not None:
            y = y + np.asarray(bias, np.float64)
        return y.astype(np.float32)


def nonfinite_product(rows, codes_kn, scale, bias, reduce_range=True):
    """torch's quantized dynamic linear of rows (M, K), M * K > 0, holding NaN or
    infinities, by weight codes (K, N) with scale (a float, or float32 (N,))."""
    mn, mx = fbgemm_min_max(rows)
    if mn != mn or mx != mx:
        raise RuntimeError("In ChooseQuantizationParams, min should be less than or equal "
                           "to max (the quantized linear's input starts with a NaN)")
    lo, hi = _qrange("quint8", reduce_range)
    s_x, zp = choose_qparams(mn, mx, lo, hi)
    return fbgemm_product(rows, codes_kn, scale, bias, s_x, zp)
