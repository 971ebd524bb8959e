"""Activation layers: elementwise nonlinearities and (log-)softmax over one dim.

`inplace=` is accepted for torch compatibility and ignored: ember computes out of place.
"""

from __future__ import annotations

from typing import Optional

import ember.nn.functional as F
from ember.nn.functional import Tensor
from ember.nn.module import Module


class ReLU(Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input)


class ReLU6(Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu6(input)


class LeakyReLU(Module):
    __constants__ = ("negative_slope",)
    negative_slope: float

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False):
        super().__init__()
        self.negative_slope = float(negative_slope)
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}"


class ELU(Module):
    __constants__ = ("alpha",)
    alpha: float

    def __init__(self, alpha: float = 1.0, inplace: bool = False):
        super().__init__()
        self.alpha = float(alpha)
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.elu(input, self.alpha)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}"


class GELU(Module):
    """GELU with the exact erf form ('none') or torch's tanh approximation ('tanh')."""

    __constants__ = ("approximate",)
    approximate: str

    def __init__(self, approximate: str = "none"):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError(f"approximate argument must be either none or tanh, not "
                             f"{approximate!r}")
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.silu(input)


class Sigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.sigmoid(input)


class Tanh(Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.tanh(input)


class Hardswish(Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.hardswish(input)


class Hardsigmoid(Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.hardsigmoid(input)


class Hardtanh(Module):
    __constants__ = ("min_val", "max_val")
    min_val: float
    max_val: float

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
        super().__init__()
        if max_val < min_val:
            raise ValueError("Hardtanh: max_val must be at least min_val")
        self.min_val = float(min_val)
        self.max_val = float(max_val)
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.hardtanh(input, self.min_val, self.max_val)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}"


class Softplus(Module):
    __constants__ = ("beta", "threshold")
    beta: float
    threshold: float

    def __init__(self, beta: float = 1.0, threshold: float = 20.0):
        super().__init__()
        self.beta = float(beta)
        self.threshold = float(threshold)

    def forward(self, input: Tensor) -> Tensor:
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


def implicit_softmax_dim(ndim: int) -> int:
    """The dim torch's Softmax(dim=None) uses (its legacy rule)."""
    if ndim == 0 or ndim == 1 or ndim == 3:
        return 0
    return 1


class Softmax(Module):
    __constants__ = ("dim",)
    dim: Optional[int]

    def __init__(self, dim: Optional[int] = None):
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        dim = self.dim
        if dim is not None:
            return F.softmax(input, dim)
        return F.softmax(input, implicit_softmax_dim(len(input.shape)))

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Module):
    __constants__ = ("dim",)
    dim: Optional[int]

    def __init__(self, dim: Optional[int] = None):
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        dim = self.dim
        if dim is not None:
            return F.log_softmax(input, dim)
        return F.log_softmax(input, implicit_softmax_dim(len(input.shape)))

    def extra_repr(self) -> str:
        return f"dim={self.dim}"
