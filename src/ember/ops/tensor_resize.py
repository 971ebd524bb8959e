"""Padding and resampling: F.pad (constant, reflect, replicate, circular; negative pads
crop) and F.interpolate / F.upsample (nearest, linear, bilinear; size or scale_factor;
align_corners), with torch's source-index rules.
"""

from __future__ import annotations

import math

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import F, reg
from ember.ops.tensorinfo import TensorInfo

_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def pad(x, pads, mode, value):
    """F.pad: pads holds (before, after) pairs starting from the last dim."""
    pads = [pads] if isinstance(pads, int) else list(pads)
    if len(pads) % 2 or len(pads) // 2 > x.ndim:
        raise RuntimeError(f"Padding length must be divisible by 2 and at most twice the "
                           f"number of dimensions of the input, got {len(pads)} for a "
                           f"{x.ndim}-D input")
    if mode not in _MODES:
        raise NotImplementedError(f"Unsupported padding mode: {mode}")
    widths = [(0, 0)] * x.ndim
    for i in range(len(pads) // 2):
        widths[x.ndim - 1 - i] = (pads[2 * i], pads[2 * i + 1])
    if mode != "constant":
        if value not in (None, 0, 0.0):
            raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
        if x.ndim - len(pads) // 2 not in (1, 2):
            raise NotImplementedError(f"Padding size {len(pads)} is not supported for "
                                      f"{x.ndim}D input tensor (mode {mode} pads the last "
                                      "1-3 dims of a batched or unbatched input)")
    crop = tuple(slice(max(-a, 0), x.shape[d] - max(-b, 0)) for d, (a, b) in enumerate(widths))
    if any(a < 0 or b < 0 for a, b in widths):
        if mode != "constant":
            raise RuntimeError(f"negative padding is only supported in constant mode, not "
                               f"{mode}")
        x = x[crop]
        widths = [(max(a, 0), max(b, 0)) for a, b in widths]
    if mode == "reflect":
        for d, (a, b) in enumerate(widths):
            if a >= x.shape[d] or b >= x.shape[d]:
                raise RuntimeError(f"Argument #4: Padding size should be less than the "
                                   f"corresponding input dimension, but got: padding ({a}, "
                                   f"{b}) at dimension {d} of input {list(x.shape)}")
    if mode == "constant":
        return np.pad(x, widths, constant_values=0 if value is None else value)
    return np.pad(x, widths, mode=_MODES[mode])


def _pad_info(args):
    x, pads = args[0], args[1].const
    if x.shape is None or pads is None:
        return TensorInfo(x.dtype, None)
    pads = [pads] if isinstance(pads, int) else list(pads)
    if len(pads) % 2 or len(pads) // 2 > len(x.shape):
        raise ShapeMismatch(f"F.pad: {len(pads)} padding values for a tensor of rank "
                            f"{len(x.shape)}")
    shape = list(x.shape)
    for i in range(len(pads) // 2):
        d = len(shape) - 1 - i
        shape[d] = shape[d] + pads[2 * i] + pads[2 * i + 1] if isinstance(shape[d], int) \
            else None
    return TensorInfo(x.dtype, tuple(shape))


reg("tensor.pad", "(Tensor input, Any pad, str mode='constant', float? value=None) -> Tensor",
    pad, (f"{F}.pad",), _pad_info, may_raise=True)

# ----------------------------------------------------------------------------- interpolate


def _sizes(x, size, scale, n):
    if (size is None) == (scale is None):
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        out = (size,) * n if isinstance(size, int) else tuple(size)
        if len(out) != n:
            raise ValueError(f"size shape must match input shape. Input is {n}D, size is "
                             f"{len(out)}")
        return out, [None] * n
    scales = (float(scale),) * n if isinstance(scale, (int, float)) else tuple(scale)
    return tuple(math.floor(x.shape[2 + i] * scales[i]) for i in range(n)), list(scales)


def _source(in_size, out_size, scale, align_corners, nearest):
    """Source coordinates of each output index along one dim (torch's formulas)."""
    dst = np.arange(out_size, dtype=np.float64)
    if nearest:
        ratio = 1.0 / scale if scale else in_size / out_size
        return np.minimum(np.floor(dst * ratio).astype(np.int64), in_size - 1)
    if align_corners:
        ratio = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
        return dst * ratio
    ratio = 1.0 / scale if scale else in_size / out_size
    return np.maximum((dst + 0.5) * ratio - 0.5, 0.0)


def _linear_axis(x, axis, src, in_size):
    i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    i1 = np.minimum(i0 + 1, in_size - 1)
    lam = (src - i0).astype(x.dtype)
    shape = [1] * x.ndim
    shape[axis] = -1
    a, b = np.take(x, i0, axis=axis), np.take(x, i1, axis=axis)
    return a + (b - a) * lam.reshape(shape)


def interpolate(x, size, scale_factor, mode, align_corners, recompute_scale_factor,
                antialias):
    """F.interpolate for 3-D (N, C, L) and 4-D (N, C, H, W) inputs."""
    n = x.ndim - 2
    if n not in (1, 2):
        raise NotImplementedError(f"interpolate: ember supports 3-D and 4-D inputs, got "
                                  f"{x.ndim}-D")
    if antialias:
        raise NotImplementedError("interpolate(antialias=True) is not supported by ember")
    out, scales = _sizes(x, size, scale_factor, n)
    if recompute_scale_factor:
        scales = [None] * n
    nearest = mode == "nearest"
    if not nearest and mode not in ("linear", "bilinear"):
        raise NotImplementedError(f"interpolate mode {mode!r} is not supported by ember")
    if mode == "linear" and n != 1 or mode == "bilinear" and n != 2:
        raise ValueError(f"interpolate: mode {mode!r} needs a {3 if mode == 'linear' else 4}-D "
                         f"input, got {x.ndim}-D")
    if nearest and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    if x.dtype.kind != "f" and not nearest:
        raise RuntimeError(f"interpolate ({mode}) needs a floating point tensor, got {x.dtype}")
    y = x
    for i in range(n):
        axis = 2 + i
        src = _source(x.shape[axis], out[i], scales[i], bool(align_corners), nearest)
        y = np.take(y, src, axis=axis) if nearest else _linear_axis(y, axis, src, x.shape[axis])
    return y


def _interpolate_info(args):
    x, size, scale = args[0], args[1].const, args[2].const
    if x.shape is None or len(x.shape) not in (3, 4):
        return TensorInfo(x.dtype, None)
    n = len(x.shape) - 2
    if size is not None:
        out = (size,) * n if isinstance(size, int) else tuple(size)
    elif isinstance(scale, (int, float)) and not isinstance(scale, bool):
        out = tuple(math.floor(d * scale) if isinstance(d, int) else None
                    for d in x.shape[2:])
    else:
        out = (None,) * n
    return TensorInfo(x.dtype, tuple(x.shape[:2]) + tuple(out))


reg("tensor.interpolate", "(Tensor input, Any size=None, Any scale_factor=None, "
    "str mode='nearest', bool? align_corners=None, bool? recompute_scale_factor=None, "
    "bool antialias=False) -> Tensor", interpolate, (f"{F}.interpolate", f"{F}.upsample"),
    _interpolate_info, may_raise=True)
