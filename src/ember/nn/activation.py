"""Activation layers: elementwise nonlinearities (PReLU with a learned slope), GLU, and
(log-)softmax / softmin over one dim.

`inplace=` is accepted for torch compatibility and ignored: ember computes out of place.
"""

from __future__ import annotations

from typing import Optional

import ember.nn.functional as F
from ember.nn import init as _init
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


class PReLU(Module):
    """x where x >= 0, else weight * x; weight has one slope, or one per channel (dim 1)."""

    __constants__ = ("num_parameters",)
    num_parameters: int
    weight: Tensor

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.weight = _init.ones((num_parameters,), dtype) * init

    def forward(self, input: Tensor) -> Tensor:
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class SELU(Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.selu(input)


class CELU(Module):
    __constants__ = ("alpha",)
    alpha: float

    def __init__(self, alpha: float = 1.0, inplace: bool = False):
        super().__init__()
        self.alpha = float(alpha)
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.celu(input, self.alpha)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}"


class Mish(Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.mish(input)


class Threshold(Module):
    """x where x > threshold, else value."""

    __constants__ = ("threshold", "value")
    threshold: float
    value: float

    def __init__(self, threshold: float, value: float, inplace: bool = False):
        super().__init__()
        self.threshold = float(threshold)
        self.value = float(value)
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.threshold(input, self.threshold, self.value)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}"


class LogSigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.logsigmoid(input)


class Softsign(Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.softsign(input)


class Tanhshrink(Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.tanhshrink(input)


class Hardshrink(Module):
    __constants__ = ("lambd",)
    lambd: float

    def __init__(self, lambd: float = 0.5):
        super().__init__()
        self.lambd = float(lambd)

    def forward(self, input: Tensor) -> Tensor:
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Module):
    __constants__ = ("lambd",)
    lambd: float

    def __init__(self, lambd: float = 0.5):
        super().__init__()
        self.lambd = float(lambd)

    def forward(self, input: Tensor) -> Tensor:
        return F.softshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class GLU(Module):
    """The first half of `dim` times the sigmoid of the second half."""

    __constants__ = ("dim",)
    dim: int

    def __init__(self, dim: int = -1):
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmin(Module):
    __constants__ = ("dim",)
    dim: Optional[int]

    def __init__(self, dim: Optional[int] = None):
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        dim = self.dim
        if dim is not None:
            return F.softmin(input, dim)
        return F.softmin(input, implicit_softmax_dim(len(input.shape)))

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax2d(Module):
    """Softmax over the channels of (N, C, H, W) or (C, H, W) inputs."""

    def forward(self, input: Tensor) -> Tensor:
        if len(input.shape) != 3 and len(input.shape) != 4:
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got "
                             f"{len(input.shape)}D instead")
        return F.softmax(input, -3)
