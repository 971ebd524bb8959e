"""int8 layers: torch.ao's quantized dynamic Linear in the scriptable subset.

ember.script converts `torch.ao.nn.quantized.dynamic.Linear` to DynamicLinear (weights
kept as int8 codes with their scales), which computes torch's fbgemm result bit for bit
(docs/quantization.md). ember.quantize reaches the same operator by rewriting the IR.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np

import ember.nn.functional as F
import ember.nn.rnn as _rnn
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


def _op(name):
    q = f"ember.quantized.{name}"
    return make_function(name, q, ops.by_python_name(q), __name__)


quantize_per_tensor = _op("quantize_per_tensor")
ao_dequantize = _op("ao_dequantize")
ao_conv2d = _op("ao_conv2d")
ao_linear = _op("ao_linear")
ao_add = _op("ao_add")
ao_mul = _op("ao_mul")
ao_cat = _op("ao_cat")
ao_hardswish = _op("ao_hardswish")

# torch.ao's static modules. A quantized activation is its uint8 codes; the scale and zero
# point of a layer's input are bound when the scripted module freezes
# (passes/ao_qparams.py follows them from the Quantize that made the codes).


class Quantize(Module):
    """torch.ao.nn.quantized.Quantize (what a QuantStub converts to): float -> quint8 codes."""

    __constants__ = ("scale", "zero_point")
    scale: float
    zero_point: int

    def __init__(self, scale: float, zero_point: int):
        super().__init__()
        self.scale = scale
        self.zero_point = zero_point

    def forward(self, X: Tensor) -> Tensor:
        return quantize_per_tensor(X, self.scale, self.zero_point, "quint8")


class DeQuantize(Module):
    """torch.ao.nn.quantized.DeQuantize: quint8 codes -> float32."""

    def forward(self, Xq: Tensor) -> Tensor:
        return ao_dequantize(Xq)


class QuantizedConv2d(Module):
    """torch.ao.nn.quantized.Conv2d / intrinsic ConvReLU2d (fbgemm requantization)."""

    __constants__ = ("scale", "zero_point", "stride", "padding", "dilation", "groups", "relu")
    weight: Tensor
    weight_scale: Tensor
    bias: Optional[Tensor]
    scale: float
    zero_point: int
    groups: int
    relu: bool

    def __init__(self, weight, weight_scale, bias, scale: float, zero_point: int, stride,
                 padding, dilation, groups: int, relu: bool):
        super().__init__()
        self.weight = weight
        self.weight_scale = np.asarray(weight_scale, np.float32).reshape(-1)
        self.register_parameter("bias", bias)
        self.scale = scale
        self.zero_point = zero_point
        self.stride = list(stride)
        self.padding = list(padding)
        self.dilation = list(dilation)
        self.groups = groups
        self.relu = relu

    def forward(self, input: Tensor) -> Tensor:
        return ao_conv2d(input, self.weight, self.weight_scale, self.bias, self.scale,
                         self.zero_point, self.stride, self.padding, self.dilation,
                         self.groups, self.relu)


class QuantizedLinear(Module):
    """torch.ao.nn.quantized.Linear / intrinsic LinearReLU."""

    __constants__ = ("scale", "zero_point", "relu")
    weight: Tensor
    weight_scale: Tensor
    bias: Optional[Tensor]
    scale: float
    zero_point: int
    relu: bool

    def __init__(self, weight, weight_scale, bias, scale: float, zero_point: int,
                 relu: bool):
        super().__init__()
        self.weight = weight
        self.weight_scale = np.asarray(weight_scale, np.float32).reshape(-1)
        self.register_parameter("bias", bias)
        self.scale = scale
        self.zero_point = zero_point
        self.relu = relu

    def forward(self, x: Tensor) -> Tensor:
        return ao_linear(x, self.weight, self.weight_scale, self.bias, self.scale,
                         self.zero_point, self.relu)


class QFunctional(Module):
    """torch.ao.nn.quantized.QFunctional (what FloatFunctional converts to)."""

    __constants__ = ("scale", "zero_point")
    scale: float
    zero_point: int

    def __init__(self, scale: float, zero_point: int):
        super().__init__()
        self.scale = scale
        self.zero_point = zero_point

    def forward(self, x: Tensor) -> Tensor:
        raise RuntimeError("Functional is not intended to use the 'forward'. Please use "
                           "the underlying operation")

    def add(self, x: Tensor, y: Tensor) -> Tensor:
        return ao_add(x, y, self.scale, self.zero_point, False)

    def add_relu(self, x: Tensor, y: Tensor) -> Tensor:
        return ao_add(x, y, self.scale, self.zero_point, True)

    def mul(self, x: Tensor, y: Tensor) -> Tensor:
        return ao_mul(x, y, self.scale, self.zero_point, False)

    def cat(self, x: List[Tensor], dim: int = 0) -> Tensor:
        return ao_cat(x, dim, self.scale, self.zero_point)


lstm_dynamic = _op("lstm_dynamic")
gru_dynamic = _op("gru_dynamic")


def _dynamic_params(m, gates):
    """torch.ao dynamic LSTM / GRU weights as the kernel's list: per layer and direction
    (w_ih codes, s_ih, b_ih, w_hh codes, s_hh, b_hh)."""
    from ember.nn.from_torch import _bias, _qweight
    wb = m._weight_bias()
    out = []
    for layer in range(m.num_layers):
        for d in range(2 if m.bidirectional else 1):
            suffix = f"_l{layer}" + ("_reverse" if d else "")
            for kind in ("ih", "hh"):
                w, s = _qweight(wb["weight"][f"weight_{kind}{suffix}"],
                                f"dynamic quantized {m._get_name()}")
                b = _bias(wb["bias"].get(f"bias_{kind}{suffix}"))
                out += [w, s, np.zeros(w.shape[0], np.float32) if b is None else b]
    return out


def _drop_float_weights(layer):
    """The float weights _RNNBase made are not the layer's (its int8 list is): forget them,
    so the artifact does not carry them."""
    for name in layer._flat_weights_names:
        del layer._tensors[name]
    object.__setattr__(layer, "_flat_weights_names", [])
    object.__setattr__(layer, "_flat_weights", [])


class DynamicLSTM(_rnn.LSTM):
    """torch.ao.nn.quantized.dynamic.LSTM: int8 products, float32 cell math."""

    def __init__(self, m):
        super().__init__(m.input_size, m.hidden_size, m.num_layers, True, m.batch_first, 0.0,
                         m.bidirectional)
        _drop_float_weights(self)
        self._qweights = _dynamic_params(m, 4)

    def forward(self, input: Tensor, hx: Optional[Tuple[Tensor, Tensor]] = None
                ) -> Tuple[Tensor, Tuple[Tensor, Tensor]]:
        self._check_input(input)
        batched = len(input.shape) == 3
        x = self._sequence(input)
        h0: Optional[Tensor] = None
        c0: Optional[Tensor] = None
        if hx is not None:
            h0 = hx[0]
            c0 = hx[1]
        out, h, c = lstm_dynamic(x, [self._state(h0, x, batched), self._state(c0, x, batched)],
                                 self._qweights, self.num_layers, self.bidirectional,
                                 self._batch_first(batched))
        if not batched:
            h = F.squeeze(h, 1)
            c = F.squeeze(c, 1)
        return self._output(out, batched), (h, c)


class DynamicGRU(_rnn.GRU):
    """torch.ao.nn.quantized.dynamic.GRU: int8 products, float32 cell math."""

    def __init__(self, m):
        super().__init__(m.input_size, m.hidden_size, m.num_layers, True, m.batch_first, 0.0,
                         m.bidirectional)
        _drop_float_weights(self)
        self._qweights = _dynamic_params(m, 3)

    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tuple[Tensor, Tensor]:
        self._check_input(input)
        batched = len(input.shape) == 3
        x = self._sequence(input)
        out, h = gru_dynamic(x, [self._state(hx, x, batched)], self._qweights,
                             self.num_layers, self.bidirectional, self._batch_first(batched))
        if not batched:
            h = F.squeeze(h, 1)
        return self._output(out, batched), h


class FloatFunctional(Module):
    """torch.ao.nn.quantized.FloatFunctional before conversion: float add / mul / cat."""

    def forward(self, x: Tensor) -> Tensor:
        raise RuntimeError("FloatFunctional is not intended to use the 'forward'. Please use "
                           "the underlying operation")

    def add(self, x: Tensor, y: Tensor) -> Tensor:
        return F.add(x, y)

    def add_relu(self, x: Tensor, y: Tensor) -> Tensor:
        return F.relu(F.add(x, y))

    def mul(self, x: Tensor, y: Tensor) -> Tensor:
        return F.mul(x, y)

    def add_scalar(self, x: Tensor, y: float) -> Tensor:
        return F.add(x, y)

    def mul_scalar(self, x: Tensor, y: float) -> Tensor:
        return F.mul(x, y)

    def cat(self, x: List[Tensor], dim: int = 0) -> Tensor:
        return F.cat(x, dim)


class QuantizedHardswish(Module):
    """torch.ao.nn.quantized.Hardswish: its output has its own scale and zero point."""

    __constants__ = ("scale", "zero_point")
    scale: float
    zero_point: int

    def __init__(self, scale: float, zero_point: int):
        super().__init__()
        self.scale = scale
        self.zero_point = zero_point

    def forward(self, input: Tensor) -> Tensor:
        return ao_hardswish(input, self.scale, self.zero_point)


class QuantizedConv1d(QuantizedConv2d):
    """torch.ao.nn.quantized.Conv1d / intrinsic ConvReLU1d: a 2-d convolution of height 1
    (as torch's fbgemm kernel runs it); the weight is stored (O, C/groups, 1, k)."""

    def forward(self, input: Tensor) -> Tensor:
        y = ao_conv2d(F.unsqueeze(input, 2), self.weight, self.weight_scale, self.bias,
                      self.scale, self.zero_point, self.stride, self.padding, self.dilation,
                      self.groups, self.relu)
        return F.squeeze(y, 2)
