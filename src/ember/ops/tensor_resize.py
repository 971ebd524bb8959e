"""Padding and resampling: F.pad (constant, reflect, replicate, circular; negative pads
crop) and F.interpolate / F.upsample (nearest, nearest-exact, linear, bilinear, bicubic,
trilinear, area; size or scale_factor; align_corners, also as F.upsample_nearest /
F.upsample_bilinear), with torch's source-index and border rules; F.pixel_shuffle and F.pixel_unshuffle (channel blocks <-> pixel blocks) and
F.channel_shuffle; F.affine_grid and F.grid_sample (bilinear or nearest, zeros / border /
reflection padding, 4-D).
"""

from __future__ import annotations

import math

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import F, reg
from ember.ops.tensor_pool import adaptive_avg
from ember.ops.tensorinfo import TensorInfo, fmt

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
    if mode == "circular" and any(a > x.shape[d] or b > x.shape[d]
                                  for d, (a, b) in enumerate(widths)):
        raise RuntimeError("Padding value causes wrapping around more than once.")
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

_RANK = {"nearest": (1, 2, 3), "nearest-exact": (1, 2, 3), "area": (1, 2, 3), "linear": (1,),
         "bilinear": (2,), "bicubic": (2,), "trilinear": (3,)}
"""Interpolation mode -> the numbers of spatial dims it takes (torch's)."""

_CUBIC_A = -0.75
"""torch's cubic convolution coefficient."""


def _sizes(x, size, scale, n):
    if (size is None) == (scale is None):
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        out = (size,) * n if isinstance(size, int) else tuple(size)
        if len(out) != n:
            raise ValueError(f"Input and output must have the same number of spatial "
                             f"dimensions, but got input with spatial dimensions of "
                             f"{list(x.shape[2:])} and output size of {size}. Please provide "
                             "input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                             "(o1, o2, ...,oK) format.")
        return out, [None] * n
    scales = (float(scale),) * n if isinstance(scale, (int, float)) else \
        tuple(float(f) for f in scale)
    if len(scales) != n:
        raise ValueError(f"Input and scale_factor must have the same number of spatial "
                         f"dimensions, but got input with spatial dimensions of "
                         f"{list(x.shape[2:])} and scale_factor of shape {scale}. Please "
                         "provide input tensor in (N, C, d1, d2, ...,dK) format and "
                         "scale_factor in (s1, s2, ...,sK) format.")
    return tuple(math.floor(x.shape[2 + i] * scales[i]) for i in range(n)), list(scales)


def _ratio(in_size, out_size, scale, align_corners):
    """torch's area_pixel_compute_scale: output step in input pixels."""
    if align_corners:
        return (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    return 1.0 / scale if scale else in_size / out_size


def _nearest_source(in_size, out_size, scale, exact, legacy):
    """Source index of each output index (torch computes these in float32). legacy: torch's
    2-d nearest kernel (nearest_idx) copies a dim whose size does not change and halves the
    index of one whose size doubles, whatever the scale factor."""
    if legacy and out_size in (in_size, 2 * in_size):
        return np.arange(out_size) // (out_size // in_size)
    ratio = np.float32(1.0 / scale if scale else np.float32(in_size) / np.float32(out_size))
    dst = np.arange(out_size, dtype=np.float64)
    src = ((dst + 0.5) * np.float64(ratio)).astype(np.float32) if exact else \
        dst.astype(np.float32) * ratio
    return np.minimum(np.floor(src).astype(np.int64), in_size - 1)


def _taps(in_size, out_size, scale, align_corners, cubic):
    """(input indices, weights), each (out_size, taps), of linear or cubic interpolation along
    one dim; indices clamped to the input as torch clamps them at the borders."""
    dst = np.arange(out_size, dtype=np.float64)
    ratio = _ratio(in_size, out_size, scale, align_corners)
    src = dst * ratio if align_corners else (dst + 0.5) * ratio - 0.5
    if not cubic:
        src = np.maximum(src, 0.0)
        i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
        lam = np.clip(src - i0, 0.0, 1.0)
        idx = np.stack([i0, np.minimum(i0 + 1, in_size - 1)], axis=1)
        return idx, np.stack([1.0 - lam, lam], axis=1)
    i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    t = np.clip(src - i0, 0.0, 1.0)
    a = _CUBIC_A
    near = lambda d: ((a + 2) * d - (a + 3)) * d * d + 1  # noqa: E731 (|d| <= 1)
    far = lambda d: ((a * d - 5 * a) * d + 8 * a) * d - 4 * a  # noqa: E731 (1 < |d| < 2)
    weights = np.stack([far(t + 1), near(t), near(1 - t), far(2 - t)], axis=1)
    idx = np.clip(i0[:, None] + np.arange(-1, 3), 0, in_size - 1)
    return idx, weights


def _resample_axis(x, axis, idx, weights):
    """Sum over taps of x gathered at idx along axis, weighted (one take per tap)."""
    shape = [1] * x.ndim
    shape[axis] = -1
    w = weights.astype(x.dtype)
    y = np.take(x, idx[:, 0], axis=axis) * w[:, 0].reshape(shape)
    for j in range(1, idx.shape[1]):
        y += np.take(x, idx[:, j], axis=axis) * w[:, j].reshape(shape)
    return y


def _check_mode(x, mode, align_corners, antialias):
    n = x.ndim - 2
    if mode not in _RANK:
        raise NotImplementedError(f"interpolate mode {mode!r} is not supported: expected one "
                                  "of nearest | linear | bilinear | bicubic | trilinear | area "
                                  "| nearest-exact")
    if mode in ("nearest", "area", "nearest-exact") and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    if n not in _RANK[mode]:
        if n in (1, 2, 3):
            want = _RANK[mode][0] + 2
            raise NotImplementedError(f"Got {x.ndim}D input, but {mode} mode needs {want}D "
                                      "input")
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported "
                                  f"(got {x.ndim}D) for the modes: nearest | linear | bilinear "
                                  f"| bicubic | trilinear | area | nearest-exact (got {mode})")
    if antialias:
        raise NotImplementedError("interpolate(antialias=True) is not supported by ember")
    if x.dtype.kind != "f" and mode not in ("nearest", "nearest-exact"):
        raise RuntimeError(f"interpolate ({mode}) needs a floating point tensor, got {x.dtype}")


def interpolate(x, size, scale_factor, mode, align_corners, recompute_scale_factor,
                antialias):
    """F.interpolate of (N, C, *spatial) inputs, 1 to 3 spatial dims, every torch mode but
    antialiasing: each spatial dim resampled in turn (nearest: one take; linear, cubic: one
    take per tap; area: adaptive average pooling)."""
    _check_mode(x, mode, align_corners, antialias)
    n = x.ndim - 2
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    out, scales = _sizes(x, size, scale_factor, n)
    if recompute_scale_factor:
        scales = [None] * n
    if mode == "area":
        return adaptive_avg(x, out)
    if min(out) <= 0 or min(x.shape[2:]) <= 0:
        names = "DHW"[3 - n:]
        sizes = [", ".join(f"{d}: {v}" for d, v in zip(names, vs)) for vs in (x.shape[2:], out)]
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"({sizes[0]}){' and' if n == 1 else ''} output ({sizes[1]})")
    y = x
    for i in range(n):
        axis, in_size = 2 + i, x.shape[2 + i]
        if mode in ("nearest", "nearest-exact"):
            src = _nearest_source(in_size, out[i], scales[i], mode != "nearest",
                                  n == 2 and mode == "nearest")
            y = np.take(y, src, axis=axis)
        elif out[i] == in_size and mode != "bicubic":
            continue  # torch's linear kernels copy a dim whose size does not change
        else:
            idx, w = _taps(in_size, out[i], scales[i], bool(align_corners), mode == "bicubic")
            y = _resample_axis(y, axis, idx, w)
    return y


def _interpolate_info(args):
    x, size, scale = args[0], args[1].const, args[2].const
    if x.shape is None or len(x.shape) not in (3, 4, 5):
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


def upsample_nearest(x, size, scale_factor):
    """F.upsample_nearest: interpolate(mode='nearest')."""
    return interpolate(x, size, scale_factor, "nearest", None, None, False)


def upsample_bilinear(x, size, scale_factor):
    """F.upsample_bilinear: interpolate(mode='bilinear', align_corners=True)."""
    return interpolate(x, size, scale_factor, "bilinear", True, None, False)


for _n, _k in (("upsample_nearest", upsample_nearest), ("upsample_bilinear", upsample_bilinear)):
    reg(f"tensor.{_n}", "(Tensor input, Any size=None, Any scale_factor=None) -> Tensor", _k,
        (f"{F}.{_n}",), _interpolate_info, may_raise=True)

# ----------------------------------------------------------------------------- pixel shuffle


def _check_factor(factor, what):
    if factor <= 0:
        raise RuntimeError(f"{what} must be greater than 0, but got {factor}")


def pixel_shuffle(x, upscale_factor):
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r): channel blocks become pixel blocks."""
    r = upscale_factor
    _check_factor(r, "pixel_shuffle expects upscale_factor")
    if x.ndim < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but "
                           f"got input with {x.ndim} dimension(s)")
    *lead, c, h, w = x.shape
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be "
                           f"divisible by the square of upscale_factor, but input.size(-3)={c} "
                           f"is not divisible by {r * r}")
    k = len(lead)
    y = x.reshape(*lead, c // (r * r), r, r, h, w)
    y = y.transpose(*range(k), k, k + 3, k + 1, k + 4, k + 2)
    return np.ascontiguousarray(y).reshape(*lead, c // (r * r), h * r, w * r)


def pixel_unshuffle(x, downscale_factor):
    """(*, C, H * r, W * r) -> (*, C * r * r, H, W): the inverse of pixel_shuffle."""
    r = downscale_factor
    _check_factor(r, "pixel_unshuffle expects downscale_factor")
    if x.ndim < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but "
                           f"got input with {x.ndim} dimension(s)")
    *lead, c, h, w = x.shape
    for name, size, dim in (("height", h, -2), ("width", w, -1)):
        if size % r:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by "
                               f"downscale_factor, but input.size({dim})={size} is not "
                               f"divisible by {r}")
    k = len(lead)
    y = x.reshape(*lead, c, h // r, r, w // r, r)
    y = y.transpose(*range(k), k, k + 2, k + 4, k + 1, k + 3)
    return np.ascontiguousarray(y).reshape(*lead, c * r * r, h // r, w // r)


def _shuffle_info(up):
    def info(args):
        x, r = args[0], args[1].const
        if x.shape is None or not isinstance(r, int) or len(x.shape) < 3 or r <= 0:
            return TensorInfo(x.dtype, None)
        *lead, c, h, w = x.shape
        what = "pixel_shuffle" if up else "pixel_unshuffle"
        sizes = (c,) if up else (h, w)
        step = r * r if up else r
        if any(isinstance(s, int) and s % step for s in sizes):
            raise ShapeMismatch(f"{what}: input {fmt(x.shape)} is not divisible by "
                                f"{'the square of ' if up else ''}the factor {r}")
        if up:
            out = (_div(c, r * r), _mul(h, r), _mul(w, r))
        else:
            out = (_mul(c, r * r), _div(h, r), _div(w, r))
        return TensorInfo(x.dtype, tuple(lead) + out)
    return info


def _mul(a, b):
    return a * b if isinstance(a, int) else None


def _div(a, b):
    return a // b if isinstance(a, int) else None


reg("tensor.pixel_shuffle", "(Tensor self, int upscale_factor) -> Tensor", pixel_shuffle,
    ("torch.pixel_shuffle", f"{F}.pixel_shuffle"), _shuffle_info(True), may_raise=True)
reg("tensor.pixel_unshuffle", "(Tensor self, int downscale_factor) -> Tensor", pixel_unshuffle,
    ("torch.pixel_unshuffle", f"{F}.pixel_unshuffle"), _shuffle_info(False), may_raise=True)


def channel_shuffle(x, groups):
    """(N, g * k, *) -> (N, k * g, *): channel i * k + j moves to j * g + i."""
    if x.ndim < 3:
        raise RuntimeError(f"channel_shuffle expects input to have at least 3 dimensions, but "
                           f"got input with {x.ndim} dimension(s)")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    n, c = x.shape[:2]
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels "
                           f"and {groups} groups.")
    y = x.reshape((n, groups, c // groups) + x.shape[2:]).swapaxes(1, 2)
    return np.ascontiguousarray(y).reshape(x.shape)


def _channel_shuffle_info(args):
    x, g = args[0], args[1].const
    if x.shape is not None and isinstance(g, int) and len(x.shape) >= 3 and \
            isinstance(x.shape[1], int) and g > 0 and x.shape[1] % g:
        raise ShapeMismatch(f"channel_shuffle: {x.shape[1]} channels of {fmt(x.shape)} do not "
                            f"divide into {g} groups")
    return TensorInfo(x.dtype, x.shape)


reg("tensor.channel_shuffle", "(Tensor self, int groups) -> Tensor", channel_shuffle,
    ("torch.channel_shuffle", f"{F}.channel_shuffle", f"{F}.native_channel_shuffle",
     "torch.native_channel_shuffle"), _channel_shuffle_info, may_raise=True)


# ----------------------------------------------------------------------------- sampling grids


def _base_coords(n, align_corners, dtype):
    """torch's normalized pixel-center coordinates of n pixels in [-1, 1]."""
    if n <= 1:
        return np.zeros(max(n, 0), dtype)
    if align_corners:
        return np.linspace(-1, 1, n).astype(dtype)
    return ((np.arange(n, dtype=np.float64) * 2 + 1) / n - 1).astype(dtype)


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of affine maps theta (N, 2, 3) for an output of size (N, C, H, W)
    (or theta (N, 3, 4) for (N, C, D, H, W)): (N, H, W, 2) x, y (or (N, D, H, W, 3))."""
    size = list(size)
    if theta.dtype.kind != "f":
        raise RuntimeError("Expected theta to have floating point type, but got int theta")
    ac = bool(align_corners)
    if len(size) == 4:
        n, _, h, w = size
        if theta.shape != (n, 2, 3):
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                             f"{size}. Got {list(theta.shape)}.")
        ys, xs = np.meshgrid(_base_coords(h, ac, theta.dtype), _base_coords(w, ac, theta.dtype),
                             indexing="ij")
        base = np.stack([xs, ys, np.ones_like(xs)], -1).reshape(1, h * w, 3)
        return np.ascontiguousarray((base @ theta.transpose(0, 2, 1)).reshape(n, h, w, 2))
    if len(size) == 5:
        n, _, d, h, w = size
        if theta.shape != (n, 3, 4):
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size "
                             f"{size}. Got {list(theta.shape)}.")
        zs, ys, xs = np.meshgrid(_base_coords(d, ac, theta.dtype), _base_coords(h, ac, theta.dtype),
                                 _base_coords(w, ac, theta.dtype), indexing="ij")
        base = np.stack([xs, ys, zs, np.ones_like(xs)], -1).reshape(1, d * h * w, 4)
        return np.ascontiguousarray((base @ theta.transpose(0, 2, 1)).reshape(n, d, h, w, 3))
    raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                              f"affine transforms, respectively. Got size {size}.")


def _unnormalize(c, n, align_corners):
    return (c + 1) / 2 * (n - 1) if align_corners else ((c + 1) * n - 1) / 2


def _reflect(c, lo, hi):
    """c reflected into [lo, hi] (torch's reflect_coordinates, twice the span a period)."""
    span = hi - lo
    if span <= 0:
        return np.zeros_like(c)
    c = np.abs(c - lo)
    flips = np.floor(c / span)
    extra = c - flips * span
    return np.where(flips % 2 == 0, extra + lo, span - extra + lo)


def _source_coords(c, n, padding_mode, align_corners):
    c = _unnormalize(c, n, align_corners)
    if padding_mode == "border":
        c = np.clip(c, 0, n - 1)
    elif padding_mode == "reflection":
        c = _reflect(c, 0, n - 1) if align_corners else \
            np.clip(_reflect(c, -0.5, n - 0.5), 0, n - 1)
    return c


def grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """x (N, C, H, W) sampled at grid (N, Ho, Wo, 2) (normalized x, y in [-1, 1])."""
    if mode not in ("bilinear", "nearest"):
        raise NotImplementedError(f"grid_sample: mode '{mode}' is not supported by ember "
                                  "(bilinear and nearest are)")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    if x.ndim != 4 or grid.ndim != 4 or grid.shape[-1] != 2 or grid.shape[0] != x.shape[0]:
        raise RuntimeError(f"grid_sample: expected a 4-D input and a grid of shape (N, H, W, 2) "
                           f"with the input's batch size, got {list(x.shape)} and "
                           f"{list(grid.shape)}")
    n, c, h, w = x.shape
    ac = bool(align_corners)
    with np.errstate(all="ignore"):
        ix = _source_coords(grid[..., 0].astype(np.float64), w, padding_mode, ac)
        iy = _source_coords(grid[..., 1].astype(np.float64), h, padding_mode, ac)
    b = np.arange(n)[:, None, None]

    def tap(yi, xi):
        ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        v = x[b, :, np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)]  # (N, Ho, Wo, C)
        return np.where(ok[..., None], v, 0)

    if mode == "nearest":
        out = tap(np.rint(iy).astype(np.int64), np.rint(ix).astype(np.int64))
    else:
        x0, y0 = np.floor(ix).astype(np.int64), np.floor(iy).astype(np.int64)
        tx, ty = (ix - x0)[..., None], (iy - y0)[..., None]
        out = tap(y0, x0) * (1 - tx) * (1 - ty) + tap(y0, x0 + 1) * tx * (1 - ty) + \
            tap(y0 + 1, x0) * (1 - tx) * ty + tap(y0 + 1, x0 + 1) * tx * ty
    return np.ascontiguousarray(out.transpose(0, 3, 1, 2).astype(x.dtype))


reg("tensor.affine_grid", "(Tensor theta, int[] size, bool? align_corners=None) -> Tensor",
    affine_grid, (f"{F}.affine_grid",), lambda a: TensorInfo(a[0].dtype, None), may_raise=True)
reg("tensor.grid_sample", "(Tensor input, Tensor grid, str mode='bilinear', "
    "str padding_mode='zeros', bool? align_corners=None) -> Tensor", grid_sample,
    (f"{F}.grid_sample",), lambda a: TensorInfo(a[0].dtype, None), may_raise=True)
