"""LSTMCell, GRUCell and RNNCell: one time step, (N, input_size) or (input_size,) inputs.

Weights keep torch's names and layouts (weight_ih, weight_hh, bias_ih, bias_hh; gates stacked
as in the sequence layers). A step is the sequence operator (`F.lstm`, `F.gru`,
`F.rnn_tanh`, `F.rnn_relu`) on a sequence of length 1, so cells and layers share kernels.
"""

from __future__ import annotations

import math
from typing import List, Optional, Tuple

import ember.nn.functional as F
from ember.nn import init
from ember.nn.functional import Tensor
from ember.nn.module import Module


class _RNNCellBase(Module):
    KIND = "RNNCellBase"
    __constants__ = ("input_size", "hidden_size", "bias")
    input_size: int
    hidden_size: int
    bias: bool
    weight_ih: Tensor
    weight_hh: Tensor
    bias_ih: Optional[Tensor]
    bias_hh: Optional[Tensor]

    def __init__(self, input_size: int, hidden_size: int, bias: bool, gates: int, dtype):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        bound = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0.0
        self.weight_ih = init.uniform((gates * hidden_size, input_size), bound, dtype)
        self.weight_hh = init.uniform((gates * hidden_size, hidden_size), bound, dtype)
        self.register_parameter("bias_ih", init.uniform((gates * hidden_size,), bound, dtype)
                                if bias else None)
        self.register_parameter("bias_hh", init.uniform((gates * hidden_size,), bound, dtype)
                                if bias else None)

    def _weights(self) -> List[Tensor]:
        weights: List[Tensor] = [self.weight_ih, self.weight_hh]
        b_ih = self.bias_ih
        b_hh = self.bias_hh
        if b_ih is not None and b_hh is not None:
            weights.append(b_ih)
            weights.append(b_hh)
        return weights

    def _step_input(self, input: Tensor) -> Tensor:
        """input as a one-step batched sequence (1, N, input_size)."""
        if len(input.shape) != 1 and len(input.shape) != 2:
            raise ValueError(f"{self.KIND}: Expected input to be 1D or 2D, got "
                             f"{len(input.shape)}D instead")
        if input.shape[len(input.shape) - 1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got "
                               f"{input.shape[len(input.shape) - 1]} expected "
                               f"{self.input_size}")
        if len(input.shape) == 1:
            return F.unsqueeze(F.unsqueeze(input, 0), 0)
        return F.unsqueeze(input, 0)

    def _state(self, h: Optional[Tensor], x: Tensor, batched: bool) -> Tensor:
        """A state (1, N, hidden): given (batched or not) or zeros."""
        if h is None:
            return F.zeros([1, x.shape[1], self.hidden_size], dtype=x.dtype)
        if not batched:
            h = F.unsqueeze(h, 0)
        if len(h.shape) != 2 or h.shape[0] != x.shape[1] or h.shape[1] != self.hidden_size:
            raise RuntimeError(f"Expected hidden size ({x.shape[1]}, {self.hidden_size}), got "
                               f"{list(h.shape)}")
        return F.unsqueeze(h, 0)

    def _result(self, h: Tensor, batched: bool) -> Tensor:
        """The (1, N, hidden) final state as (N, hidden), or (hidden,) for an unbatched step."""
        h = F.squeeze(h, 0)
        if not batched:
            return F.squeeze(h, 0)
        return h

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}" + ("" if self.bias else ", bias=False")


class LSTMCell(_RNNCellBase):
    """forward(input, (h, c)=None) -> (h', c')."""

    KIND = "LSTMCell"

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, 4, dtype)

    def forward(self, input: Tensor, hx: Optional[Tuple[Tensor, Tensor]] = None
                ) -> Tuple[Tensor, Tensor]:
        x = self._step_input(input)
        batched = len(input.shape) == 2
        h0: Optional[Tensor] = None
        c0: Optional[Tensor] = None
        if hx is not None:
            h0 = hx[0]
            c0 = hx[1]
        _, h, c = F.lstm(x, [self._state(h0, x, batched), self._state(c0, x, batched)],
                         self._weights(), self.bias, 1, 0.0, False, False, False)
        return self._result(h, batched), self._result(c, batched)


class GRUCell(_RNNCellBase):
    """forward(input, h=None) -> h'."""

    KIND = "GRUCell"

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, 3, dtype)

    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor:
        x = self._step_input(input)
        batched = len(input.shape) == 2
        _, h = F.gru(x, self._state(hx, x, batched), self._weights(), self.bias, 1, 0.0,
                     False, False, False)
        return self._result(h, batched)


class RNNCell(_RNNCellBase):
    """forward(input, h=None) -> h', with tanh or relu."""

    KIND = "RNNCell"

    __constants__ = ("input_size", "hidden_size", "bias", "nonlinearity")
    nonlinearity: str

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        super().__init__(input_size, hidden_size, bias, 1, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor:
        x = self._step_input(input)
        batched = len(input.shape) == 2
        h0 = self._state(hx, x, batched)
        if self.nonlinearity == "tanh":  # a constant: only one branch is compiled
            _, h = F.rnn_tanh(x, h0, self._weights(), self.bias, 1, 0.0, False, False, False)
        else:
            _, h = F.rnn_relu(x, h0, self._weights(), self.bias, 1, 0.0, False, False, False)
        return self._result(h, batched)
