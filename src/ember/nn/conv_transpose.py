"""ConvTranspose1d, ConvTranspose2d and ConvTranspose3d: stride, padding, output_padding,
groups, bias, dilation, and forward's `output_size` (which picks the output padding), as
torch's.

Weights are (in_channels, out_channels // groups, *kernel_size), as torch's; padding_mode is
'zeros' only (torch accepts nothing else for transposed convolutions).
"""

from __future__ import annotations

import math
from typing import List, Optional

import ember.nn.functional as F
from ember.nn import init
from ember.nn.conv import ntuple
from ember.nn.functional import Tensor
from ember.nn.module import Module


class _ConvTransposeNd(Module):
    __constants__ = ("stride", "padding", "dilation", "groups", "output_padding",
                     "in_channels", "out_channels", "kernel_size", "padding_mode")
    in_channels: int
    out_channels: int
    groups: int
    padding_mode: str
    weight: Tensor
    bias: Optional[Tensor]

    def __init__(self, n: int, in_channels, out_channels, kernel_size, stride, padding,
                 output_padding, groups, bias, dilation, padding_mode, dtype):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups or out_channels % groups:
            raise ValueError("in_channels and out_channels must be divisible by groups")
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f"{type(self).__name__}")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = ntuple(kernel_size, n, "kernel_size")
        self.stride = ntuple(stride, n, "stride")
        self.padding = ntuple(padding, n, "padding")
        self.output_padding = ntuple(output_padding, n, "output_padding")
        self.dilation = ntuple(dilation, n, "dilation")
        self.groups = groups
        self.padding_mode = padding_mode
        # torch's fan_in for a transposed weight: its dim 1 times the kernel
        fan_in = out_channels // groups * math.prod(self.kernel_size)
        bound = init.fan_in_bound(fan_in)
        self.weight = init.uniform((in_channels, out_channels // groups) + self.kernel_size,
                                   bound, dtype)
        self.register_parameter("bias", init.uniform((out_channels,), bound, dtype)
                                if bias else None)

    def _output_padding(self, input: Tensor, output_size: Optional[List[int]],
                        n: int) -> List[int]:
        """output_padding, or the one that makes the output `output_size` (torch's rule)."""
        if output_size is None:
            return list(self.output_padding)
        sizes = output_size
        lead = len(input.shape) - n
        if len(sizes) == lead + n:
            sizes = sizes[lead:]
        if len(sizes) != n:
            raise ValueError(f"ConvTranspose{n}D: for {len(input.shape)}D input, output_size "
                             f"must have {n} or {lead + n} elements (got {len(output_size)})")
        pads: List[int] = []
        for d in range(n):
            smallest = (input.shape[d + lead] - 1) * self.stride[d] - 2 * self.padding[d] + \
                self.dilation[d] * (self.kernel_size[d] - 1) + 1
            if sizes[d] < smallest or sizes[d] > smallest + self.stride[d] - 1:
                raise ValueError(f"requested an output size of {output_size}, but valid "
                                 f"sizes range from {smallest} to "
                                 f"{smallest + self.stride[d] - 1} in dim {d}")
            pads.append(sizes[d] - smallest)
        return pads

    def extra_repr(self) -> str:
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        n = len(self.kernel_size)
        if self.padding != (0,) * n:
            text += f", padding={self.padding}"
        if self.output_padding != (0,) * n:
            text += f", output_padding={self.output_padding}"
        if self.dilation != (1,) * n:
            text += f", dilation={self.dilation}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        return text


class ConvTranspose1d(_ConvTransposeNd):
    """1-d transposed convolution over (N, C, L) or (C, L) inputs."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None):
        super().__init__(1, in_channels, out_channels, kernel_size, stride, padding,
                         output_padding, groups, bias, dilation, padding_mode, dtype)

    def forward(self, input: Tensor, output_size: Optional[List[int]] = None) -> Tensor:
        stride: List[int] = [self.stride[0]]
        padding: List[int] = [self.padding[0]]
        dilation: List[int] = [self.dilation[0]]
        out_pad = self._output_padding(input, output_size, 1)
        return F.conv_transpose1d(input, self.weight, self.bias, stride, padding, out_pad,
                                  self.groups, dilation)


class ConvTranspose2d(_ConvTransposeNd):
    """2-d transposed convolution over (N, C, H, W) or (C, H, W) inputs."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None):
        super().__init__(2, in_channels, out_channels, kernel_size, stride, padding,
                         output_padding, groups, bias, dilation, padding_mode, dtype)

    def forward(self, input: Tensor, output_size: Optional[List[int]] = None) -> Tensor:
        stride: List[int] = [self.stride[0], self.stride[1]]
        padding: List[int] = [self.padding[0], self.padding[1]]
        dilation: List[int] = [self.dilation[0], self.dilation[1]]
        out_pad = self._output_padding(input, output_size, 2)
        return F.conv_transpose2d(input, self.weight, self.bias, stride, padding, out_pad,
                                  self.groups, dilation)


class ConvTranspose3d(_ConvTransposeNd):
    """3-d transposed convolution over (N, C, D, H, W) or (C, D, H, W) inputs."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None):
        super().__init__(3, in_channels, out_channels, kernel_size, stride, padding,
                         output_padding, groups, bias, dilation, padding_mode, dtype)

    def forward(self, input: Tensor, output_size: Optional[List[int]] = None) -> Tensor:
        stride: List[int] = [self.stride[0], self.stride[1], self.stride[2]]
        padding: List[int] = [self.padding[0], self.padding[1], self.padding[2]]
        dilation: List[int] = [self.dilation[0], self.dilation[1], self.dilation[2]]
        out_pad = self._output_padding(input, output_size, 3)
        return F.conv_transpose3d(input, self.weight, self.bias, stride, padding, out_pad,
                                  self.groups, dilation)
