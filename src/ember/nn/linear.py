"""Linear and Bilinear layers (torch.nn's arguments, attribute names and layouts)."""

from __future__ import annotations

from typing import List, Optional

import ember.nn.functional as F
from ember.nn import init
from ember.nn.functional import Tensor
from ember.nn.module import Module


class Linear(Module):
    """y = x @ weight.T + bias; weight (out_features, in_features)."""

    __constants__ = ("in_features", "out_features")
    in_features: int
    out_features: int
    weight: Tensor
    bias: Optional[Tensor]

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None,
                 dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        bound = init.fan_in_bound(in_features)
        self.weight = init.uniform((out_features, in_features), bound, dtype)
        self.register_parameter("bias", init.uniform((out_features,), bound, dtype)
                                if bias else None)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Bilinear(Module):
    """y[..., k] = x1 @ weight[k] @ x2 + bias[k]; weight (out, in1, in2)."""

    __constants__ = ("in1_features", "in2_features", "out_features")
    in1_features: int
    in2_features: int
    out_features: int
    weight: Tensor
    bias: Optional[Tensor]

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        bound = init.fan_in_bound(in1_features)
        self.weight = init.uniform((out_features, in1_features, in2_features), bound, dtype)
        self.register_parameter("bias", init.uniform((out_features,), bound, dtype)
                                if bias else None)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


def bilinear(x1: Tensor, x2: Tensor, weight: Tensor, bias: Optional[Tensor]) -> Tensor:
    """torch.nn.functional.bilinear from matmul: x1 @ W viewed (in1, out*in2), times x2."""
    out_f = weight.shape[0]
    in1 = weight.shape[1]
    in2 = weight.shape[2]
    if x1.shape[len(x1.shape) - 1] != in1 or x2.shape[len(x2.shape) - 1] != in2:
        raise RuntimeError(f"bilinear: inputs with {x1.shape[len(x1.shape) - 1]} and "
                           f"{x2.shape[len(x2.shape) - 1]} features, but the weight expects "
                           f"{in1} and {in2}")
    lead: List[int] = []
    for i in range(len(x1.shape) - 1):
        lead.append(x1.shape[i])
    w = F.reshape(F.permute(weight, [1, 0, 2]), [in1, out_f * in2])
    t = F.reshape(F.matmul(F.reshape(x1, [-1, in1]), w), [-1, out_f, in2])
    y = F.sum(t * F.unsqueeze(F.reshape(x2, [-1, in2]), 1), [2])
    if bias is not None:
        y = y + bias
    lead.append(out_f)
    return F.reshape(y, lead)
