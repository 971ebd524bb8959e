"""Padding layers over the last 1, 2 or 3 dims: ZeroPad, ConstantPad, ReflectionPad,
ReplicationPad and CircularPad (1d, 2d, 3d), each one F.pad call.

`padding` is an int (the same on every side) or a tuple of 2 * n ints ordered as F.pad
takes them: (left, right) for the last dim, then (top, bottom), then (front, back).
"""

from __future__ import annotations

import ember.nn.functional as F
from ember.nn.functional import Tensor
from ember.nn.module import Module


def _pads(padding, n: int) -> tuple:
    if isinstance(padding, int):
        return (padding,) * (2 * n)
    padding = tuple(padding)
    if len(padding) != 2 * n or not all(isinstance(p, int) for p in padding):
        raise ValueError(f"padding must be an int or a tuple of {2 * n} ints, got {padding!r}")
    return padding


class _PadNd(Module):
    __constants__ = ("padding", "mode", "value")
    mode: str
    value: float

    def __init__(self, n: int, padding, mode: str, value: float = 0.0):
        super().__init__()
        self.padding = _pads(padding, n)
        self.mode = mode
        self.value = float(value)

    def forward(self, input: Tensor) -> Tensor:
        if self.mode == "constant":  # a constant: only one branch is compiled
            return F.pad(input, self.padding, "constant", self.value)
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}" + (f", value={self.value}" if self.mode == "constant" else "")


class ConstantPad1d(_PadNd):
    def __init__(self, padding, value: float):
        super().__init__(1, padding, "constant", value)


class ConstantPad2d(_PadNd):
    def __init__(self, padding, value: float):
        super().__init__(2, padding, "constant", value)


class ConstantPad3d(_PadNd):
    def __init__(self, padding, value: float):
        super().__init__(3, padding, "constant", value)


class ZeroPad1d(_PadNd):
    def __init__(self, padding):
        super().__init__(1, padding, "constant", 0.0)


class ZeroPad2d(_PadNd):
    def __init__(self, padding):
        super().__init__(2, padding, "constant", 0.0)


class ZeroPad3d(_PadNd):
    def __init__(self, padding):
        super().__init__(3, padding, "constant", 0.0)


class ReflectionPad1d(_PadNd):
    def __init__(self, padding):
        super().__init__(1, padding, "reflect")


class ReflectionPad2d(_PadNd):
    def __init__(self, padding):
        super().__init__(2, padding, "reflect")


class ReflectionPad3d(_PadNd):
    def __init__(self, padding):
        super().__init__(3, padding, "reflect")


class ReplicationPad1d(_PadNd):
    def __init__(self, padding):
        super().__init__(1, padding, "replicate")


class ReplicationPad2d(_PadNd):
    def __init__(self, padding):
        super().__init__(2, padding, "replicate")


class ReplicationPad3d(_PadNd):
    def __init__(self, padding):
        super().__init__(3, padding, "replicate")


class CircularPad1d(_PadNd):
    def __init__(self, padding):
        super().__init__(1, padding, "circular")


class CircularPad2d(_PadNd):
    def __init__(self, padding):
        super().__init__(2, padding, "circular")


class CircularPad3d(_PadNd):
    def __init__(self, padding):
        super().__init__(3, padding, "circular")
