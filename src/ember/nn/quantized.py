"""int8 layers: torch.ao's quantized dynamic Linear in the scriptable subset.

ember.script converts `torch.ao.nn.quantized.dynamic.Linear` to DynamicLinear (weights
kept as int8 codes with their scales), which computes torch's fbgemm result bit for bit
(docs/quantization.md). ember.quantize reaches the same operator by rewriting the IR.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ember import ops
from ember.nn.eager import make_function
from ember.nn.functional import Tensor
from ember.nn.module import Module

linear_dynamic = make_function(
    "linear_dynamic", "ember.quantized.linear_dynamic",
    ops.by_python_name("ember.quantized.linear_dynamic"), __name__)


class DynamicLinear(Module):
    """y = dynamic int8 linear(x): weight int8 (out, in), weight_scale float32 (1 or out)."""

    __constants__ = ("in_features", "out_features")
    in_features: int
    out_features: int
    weight: Tensor
    weight_scale: Tensor
    bias: Optional[Tensor]

    def __init__(self, weight: np.ndarray, weight_scale: np.ndarray,
                 bias: Optional[np.ndarray] = None):
        super().__init__()
        if weight.dtype != np.int8 or weight.ndim != 2:
            raise ValueError("DynamicLinear takes an int8 (out, in) weight")
        self.out_features, self.in_features = weight.shape
        self.weight = weight
        self.weight_scale = np.asarray(weight_scale, np.float32).reshape(-1)
        self.register_parameter("bias", None if bias is None else
                                np.asarray(bias, np.float32))

    def forward(self, input: Tensor) -> Tensor:
        return linear_dynamic(input, self.weight, self.weight_scale, self.bias, True)
