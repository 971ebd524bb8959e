"""LSTM, GRU and RNN (tanh or relu): multi-layer, optionally bidirectional, batch_first,
optional initial state.

Weights keep torch's names and layouts (weight_ih_l{k}{_reverse}: gates stacked (i, f, g, o)
for LSTM, (r, z, n) for GRU), so torch state_dicts load as they are. forward passes them in
torch's order (`_flat_weights`) to the fused operators `F.lstm` / `F.gru` / `F.rnn_tanh` /
`F.rnn_relu` (torch._VF's signature), whose kernels run the time loop.
"""

from __future__ import annotations

import math
from typing import Optional, Tuple

import ember.nn.functional as F
from ember.errors import UnsupportedError
from ember.nn import init
from ember.nn.functional import Tensor
from ember.nn.module import Module


class _RNNBase(Module):
    __constants__ = ("mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first",
                     "dropout", "bidirectional", "proj_size")
    input_size: int
    hidden_size: int
    num_layers: int
    bias: bool
    batch_first: bool
    bidirectional: bool

    def __init__(self, mode: str, gates: int, input_size: int, hidden_size: int,
                 num_layers: int, bias: bool, batch_first: bool, dropout: float,
                 bidirectional: bool, proj_size: int, dtype):
        super().__init__()
        _check_args(mode, hidden_size, num_layers, dropout, proj_size)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        dirs = 2 if bidirectional else 1
        bound = 1.0 / math.sqrt(hidden_size)
        names = []
        for layer in range(num_layers):
            for d in range(dirs):
                suffix = f"_l{layer}" + ("_reverse" if d else "")
                width = input_size if layer == 0 else hidden_size * dirs
                shapes = {"weight_ih": (gates * hidden_size, width),
                          "weight_hh": (gates * hidden_size, hidden_size)}
                if bias:
                    shapes.update(bias_ih=(gates * hidden_size,), bias_hh=(gates * hidden_size,))
                for kind, shape in shapes.items():
                    self.register_parameter(kind + suffix, init.uniform(shape, bound, dtype))
                    names.append(kind + suffix)
        self._flat_weights_names = names
        self._refresh_flat_weights()

    def _refresh_flat_weights(self) -> None:
        """`_flat_weights`: the weights in torch's order (per layer and direction w_ih, w_hh[,
        b_ih, b_hh]), a plain List[Tensor] attribute as in torch, so compiled code reads it;
        holding the same arrays as the named weights (load_state_dict copies into them in
        place) and refreshed by __setattr__ when a named weight is assigned."""
        names = self.__dict__.get("_flat_weights_names")
        if names is not None:
            object.__setattr__(self, "_flat_weights", [self._tensors[n] for n in names])

    def __setattr__(self, name, value) -> None:
        super().__setattr__(name, value)
        if name in self.__dict__.get("_flat_weights_names", ()):
            self._refresh_flat_weights()

    def _check_input(self, x: Tensor) -> None:
        if len(x.shape) != 2 and len(x.shape) != 3:
            raise ValueError(f"{self.mode}: Expected input to be 2D or 3D, got "
                             f"{len(x.shape)}D instead")
        if x.shape[len(x.shape) - 1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {x.shape[len(x.shape) - 1]}")

    def _sequence(self, x: Tensor) -> Tensor:
        """A 3-D input for the kernel: an unbatched one as (T, 1, features); a batched one
        as it is (the kernel reads batch_first inputs without a transposed copy)."""
        if len(x.shape) == 2:
            return F.unsqueeze(x, 1)
        return x

    def _batch_first(self, batched: bool) -> bool:
        return self.batch_first and batched

    def _output(self, out: Tensor, batched: bool) -> Tensor:
        if not batched:
            return F.squeeze(out, 1)
        return out

    def _state(self, h: Optional[Tensor], x: Tensor, batched: bool) -> Tensor:
        """An initial state (layers * dirs, N, hidden): given (batched or not) or zeros."""
        dirs = 2 if self.bidirectional else 1
        n = x.shape[0] if self._batch_first(batched) else x.shape[1]
        if h is None:
            return F.zeros([self.num_layers * dirs, n, self.hidden_size], dtype=x.dtype)
        if not batched:
            h = F.unsqueeze(h, 1)
        if h.shape[0] != self.num_layers * dirs or h.shape[1] != n or \
                h.shape[2] != self.hidden_size:
            raise RuntimeError(f"Expected hidden size ({self.num_layers * dirs}, {n}, "
                               f"{self.hidden_size}), got {list(h.shape)}")
        return h

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if not self.bias:
            text += ", bias=False"
        if self.batch_first:
            text += ", batch_first=True"
        if self.bidirectional:
            text += ", bidirectional=True"
        return text


def _check_args(mode, hidden_size, num_layers, dropout, proj_size) -> None:
    if not isinstance(hidden_size, int) or hidden_size <= 0:
        raise ValueError("hidden_size must be an integer greater than zero")
    if not isinstance(num_layers, int) or num_layers <= 0:
        raise ValueError("num_layers must be an integer greater than zero")
    if not 0 <= dropout <= 1:
        raise ValueError("dropout should be a number in range [0, 1]")
    if proj_size:
        raise UnsupportedError(f"{mode}(proj_size={proj_size}) is not supported by ember yet; "
                               "use proj_size=0 and a Linear on the outputs")


class LSTM(_RNNBase):
    """forward(input, (h0, c0)=None) -> (output, (h_n, c_n)), exactly as torch.nn.LSTM."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None, dtype=None):
        super().__init__("LSTM", 4, input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, dtype)

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
        out, h, c = F.lstm(x, [self._state(h0, x, batched), self._state(c0, x, batched)],
                           self._flat_weights, self.bias, self.num_layers, 0.0, False,
                           self.bidirectional, self._batch_first(batched))
        if not batched:
            h = F.squeeze(h, 1)
            c = F.squeeze(c, 1)
        return self._output(out, batched), (h, c)


class GRU(_RNNBase):
    """forward(input, h0=None) -> (output, h_n), exactly as torch.nn.GRU."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, device=None, dtype=None):
        super().__init__("GRU", 3, input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, 0, dtype)

    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tuple[Tensor, Tensor]:
        self._check_input(input)
        batched = len(input.shape) == 3
        x = self._sequence(input)
        out, h = F.gru(x, self._state(hx, x, batched), self._flat_weights, self.bias,
                       self.num_layers, 0.0, False, self.bidirectional,
                       self._batch_first(batched))
        if not batched:
            h = F.squeeze(h, 1)
        return self._output(out, batched), h


class RNN(_RNNBase):
    """Elman RNN, tanh or relu: forward(input, h0=None) -> (output, h_n), as torch.nn.RNN."""

    __constants__ = ("nonlinearity",)
    nonlinearity: str

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        super().__init__("RNN", 1, input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, 0, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tuple[Tensor, Tensor]:
        self._check_input(input)
        batched = len(input.shape) == 3
        x = self._sequence(input)
        h0 = self._state(hx, x, batched)
        if self.nonlinearity == "tanh":  # a constant: only one branch is compiled
            out, h = F.rnn_tanh(x, h0, self._flat_weights, self.bias, self.num_layers, 0.0,
                                False, self.bidirectional, self._batch_first(batched))
        else:
            out, h = F.rnn_relu(x, h0, self._flat_weights, self.bias, self.num_layers, 0.0,
                                False, self.bidirectional, self._batch_first(batched))
        if not batched:
            h = F.squeeze(h, 1)
        return self._output(out, batched), h

    def extra_repr(self) -> str:
        text = super().extra_repr()
        if self.nonlinearity != "tanh":
            text += f", nonlinearity={self.nonlinearity!r}"
        return text
