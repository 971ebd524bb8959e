"""Resampling layers: Upsample (every torch mode: nearest, nearest-exact, linear, bilinear,
bicubic, trilinear, area), UpsamplingNearest2d,
UpsamplingBilinear2d (align_corners=True), PixelShuffle and PixelUnshuffle.

Upsample takes exactly one of `size` and `scale_factor`, as torch does; F.interpolate
checks the input's rank against the mode when called.
"""

from __future__ import annotations

import ember.nn.functional as F
from ember.nn.functional import Tensor
from ember.nn.module import Module

MODES = ("nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area")
"""The interpolation modes ember implements (all of torch's)."""


def _size(size):
    return tuple(size) if isinstance(size, (list, tuple)) else size


def _scale(scale_factor):
    if isinstance(scale_factor, (list, tuple)):
        return tuple(float(f) for f in scale_factor)
    return float(scale_factor) if scale_factor else None


class Upsample(Module):
    __constants__ = ("size", "scale_factor", "mode", "align_corners", "recompute_scale_factor")
    mode: str

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest",
                 align_corners=None, recompute_scale_factor=None):
        super().__init__()
        if mode not in MODES:
            raise ValueError(f"Upsample: ember implements the modes {list(MODES)}, not "
                             f"{mode!r}")
        if (size is None) == (not scale_factor):
            raise ValueError("only one of size or scale_factor should be defined")
        self.size = _size(size)
        self.scale_factor = _scale(scale_factor)
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.recompute_scale_factor)

    def extra_repr(self) -> str:
        what = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else \
            f"size={self.size!r}"
        return f"{what}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "bilinear", True)


class PixelShuffle(Module):
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r), r = upscale_factor."""

    __constants__ = ("upscale_factor",)
    upscale_factor: int

    def __init__(self, upscale_factor: int):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H * r, W * r) -> (*, C * r * r, H, W), r = downscale_factor."""

    __constants__ = ("downscale_factor",)
    downscale_factor: int

    def __init__(self, downscale_factor: int):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"
