"""Transposed convolutions: conv_transpose1d, conv_transpose2d and conv_transpose3d (stride,
padding, output_padding, groups, dilation, bias), NC* and weights (C_in, C_out / groups,
*kernel) as in torch.

One GEMM per chunk of samples gives every (output channel, tap, input pixel) product —
the columns — and col2im scatters them: each tap of all pixels lands on one strided
slice of the output, so the scatter is one strided add per tap. When the taps of neighbouring
pixels never overlap (stride == kernel, no dilation, no padding: the U-Net / GAN upsampler)
the columns are the output, rearranged by one copy.
"""

from __future__ import annotations

import math
from itertools import product

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import F, as_2d_weight, prepared, reg
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
    """w (C, Og, *k) as (G, Og*prod(k), C/G): the GEMM's left operand, contiguous."""
    c = w.shape[0]
    return np.ascontiguousarray(w.reshape(groups, c // groups, -1).transpose(0, 2, 1))


def _columns(x, wt):
    """(N, G, Og*prod(k), prod(spatial)): every output-channel tap of every input pixel."""
    n, c = x.shape[:2]
    g = wt.shape[0]
    return np.matmul(wt, x.reshape(n, g, c // g, -1))


def _scatter(cols, out, o, k, stride, dil, sizes):
    """col2im: out (N, O, *full) += each tap's columns at its strided output slice."""
    taps = cols.reshape((cols.shape[0], o) + tuple(k) + tuple(sizes))
    for tap in product(*(range(ki) for ki in k)):
        where = tuple(slice(t * d, t * d + (h - 1) * s + 1, s)
                      for t, s, d, h in zip(tap, stride, dil, sizes))
        out[(slice(None),) * 2 + where] += taps[(slice(None),) * 2 + tap]


def _tile(cols, o, k, sizes):
    """stride == kernel: the taps tile the output; one transposing copy."""
    n, nd = cols.shape[0], len(k)
    taps = cols.reshape((n, o) + tuple(k) + tuple(sizes))
    order = (0, 1) + tuple(j for i in range(nd) for j in (2 + nd + i, 2 + i))
    return taps.transpose(order).reshape((n, o) + tuple(h * ki for h, ki in zip(sizes, k)))


def _transposed(x, w, groups, stride, pads, out_pad, dil, what):
    """The unbiased transposed convolution of batched x; (N, O, *out)."""
    n, sizes, k = x.shape[0], x.shape[2:], w.shape[2:]
    o = w.shape[1] * groups
    out = tuple(transposed_out(*a) for a in zip(sizes, k, stride, pads, out_pad, dil))
    if min(out) <= 0:
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, sizes))}), "
                           f"calculated output size per channel: "
                           f"({' x '.join(map(str, out))}). Output size is too small")
    wt = prepared(f"{what}.w", (w,), lambda a: _weight_columns(a, groups))
    if tuple(k) == tuple(stride) and not any(pads) and not any(out_pad) and \
            all(d == 1 for d in dil):
        return _tile(_columns(x, wt), o, k, sizes)
    full = tuple(max((h - 1) * s + d * (ki - 1) + 1, p + oi)
                 for h, s, d, ki, p, oi in zip(sizes, stride, dil, k, pads, out))
    result = np.zeros((n, o) + full, x.dtype)
    per_sample = max(1, o * math.prod(k) * math.prod(sizes) * x.dtype.itemsize)
    chunk = max(1, _CHUNK_BYTES // per_sample)
    for s in range(0, n, chunk):
        _scatter(_columns(x[s:s + chunk], wt), result[s:s + chunk], o, k, stride, dil, sizes)
    return result[(slice(None),) * 2 + tuple(slice(p, p + oi) for p, oi in zip(pads, out))]


def _conv_transpose(x, w, b, stride, padding, output_padding, groups, dilation, n):
    """The n-d transposed convolution of batched or unbatched x."""
    what = f"conv_transpose{n}d"
    if x.ndim == n + 1:
        return _conv_transpose(x[None], w, b, stride, padding, output_padding, groups,
                               dilation, n)[0]
    if x.ndim != n + 2 or w.ndim != n + 2:
        raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to "
                           f"{what}, but got input of size: {list(x.shape)}")
    st, dil = ntuple(stride, n, "stride"), ntuple(dilation, n, "dilation")
    pads = ntuple(padding, n, "padding")
    out_pad = ntuple(output_padding, n, "output_padding")
    if any(v < 0 for v in pads + out_pad) or any(v <= 0 for v in st + dil):
        raise RuntimeError(f"{what}: negative padding or non-positive stride or dilation is "
                           "not supported")
    _check(x, w, b, groups, st, out_pad, dil, what)
    out = _transposed(x, w, groups, st, pads, out_pad, dil, what)  # fresh, or a crop of one
    if b is None:
        return np.ascontiguousarray(out)
    shape = (1, -1) + (1,) * n
    if out.flags.c_contiguous:
        out += b.reshape(shape)
        return out
    return np.add(out, b.reshape(shape))  # adds and compacts the crop in one pass


def conv_transpose3d(x, w, b, stride, padding, output_padding, groups, dilation):
    """3-D transposed convolution of (N, C, D, H, W) (or (C, D, H, W)) by weight
    (C, O/groups, kd, kh, kw)."""
    return _conv_transpose(x, w, b, stride, padding, output_padding, groups, dilation, 3)


def conv_transpose2d(x, w, b, stride, padding, output_padding, groups, dilation):
    """2-D transposed convolution of (N, C, H, W) (or (C, H, W)) by weight
    (C, O/groups, kh, kw)."""
    return _conv_transpose(x, w, b, stride, padding, output_padding, groups, dilation, 2)


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
    out = conv_transpose2d(x[:, :, None, :], as_2d_weight(w), b, (1, one[0]), (0, one[1]),
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
reg("tensor.conv_transpose3d", _SCHEMA, conv_transpose3d,
    (f"{F}.conv_transpose3d", "torch.conv_transpose3d"), _info(3), may_raise=True)
reg("tensor.conv_transpose1d", _SCHEMA, conv_transpose1d,
    (f"{F}.conv_transpose1d", "torch.conv_transpose1d"), _info(1), may_raise=True)
