"""Convolutions: conv1d, conv2d and conv3d (stride, padding incl. "same"/"valid", dilation,
groups incl. depthwise), NCHW as in torch, each lowered to as few BLAS calls as
numpy allows.

- 1x1, stride 1, no padding: one (O, C) @ (C, H*W) matmul per sample, no copy.
- stride 1 ("wide" im2col): the input is zero-padded once and flattened per
  channel; tap (i, j) of every output pixel is then one contiguous run of the
  flat image, so the column matrix is 9 long row copies and the product is
  one (O, C*kh*kw) @ (C*kh*kw, Ho*Wp) GEMM whose Wp - Wo extra columns per row
  are never read (the result is a view that skips them).
- stride > 1, and every conv3d but the pointwise: classic im2col through a strided view
  over any number of spatial dims, copied once per band of output rows.
- depthwise (groups == channels): per channel block, the same shifted runs
  copied into a (block, 9, L) buffer and one batched (1, 9) @ (9, L) matmul.
Samples are processed one at a time so the column buffer stays in cache.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import F, as_2d_weight, reg
from ember.ops.tensorinfo import TensorInfo, fmt, same_dim
from ember.ops.workspace import padded, scratch

_DW_BLOCK = 32
"""Channels per block in the depthwise kernel (keeps its buffer in L2; measured)."""

_COLS_BYTES = 1 << 24
"""Column buffer budget of the general im2col path (16 MB): larger outputs go in bands."""


def ntuple(v, n, what="argument"):
    """An int or a sequence of ints as an n-tuple (torch's int[n] broadcasting)."""
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return (int(v),) * n
    v = tuple(v)
    if len(v) == 1:
        return v * n
    if len(v) != n:
        raise RuntimeError(f"expected {what} to be a single integer value or a list of {n} "
                           f"values, but got {list(v)}")
    return v


def same_padding(k, d):
    """(before, after) padding that keeps the size for stride 1 (torch pads extra after)."""
    total = d * (k - 1)
    return total // 2, total - total // 2


def _pads(padding, ks, dil, stride):
    n = len(ks)
    if isinstance(padding, str):
        if padding == "valid":
            return [(0, 0)] * n
        if padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            return [same_padding(k, d) for k, d in zip(ks, dil)]
        raise ValueError(f"Invalid padding string '{padding}', should be one of ['valid', "
                         "'same']")
    p = ntuple(padding, n, "padding")
    if any(v < 0 for v in p):
        raise RuntimeError("negative padding is not supported")
    return [(v, v) for v in p]


# ----------------------------------------------------------------------------- GEMM paths


def _padded(x, pads, extra_rows=0):
    """x zero-padded in its spatial dims (pads: (before, after) each), plus extra zero rows
    at the end of the first spatial dim (read-overrun room)."""
    if not (any(b or a for b, a in pads) or extra_rows):
        return x if x.flags.c_contiguous else np.ascontiguousarray(x)
    sizes = [s + b + a for s, (b, a) in zip(x.shape[2:], pads)]
    sizes[0] += extra_rows
    xp = np.zeros(x.shape[:2] + tuple(sizes), x.dtype)
    xp[(slice(None), slice(None)) + tuple(slice(b, b + s) for s, (b, _) in
                                          zip(x.shape[2:], pads))] = x
    return xp


def _padded_scratch(name, x, pads, extra_rows=0):
    """_padded, in the thread's scratch buffer `name` (ops/workspace.py) when it copies."""
    if not (any(b or a for b, a in pads) or extra_rows):
        return x if x.flags.c_contiguous else np.ascontiguousarray(x)
    return padded(name, x, pads, extra_rows)


def _conv_wide(x, w2, kh, kw, pads, dil, groups):
    """Stride-1 convolution through the wide im2col; returns (N, O, Ho, Wo), contiguous
(each sample's wide result, in cache, is compacted as it is made)."""
    n, c, h, wd = x.shape
    dh, dw = dil
    hp, wp = h + sum(pads[0]), wd + sum(pads[1])
    ho, wo = hp - dh * (kh - 1), wp - dw * (kw - 1)
    if ho <= 0 or wo <= 0:
        raise RuntimeError(_too_small(x, (kh, kw)))
    extra = -(-(dw * (kw - 1)) // wp)
    xp = _padded_scratch("conv.xp", x, pads, extra)
    flat = xp.reshape(n, c, -1)
    big_l = ho * wp
    s1, s2 = flat.strides[1], flat.strides[2]
    o = w2.shape[0] * w2.shape[1] if w2.ndim == 3 else w2.shape[0]
    out = np.empty((n, o, ho, wo), x.dtype)
    wide = scratch("conv.wide", (o, ho, wp), x.dtype)
    cols = scratch("conv.cols", (c * kh * kw, big_l), x.dtype)
    for i in range(n):
        view = as_strided(flat[i], (c, kh, kw, big_l), (s1, dh * wp * s2, dw * s2, s2),
                          writeable=False)
        np.copyto(cols.reshape(c, kh, kw, big_l), view)
        _gemm(w2, cols, wide.reshape(o, big_l), groups)
        np.copyto(out[i], wide[:, :, :wo])
    return out


def _conv_im2col(x, w2, ks, stride, pads, dil, groups):
    """Convolution over any number of spatial dims through a strided-view im2col copy; the
    columns cover a band of output rows (first spatial dim) that keeps them under
    _COLS_BYTES, and one GEMM per band writes them out."""
    n, c = x.shape[:2]
    xp = _padded(x, pads)
    out_sp = tuple((xp.shape[2 + i] - d * (k - 1) - 1) // s + 1
                   for i, (k, s, d) in enumerate(zip(ks, stride, dil)))
    if min(out_sp) <= 0:
        raise RuntimeError(_too_small(x, ks))
    o = w2.shape[0] * w2.shape[1] if w2.ndim == 3 else w2.shape[0]
    out = np.empty((n, o) + out_sp, x.dtype)
    k, rest = c * math.prod(ks), math.prod(out_sp[1:])
    band = max(1, min(out_sp[0], _COLS_BYTES // max(1, k * rest * x.dtype.itemsize)))
    buf = np.empty(k * band * rest, x.dtype)
    sc, *ss = xp.strides[1:]
    view_strides = (sc,) + tuple(d * s for d, s in zip(dil, ss)) + \
        tuple(st * s for st, s in zip(stride, ss))
    for i in range(n):
        for r0 in range(0, out_sp[0], band):
            r = min(band, out_sp[0] - r0)
            shape = (c,) + tuple(ks) + (r,) + out_sp[1:]
            view = as_strided(xp[i, :, r0 * stride[0]:], shape, view_strides, writeable=False)
            cols = buf[:k * r * rest].reshape(k, r * rest)
            np.copyto(cols.reshape(shape), view)
            if r == out_sp[0]:
                _gemm(w2, cols, out[i].reshape(o, -1), groups)
            else:
                y = _gemm(w2, cols, None, groups)
                out[i, :, r0:r0 + r] = y.reshape((o, r) + out_sp[1:])
    return out


def _gemm(w2, cols, out, groups):
    """w2 @ cols (into out, if given), per group when w2 is (G, Og, K) and cols (G*K, L)."""
    if groups == 1:
        return np.matmul(w2, cols, out=out)
    g, og, k = w2.shape
    y = np.matmul(w2, cols.reshape(g, k, -1), out=None if out is None else
                  out.reshape(g, og, -1))
    return y.reshape(g * og, -1)


def _conv_1x1(x, w2, b, stride, groups):
    """Pointwise convolution: one GEMM per sample; (N, O, H, W) and whether b was added.
    With fewer input than output channels the bias rides in the GEMM: a row of ones under
    a copy of the input costs less than a broadcast add over the larger output."""
    if stride != (1, 1):
        x = x[:, :, ::stride[0], ::stride[1]]
    n, c, h, wd = x.shape
    flat = x.reshape(n, c, h * wd)
    if groups == 1 and b is not None and c < w2.shape[0]:
        ones = np.empty((n, c + 1, h * wd), x.dtype)
        ones[:, :c] = flat
        ones[:, c] = 1
        wb = np.concatenate((w2, b.reshape(-1, 1)), axis=1)
        return np.matmul(wb, ones).reshape(n, -1, h, wd), True
    if groups == 1:
        return np.matmul(w2, flat).reshape(n, -1, h, wd), False
    g, og, k = w2.shape
    return np.matmul(w2, flat.reshape(n, g, k, h * wd)).reshape(n, g * og, h, wd), False


def _depthwise(x, w, pads, dil):
    """Stride-1 depthwise convolution: per channel, the sum over taps of shifted runs."""
    n, c, h, wd = x.shape
    kh, kw = w.shape[2:]
    dh, dw = dil
    hp, wp = h + sum(pads[0]), wd + sum(pads[1])
    ho, wo = hp - dh * (kh - 1), wp - dw * (kw - 1)
    if ho <= 0 or wo <= 0:
        raise RuntimeError(_too_small(x, (kh, kw)))
    extra = -(-(dw * (kw - 1)) // wp)
    flat = _padded_scratch("conv.xp", x, pads, extra).reshape(n * c, -1)
    big_l, taps = ho * wp, kh * kw
    wk = np.broadcast_to(w.reshape(1, c, 1, taps), (n, c, 1, taps)).reshape(n * c, 1, taps)
    out = np.empty((n * c, ho, wo), x.dtype)
    block = min(_DW_BLOCK, n * c)
    cols = scratch("conv.cols", (block, taps, big_l), x.dtype)
    wide = scratch("conv.wide", (block, 1, big_l), x.dtype)
    s0, s1 = flat.strides
    for b0 in range(0, n * c, block):
        nb = min(block, n * c - b0)
        view = as_strided(flat[b0:], (nb, kh, kw, big_l), (s0, dh * wp * s1, dw * s1, s1),
                          writeable=False)
        np.copyto(cols[:nb].reshape(nb, kh, kw, big_l), view)
        np.matmul(wk[b0:b0 + nb], cols[:nb], out=wide[:nb])
        np.copyto(out[b0:b0 + nb], wide[:nb].reshape(nb, ho, wp)[:, :, :wo])
    return out.reshape(n, c, ho, wo)


def _too_small(x, ks):
    return (f"Calculated output size is too small: input of spatial size "
            f"{'x'.join(map(str, x.shape[2:]))} for a {'x'.join(map(str, ks))} kernel")


# ----------------------------------------------------------------------------- conv2d


def _check(x, w, b, groups, what):
    if x.dtype != w.dtype or (b is not None and b.dtype != x.dtype):
        raise RuntimeError(f"{what}: input type ({x.dtype}) and weight type ({w.dtype}) should "
                           "be the same")
    if groups <= 0 or w.shape[0] % groups:
        raise RuntimeError(f"{what}: groups must be a positive divisor of the out channels "
                           f"({w.shape[0]}), got {groups}")
    if x.shape[1] != w.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(w.shape)}, expected "
                           f"input{list(x.shape)} to have {w.shape[1] * groups} channels, but "
                           f"got {x.shape[1]} channels instead")


def conv2d(x, w, b, stride, padding, dilation, groups):
    """2-D convolution of (N, C, H, W) (or (C, H, W)) by weight (O, C/groups, kh, kw)."""
    if x.ndim == 3:
        return conv2d(x[None], w, b, stride, padding, dilation, groups)[0]
    if x.ndim != 4 or w.ndim != 4:
        raise RuntimeError(f"Expected 3D (unbatched) or 4D (batched) input to conv2d, but got "
                           f"input of size: {list(x.shape)}")
    _check(x, w, b, groups, "conv2d")
    kh, kw = w.shape[2:]
    st, dil = ntuple(stride, 2, "stride"), ntuple(dilation, 2, "dilation")
    pads = _pads(padding, (kh, kw), dil, st)
    c, o = x.shape[1], w.shape[0]
    if groups == c and w.shape[1] == 1 and st == (1, 1) and kh * kw > 1:
        if o != c:
            x = np.repeat(x, o // c, axis=1)
        out = _depthwise(x, w, pads, dil)
    else:
        w2 = w.reshape(o, -1) if groups == 1 else w.reshape(groups, o // groups, -1)
        if kh == kw == 1 and pads == [(0, 0), (0, 0)]:
            out, biased = _conv_1x1(x, w2, b, st, groups)
            b = None if biased else b
        elif st == (1, 1):
            out = _conv_wide(x, w2, kh, kw, pads, dil, groups)
        else:
            out = _conv_im2col(x, w2, (kh, kw), st, pads, dil, groups)
    return _add_bias(out, b)


def _add_bias(out, b):
    """out plus the per-channel bias b (None: out unchanged); out is always a fresh array
    or a view of one, so a contiguous one is updated in place."""
    if b is None:
        return out
    shape = (1, -1) + (1,) * (out.ndim - 2)
    if out.flags.c_contiguous:
        out += b.reshape(shape)
        return out
    return np.add(out, b.reshape(shape))  # a column-trimmed view: one pass adds and compacts


def conv3d(x, w, b, stride, padding, dilation, groups):
    """3-D convolution of (N, C, D, H, W) (or (C, D, H, W)) by weight (O, C/groups, kd, kh,
    kw): pointwise as one GEMM per sample, otherwise through N-d im2col columns."""
    if x.ndim == 4:
        return conv3d(x[None], w, b, stride, padding, dilation, groups)[0]
    if x.ndim != 5 or w.ndim != 5:
        raise RuntimeError(f"Expected 4D (unbatched) or 5D (batched) input to conv3d, but got "
                           f"input of size: {list(x.shape)}")
    _check(x, w, b, groups, "conv3d")
    ks = tuple(w.shape[2:])
    st, dil = ntuple(stride, 3, "stride"), ntuple(dilation, 3, "dilation")
    pads = _pads(padding, ks, dil, st)
    o = w.shape[0]
    w2 = w.reshape(o, -1) if groups == 1 else w.reshape(groups, o // groups, -1)
    if ks == (1, 1, 1) and pads == [(0, 0)] * 3:
        xs = x[:, :, ::st[0], ::st[1], ::st[2]]
        n, c, d, h, wd = xs.shape
        out, biased = _conv_1x1(xs.reshape(n, c, d * h, wd), w2, b, (1, 1), groups)
        return _add_bias(out.reshape(n, o, d, h, wd), None if biased else b)
    return _add_bias(_conv_im2col(x, w2, ks, st, pads, dil, groups), b)


def conv1d(x, w, b, stride, padding, dilation, groups):
    """1-D convolution of (N, C, L) (or (C, L)) by weight (O, C/groups, k)."""
    if x.ndim == 2:
        return conv1d(x[None], w, b, stride, padding, dilation, groups)[0]
    if x.ndim != 3 or w.ndim != 3:
        raise RuntimeError(f"Expected 2D (unbatched) or 3D (batched) input to conv1d, but got "
                           f"input of size: {list(x.shape)}")
    pad = padding if isinstance(padding, str) else (0, ntuple(padding, 1, "padding")[0])
    out = conv2d(x[:, :, None, :], as_2d_weight(w), b, (1, ntuple(stride, 1, "stride")[0]),
                 pad, (1, ntuple(dilation, 1, "dilation")[0]), groups)
    return out[:, :, 0, :]


# ----------------------------------------------------------------------------- shape functions


def conv_out(size, k, s, p, d):
    """Output length of a convolution/pooling window (None if not known)."""
    if any(not isinstance(v, int) for v in (size, k, s, p, d)):
        return None
    return (size + p - d * (k - 1) - 1) // s + 1


def _as_tuple(v, n):
    try:
        return ntuple(v, n)
    except (TypeError, RuntimeError):
        return None


def _conv_info(n):
    def info(args):
        x, w = args[0], args[1]
        stride, padding, dilation, groups = (a.const for a in args[3:7])
        if x.shape is None or w.shape is None or len(w.shape) != n + 2 or \
                len(x.shape) not in (n + 1, n + 2):
            return TensorInfo(x.dtype, None)
        if x.dtype and w.dtype and x.dtype != w.dtype:
            raise ShapeMismatch(f"conv{n}d: input dtype {x.dtype} and weight dtype {w.dtype} "
                                "differ")
        batched = len(x.shape) == n + 2
        xs = x.shape if batched else (1,) + x.shape
        if isinstance(groups, int) and same_dim(xs[1], _mul(w.shape[1], groups)) is False:
            raise ShapeMismatch(f"conv{n}d: input {fmt(x.shape)} has {xs[1]} channels but the "
                                f"weight {fmt(w.shape)} with groups={groups} expects "
                                f"{_mul(w.shape[1], groups)}")
        st, dil = _as_tuple(stride, n), _as_tuple(dilation, n)
        if padding == "same":
            spatial = xs[2:]
        elif st is None or dil is None or (pad := _as_tuple(
                0 if padding == "valid" else padding, n)) is None:
            spatial = (None,) * n
        else:
            spatial = tuple(conv_out(xs[2 + i], w.shape[2 + i], st[i], 2 * pad[i], dil[i])
                            for i in range(n))
        out = (xs[0], w.shape[0]) + spatial
        return TensorInfo(x.dtype, out if batched else out[1:])
    return info


def conv_tbc(x, w, b, pad=0):
    """torch.conv_tbc: a 1-D convolution of time-batch-channel input (T, B, C) by weight
    (k, C, O) plus bias (O,), padded by pad on both ends of T; (T', B, O) out."""
    if x.ndim != 3 or w.ndim != 3 or b.ndim != 1:
        raise RuntimeError(f"conv_tbc: expected a 3-D input and weight and a 1-D bias, got "
                           f"{x.ndim}-D, {w.ndim}-D and {b.ndim}-D")
    if w.shape[1] != x.shape[2]:
        raise RuntimeError("conv_tbc: Input dim 2 (input channels) is not == dim 1 in the "
                           "weight tensor")
    if b.shape[0] != w.shape[2]:
        raise RuntimeError("conv_tbc: Bias has incorrect size. Must match dim 2 of weight")
    out = conv1d(np.ascontiguousarray(x.transpose(1, 2, 0)),
                 np.ascontiguousarray(w.transpose(2, 1, 0)), b, 1, pad, 1, 1)
    return np.ascontiguousarray(out.transpose(2, 0, 1))


def _mul(a, b):
    return a * b if isinstance(a, int) and isinstance(b, int) else None


_CONV = ("(Tensor input, Tensor weight, Tensor? bias=None, Any stride=1, Any padding=0, "
         "Any dilation=1, int groups=1) -> Tensor")
reg("tensor.conv2d", _CONV, conv2d, (f"{F}.conv2d", "torch.conv2d"), _conv_info(2),
    may_raise=True)
reg("tensor.conv3d", _CONV, conv3d, (f"{F}.conv3d", "torch.conv3d"), _conv_info(3),
    may_raise=True)
reg("tensor.conv1d", _CONV, conv1d, (f"{F}.conv1d", "torch.conv1d"), _conv_info(1),
    may_raise=True)
reg("tensor.conv_tbc", "(Tensor self, Tensor weight, Tensor bias, int pad=0) -> Tensor", conv_tbc,
    (f"{F}.conv_tbc", "torch.conv_tbc"), lambda a: TensorInfo(a[0].dtype, None), may_raise=True)
