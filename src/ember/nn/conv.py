"""Conv1d, Conv2d and Conv3d: stride, padding (ints, 'same', 'valid'), dilation, groups, bias, and
padding_mode 'zeros', 'reflect', 'replicate' or 'circular'.

Weights are (out_channels, in_channels // groups, *kernel_size), as torch's. Hyper-parameters
are tuples as in torch; forward passes them to the operators as lists. Inputs may be
batched (N, C, *) or unbatched (C, *), as torch allows.
"""

from __future__ import annotations

import math
from typing import List, Optional

import ember.nn.functional as F
from ember.nn import init
from ember.nn.functional import Tensor
from ember.nn.module import Module

PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def ntuple(value, n: int, what: str) -> tuple:
    """An int (repeated n times) or a sequence of n ints, as a tuple."""
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) != n or not all(isinstance(v, int) for v in value):
        raise ValueError(f"{what} must be an int or a tuple of {n} ints, got {value!r}")
    return value


class _ConvNd(Module):
    __constants__ = ("stride", "padding", "dilation", "groups", "padding_mode", "output_padding",
                     "in_channels", "out_channels", "kernel_size")
    in_channels: int
    out_channels: int
    groups: int
    padding_mode: str
    _mode_pads: List[int]
    weight: Tensor
    bias: Optional[Tensor]

    def __init__(self, n: int, in_channels, out_channels, kernel_size, stride, padding,
                 dilation, groups, bias, padding_mode, dtype):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups or out_channels % groups:
            raise ValueError("in_channels and out_channels must be divisible by groups")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = ntuple(kernel_size, n, "kernel_size")
        self.stride = ntuple(stride, n, "stride")
        self.padding = _check_padding(padding, n, self.stride)
        self.dilation = ntuple(dilation, n, "dilation")
        self.output_padding = (0,) * n
        self.groups = groups
        self.padding_mode = _check_padding_mode(padding_mode)
        self._mode_pads = _mode_pads(self.padding, self.kernel_size, self.dilation)
        fan_in = in_channels // groups * math.prod(self.kernel_size)
        bound = init.fan_in_bound(fan_in)
        self.weight = init.uniform((out_channels, in_channels // groups) + self.kernel_size,
                                   bound, dtype)
        self.register_parameter("bias", init.uniform((out_channels,), bound, dtype)
                                if bias else None)

    def extra_repr(self) -> str:
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if self.padding != (0,) * len(self.kernel_size):
            text += f", padding={self.padding!r}"
        if self.dilation != (1,) * len(self.kernel_size):
            text += f", dilation={self.dilation}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


def _check_padding(padding, n: int, stride: tuple):
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                             "{'valid', 'same'}")
        if padding == "same" and any(s != 1 for s in stride):
            raise ValueError("padding='same' is not supported for strided convolutions")
        return padding
    return ntuple(padding, n, "padding")


def _check_padding_mode(mode: str) -> str:
    if mode not in PADDING_MODES:
        raise ValueError(f"padding_mode must be one of {list(PADDING_MODES)}, but got "
                         f"padding_mode='{mode}'")
    return mode


def _mode_pads(padding, kernel_size: tuple, dilation: tuple) -> List[int]:
    """[before, after] per spatial dim, as a non-'zeros' padding_mode pads the input."""
    pads: List[int] = []
    for i, k in enumerate(kernel_size):
        if padding == "valid":
            before = after = 0
        elif padding == "same":
            total = dilation[i] * (k - 1)
            before, after = total // 2, total - total // 2
        else:
            before = after = padding[i]
        pads += [before, after]
    return pads


def _source_index(j: int, n: int, mode: str) -> int:
    """The input index padded position j (j < 0 or j >= n) copies under `mode`."""
    if mode == "reflect":
        return -j if j < 0 else 2 * (n - 1) - j
    if mode == "replicate":
        return 0 if j < 0 else n - 1
    return j % n  # circular


def pad_input(x: Tensor, pads: List[int], mode: str) -> Tensor:
    """x padded by pads[2i], pads[2i + 1] before and after spatial dim i (dims 2, 3, ...
    of a batched input) with values copied from x as `mode` says."""
    for i in range(len(pads) // 2):
        dim = 2 + i
        n = x.shape[dim]
        before = pads[2 * i]
        after = pads[2 * i + 1]
        if (mode == "reflect" and (before >= n or after >= n)) or \
                (mode == "circular" and (before > n or after > n)):
            raise RuntimeError(f"padding_mode='{mode}': padding ({before}, {after}) is too "
                               f"large for an input dimension of size {n}")
        parts: List[Tensor] = []
        for j in range(-before, 0):
            parts.append(F.narrow(x, dim, _source_index(j, n, mode), 1))
        parts.append(x)
        for j in range(n, n + after):
            parts.append(F.narrow(x, dim, _source_index(j, n, mode), 1))
        x = F.cat(parts, dim)
    return x


class Conv1d(_ConvNd):
    """1-d convolution over (N, C, L) or (C, L) inputs."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None):
        super().__init__(1, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)

    def forward(self, input: Tensor) -> Tensor:
        stride: List[int] = [self.stride[0]]
        dilation: List[int] = [self.dilation[0]]
        if self.padding_mode != "zeros":  # a constant: only one branch is compiled
            return self._padded(input, stride, dilation)
        # F.conv1d takes batched and unbatched inputs; one call, so freezing can fold a
        # following batch norm into the weights.
        return F.conv1d(input, self.weight, self.bias, stride, self.padding, dilation,
                        self.groups)

    def _padded(self, input: Tensor, stride: List[int], dilation: List[int]) -> Tensor:
        """Reflect / replicate / circular padding first, then an unpadded convolution."""
        batched = len(input.shape) == 3
        x = input if batched else F.unsqueeze(input, 0)
        no_padding: List[int] = [0]
        y = F.conv1d(pad_input(x, self._mode_pads, self.padding_mode), self.weight, self.bias,
                     stride, no_padding, dilation, self.groups)
        return y if batched else F.squeeze(y, 0)


class Conv2d(_ConvNd):
    """2-d convolution over (N, C, H, W) or (C, H, W) inputs."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None):
        super().__init__(2, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)

    def forward(self, input: Tensor) -> Tensor:
        stride: List[int] = [self.stride[0], self.stride[1]]
        dilation: List[int] = [self.dilation[0], self.dilation[1]]
        if self.padding_mode != "zeros":  # a constant: only one branch is compiled
            return self._padded(input, stride, dilation)
        # F.conv2d takes batched and unbatched inputs; one call, so freezing can fold a
        # following batch norm into the weights.
        return F.conv2d(input, self.weight, self.bias, stride, self.padding, dilation,
                        self.groups)

    def _padded(self, input: Tensor, stride: List[int], dilation: List[int]) -> Tensor:
        """Reflect / replicate / circular padding first, then an unpadded convolution."""
        batched = len(input.shape) == 4
        x = input if batched else F.unsqueeze(input, 0)
        no_padding: List[int] = [0, 0]
        y = F.conv2d(pad_input(x, self._mode_pads, self.padding_mode), self.weight, self.bias,
                     stride, no_padding, dilation, self.groups)
        return y if batched else F.squeeze(y, 0)


class Conv3d(_ConvNd):
    """3-d convolution over (N, C, D, H, W) or (C, D, H, W) inputs."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None):
        super().__init__(3, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)

    def forward(self, input: Tensor) -> Tensor:
        stride: List[int] = [self.stride[0], self.stride[1], self.stride[2]]
        dilation: List[int] = [self.dilation[0], self.dilation[1], self.dilation[2]]
        if self.padding_mode != "zeros":  # a constant: only one branch is compiled
            return self._padded(input, stride, dilation)
        return F.conv3d(input, self.weight, self.bias, stride, self.padding, dilation,
                        self.groups)

    def _padded(self, input: Tensor, stride: List[int], dilation: List[int]) -> Tensor:
        """Reflect / replicate / circular padding first, then an unpadded convolution."""
        batched = len(input.shape) == 5
        x = input if batched else F.unsqueeze(input, 0)
        no_padding: List[int] = [0, 0, 0]
        y = F.conv3d(pad_input(x, self._mode_pads, self.padding_mode), self.weight, self.bias,
                     stride, no_padding, dilation, self.groups)
        return y if batched else F.squeeze(y, 0)
