"""Fold and Unfold: sliding blocks of 2-d images to columns (Unfold, im2col) and columns
summed back into images (Fold, col2im), as torch.nn's. Hyper-parameters keep torch's values
(an int or a tuple) and go to the operators as they are."""

from __future__ import annotations

import ember.nn.functional as F
from ember.nn.functional import Tensor
from ember.nn.module import Module


class Fold(Module):
    """(N, C*kh*kw, L) or (C*kh*kw, L) blocks -> (N, C, *output_size) sums."""

    __constants__ = ("output_size", "kernel_size", "dilation", "padding", "stride")

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")


class Unfold(Module):
    """(N, C, H, W) or (C, H, W) -> (N, C*kh*kw, L) sliding blocks."""

    __constants__ = ("kernel_size", "dilation", "padding", "stride")

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")
