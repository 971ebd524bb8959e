"""Transposed convolutions: conv_transpose1d and conv_transpose2d (stride, padding,
output_padding, groups, dilation, bias), NCHW and weights (C_in, C_out / groups, kh, kw) as
in torch.

One GEMM per chunk of samples gives every (output channel, tap, input pixel) product —
the columns — and col2im scatters them: tap (i, j) of all pixels lands on one strided
slice of the output, so the scatter is kh * kw strided adds. When the taps of neighbouring
pixels never overlap (stride == kernel, no dilation, no padding: the U-Net / GAN upsampler)
the columns are the output, rearranged by one copy.
"""

from __future__ import annotations

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import F, prepared, reg
from ember.ops.tensor_conv import ntuple
from ember.ops.tensorinfo import TensorInfo, fmt, same_dim

_CHUNK_BYTES = 1 << 23
"""Column buffer budget per GEMM (8 MB): samples are processed in chunks this size."""


def transposed_out(size, k, s, p, op, d):
    """Output length of a transposed convolution along one dim (None if not known)."""
    if any(not isinstance(v, int) for v in (size, k, s, p, op, d)):
        return None
    return (size - 1) * s - 2 * p + d * (k - 1) + op + 1


def _check(x, w, b, groups, stride, out_pad, dil, what):
    if x.dtype != w.dtype or (b is not None and b.dtype != x.dtype):
        raise RuntimeError(f"{what}: input type ({x.dtype}) and weight type ({w.dtype}) should "
                           "be the same")
    if groups <= 0 or w.shape[0] % groups:
        raise RuntimeError(f"{what}: groups must be a positive divisor of the input channels "
                           f"of the weight ({w.shape[0]}), got {groups}")
    if x.shape[1] != w.shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {list(w.shape)}, expected "
                           f"input{list(x.shape)} to have {w.shape[0]} channels, but got "
                           f"{x.shape[1]} channels instead")
    if b is not None and b.shape != (w.shape[1] * groups,):
        raise RuntimeError(f"{what}: bias of shape {list(b.shape)} for "
                           f"{w.shape[1] * groups} output channels")
    if any(o >= s and o >= d for o, s, d in zip(out_pad, stride, dil)):
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, "
                           f"but got output_padding={list(out_pad)}, stride={list(stride)}, "
                           f"dilation={list(dil)}")


def _weight_columns(w, groups):
    """w (C, Og, kh, kw) as (G, Og*kh*kw, C/G): the GEMM's left operand, contiguous."""
    c = w.shape[0]
    return np.ascontiguousarray(w.reshape(groups, c // groups, -1).transpose(0, 2, 1))


def _columns(x, wt):
    """(N, G, Og*kh*kw, H*W): every output-channel tap of every input pixel."""
    n, c, h, wd = x.shape
    g = wt.shape[0]
    return np.matmul(wt, x.reshape(n, g, c // g, h * wd))


def _scatter(cols, out, o, k, stride, dil, hw):
    """col2im: out (N, O, Hb, Wb) += each tap's columns at its strided output slice."""
    n = cols.shape[0]
    (kh, kw), (sh, sw), (dh, dw), (h, wd) = k, stride, dil, hw
    taps = cols.reshape(n, o, kh, kw, h, wd)
    for i in range(kh):
        rows = slice(i * dh, i * dh + (h - 1) * sh + 1, sh)
        for j in range(kw):
            out[:, :, rows, j * dw:j * dw + (wd - 1) * sw + 1:sw] += taps[:, :, i, j]


def _tile(cols, o, k, hw):
    """stride == kernel: the taps tile the output; one transposing copy."""
    n = cols.shape[0]
    (kh, kw), (h, wd) = k, hw
    taps = cols.reshape(n, o, kh, kw, h, wd).transpose(0, 1, 4, 2, 5, 3)
    return taps.reshape(n, o, h * kh, wd * kw)


def _transposed(x, w, groups, stride, pads, out_pad, dil):
    """The unbiased transposed convolution of batched x; (N, O, Ho, Wo)."""
    n, _, h, wd = x.shape
    kh, kw = w.shape[2:]
    o = w.shape[1] * groups
    ho, wo = (transposed_out(s, k, st, p, op, d) for s, k, st, p, op, d in
              zip((h, wd), (kh, kw), stride, pads, out_pad, dil))
    if ho <= 0 or wo <= 0:
        raise RuntimeError(f"Given input size per channel: ({h} x {wd}), calculated output "
                           f"size per channel: ({ho} x {wo}). Output size is too small")
    wt = prepared("conv_transpose.w", (w,), lambda a: _weight_columns(a, groups))
    if (kh, kw) == tuple(stride) and dil == (1, 1) and pads == (0, 0) and \
            out_pad == (0, 0):
        return _tile(_columns(x, wt), o, (kh, kw), (h, wd))
    full_h = max((h - 1) * stride[0] + dil[0] * (kh - 1) + 1, pads[0] + ho)
    full_w = max((wd - 1) * stride[1] + dil[1] * (kw - 1) + 1, pads[1] + wo)
    out = np.zeros((n, o, full_h, full_w), x.dtype)
    per_sample = max(1, o * kh * kw * h * wd * x.dtype.itemsize)
    chunk = max(1, _CHUNK_BYTES // per_sample)
    for s in range(0, n, chunk):
        _scatter(_columns(x[s:s + chunk], wt), out[s:s + chunk], o, (kh, kw), stride, dil,
                 (h, wd))
    return out[:, :, pads[0]:pads[0] + ho, pads[1]:pads[1] + wo]


def conv_transpose2d(x, w, b, stride, padding, output_padding, groups, dilation):
    """2-D transposed convolution of (N, C, H, W) (or (C, H, W)) by weight
    (C, O/groups, kh, kw)."""
    if x.ndim == 3:
        return conv_transpose2d(x[None], w, b, stride, padding, output_padding, groups,
                                dilation)[0]
    if x.ndim != 4 or w.ndim != 4:
        raise RuntimeError(f"Expected 3D (unbatched) or 4D (batched) input to "
                           f"conv_transpose2d, but got input of size: {list(x.shape)}")
    st, dil = ntuple(stride, 2, "stride"), ntuple(dilation, 2, "dilation")
    pads, out_pad = ntuple(padding, 2, "padding"), ntuple(output_padding, 2, "output_padding")
    if any(v < 0 for v in pads + out_pad) or any(v <= 0 for v in st + dil):
        raise RuntimeError("conv_transpose2d: negative padding or non-positive stride or "
                           "dilation is not supported")
    _check(x, w, b, groups, st, out_pad, dil, "conv_transpose2d")
    out = _transposed(x, w, groups, st, pads, out_pad, dil)  # fresh, or a crop of a fresh one
    if b is None:
        return np.ascontiguousarray(out)
    if out.flags.c_contiguous:
        out += b.reshape(1, -1, 1, 1)
        return out
    return np.add(out, b.reshape(1, -1, 1, 1))  # adds and compacts the crop in one pass


def conv_transpose1d(x, w, b, stride, padding, output_padding, groups, dilation):
    """1-D transposed convolution of (N, C, L) (or (C, L)) by weight (C, O/groups, k)."""
    if x.ndim == 2:
        return conv_transpose1d(x[None], w, b, stride, padding, output_padding, groups,
                                dilation)[0]
    if x.ndim != 3 or w.ndim != 3:
        raise RuntimeError(f"Expected 2D (unbatched) or 3D (batched) input to "
                           f"conv_transpose1d, but got input of size: {list(x.shape)}")
    one = [ntuple(v, 1, what)[0] for v, what in ((stride, "stride"), (padding, "padding"),
                                                (output_padding, "output_padding"),
                                                (dilation, "dilation"))]
    out = conv_transpose2d(x[:, :, None, :], w[:, :, None, :], b, (1, one[0]), (0, one[1]),
                           (0, one[2]), groups, (1, one[3]))
    return out[:, :, 0, :]


# ----------------------------------------------------------------------------- shape function


def _as_tuple(v, n):
    try:
        return ntuple(v, n)
    except (TypeError, RuntimeError):
        return None


def _spatial(xs, w, consts, n):
    """The output's spatial sizes (None where unknown)."""
    st, pad, out_pad, dil = (_as_tuple(v, n) for v in consts)
    if None in (st, pad, out_pad, dil):
        return (None,) * n
    sizes = tuple(transposed_out(xs[2 + i], w.shape[2 + i], st[i], pad[i], out_pad[i], dil[i])
                  for i in range(n))
    if any(isinstance(s, int) and s <= 0 for s in sizes):
        raise ShapeMismatch(f"conv_transpose{n}d: input {fmt(xs)} gives an empty output "
                            f"{fmt(sizes)}")
    return sizes


def _info(n):
    def info(args):
        x, w = args[0], args[1]
        stride, padding, out_pad, groups, dilation = (a.const for a in args[3:8])
        if x.shape is None or w.shape is None or len(w.shape) != n + 2 or \
                len(x.shape) not in (n + 1, n + 2):
            return TensorInfo(x.dtype, None)
        if x.dtype and w.dtype and x.dtype != w.dtype:
            raise ShapeMismatch(f"conv_transpose{n}d: input dtype {x.dtype} and weight dtype "
                                f"{w.dtype} differ")
        batched = len(x.shape) == n + 2
        xs = x.shape if batched else (1,) + x.shape
        if same_dim(xs[1], w.shape[0]) is False:
            raise ShapeMismatch(f"conv_transpose{n}d: input {fmt(x.shape)} has {xs[1]} "
                                f"channels but the weight {fmt(w.shape)} expects {w.shape[0]}")
        o = w.shape[1] * groups if isinstance(w.shape[1], int) and isinstance(groups, int) \
            else None
        out = (xs[0], o) + _spatial(xs, w, (stride, padding, out_pad, dilation), n)
        return TensorInfo(x.dtype, out if batched else out[1:])
    return info


_SCHEMA = ("(Tensor input, Tensor weight, Tensor? bias=None, Any stride=1, Any padding=0, "
           "Any output_padding=0, int groups=1, Any dilation=1) -> Tensor")
reg("tensor.conv_transpose2d", _SCHEMA, conv_transpose2d,
    (f"{F}.conv_transpose2d", "torch.conv_transpose2d"), _info(2), may_raise=True)
reg("tensor.conv_transpose1d", _SCHEMA, conv_transpose1d,
    (f"{F}.conv_transpose1d", "torch.conv_transpose1d"), _info(1), may_raise=True)
