"""TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer and TransformerDecoder,
as torch.nn's (post- or pre-norm, relu or gelu, batch_first). Submodule names match torch's
state_dict."""

from __future__ import annotations

import copy
from typing import Optional

import numpy as np

import ember.nn.functional as F
from ember.nn.activation import GELU, ReLU
from ember.nn.attention import MultiheadAttention
from ember.nn.functional import Tensor
from ember.nn.init import float_dtype
from ember.nn.linear import Linear
from ember.nn.misc import Dropout
from ember.nn.module import Module, ModuleList
from ember.nn.norm import LayerNorm

ACTIVATIONS = ("relu", "gelu")


def activation_name(activation) -> str:
    """'relu' or 'gelu' for a name, an ember F function or an ember ReLU / GELU() layer."""
    if isinstance(activation, str):
        if activation not in ACTIVATIONS:
            raise RuntimeError(f"activation should be relu/gelu, not {activation}")
        return activation
    op = getattr(activation, "__ember_op__", None)
    if op in ("torch.nn.functional.relu", "torch.relu"):
        return "relu"
    if op == "torch.nn.functional.gelu":
        return "gelu"
    if isinstance(activation, ReLU):
        return "relu"
    if isinstance(activation, GELU) and activation.approximate == "none":
        return "gelu"
    raise ValueError(f"ember's transformer layers support the activations relu and gelu "
                     f"(names, F functions or ReLU()/GELU() layers), not {activation!r}")


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward block, each with a residual and a LayerNorm."""

    __constants__ = ("norm_first", "activation")
    norm_first: bool
    activation: str

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True,
                 device=None, dtype=None):
        super().__init__()
        self.activation = activation_name(activation)
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)

    def forward(self, src: Tensor, src_mask: Optional[Tensor] = None,
                src_key_padding_mask: Optional[Tensor] = None,
                is_causal: bool = False) -> Tensor:
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x: Tensor, attn_mask: Optional[Tensor],
                  key_padding_mask: Optional[Tensor], is_causal: bool) -> Tensor:
        out, _ = self.self_attn(x, x, x, key_padding_mask, False, attn_mask, True, is_causal)
        return self.dropout1(out)

    def _ff_block(self, x: Tensor) -> Tensor:
        h = self.linear1(x)
        if self.activation == "gelu":
            h = F.gelu(h)
        else:
            h = F.relu(h)
        return self.dropout2(self.linear2(self.dropout(h)))


class TransformerEncoder(Module):
    """`num_layers` copies of an encoder layer, then an optional final norm."""

    __constants__ = ("num_layers",)
    num_layers: int

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int,
                 norm: Optional[Module] = None, enable_nested_tensor: bool = True,
                 mask_check: bool = True):
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.add_module("norm", norm)
        self.enable_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check

    def forward(self, src: Tensor, mask: Optional[Tensor] = None,
                src_key_padding_mask: Optional[Tensor] = None,
                is_causal: Optional[bool] = None) -> Tensor:
        causal = False
        if is_causal is not None:
            causal = is_causal
        output = src
        for mod in self.layers:
            output = mod(output, mask, src_key_padding_mask, causal)
        norm = self.norm
        if norm is not None:
            output = norm(output)
        return output


class TransformerDecoderLayer(Module):
    """Self-attention, attention over the encoder's memory, then a feed-forward block; each
    with a residual and a LayerNorm (before or after, norm_first)."""

    __constants__ = ("norm_first", "activation")
    norm_first: bool
    activation: str

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True,
                 device=None, dtype=None):
        super().__init__()
        self.activation = activation_name(activation)
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                 batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Optional[Tensor] = None,
                memory_mask: Optional[Tensor] = None,
                tgt_key_padding_mask: Optional[Tensor] = None,
                memory_key_padding_mask: Optional[Tensor] = None,
                tgt_is_causal: bool = False, memory_is_causal: bool = False) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask,
                                    memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask,
                                              tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                               memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x: Tensor, attn_mask: Optional[Tensor],
                  key_padding_mask: Optional[Tensor], is_causal: bool) -> Tensor:
        out, _ = self.self_attn(x, x, x, key_padding_mask, False, attn_mask, True, is_causal)
        return self.dropout1(out)

    def _mha_block(self, x: Tensor, mem: Tensor, attn_mask: Optional[Tensor],
                   key_padding_mask: Optional[Tensor], is_causal: bool) -> Tensor:
        out, _ = self.multihead_attn(x, mem, mem, key_padding_mask, False, attn_mask, True,
                                     is_causal)
        return self.dropout2(out)

    def _ff_block(self, x: Tensor) -> Tensor:
        h = self.linear1(x)
        if self.activation == "gelu":
            h = F.gelu(h)
        else:
            h = F.relu(h)
        return self.dropout3(self.linear2(self.dropout(h)))


class TransformerDecoder(Module):
    """`num_layers` copies of a decoder layer, then an optional final norm."""

    __constants__ = ("num_layers",)
    num_layers: int

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int,
                 norm: Optional[Module] = None):
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.add_module("norm", norm)

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Optional[Tensor] = None,
                memory_mask: Optional[Tensor] = None,
                tgt_key_padding_mask: Optional[Tensor] = None,
                memory_key_padding_mask: Optional[Tensor] = None,
                tgt_is_causal: Optional[bool] = None, memory_is_causal: bool = False) -> Tensor:
        causal = False
        if tgt_is_causal is not None:
            causal = tgt_is_causal
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                         memory_key_padding_mask, causal, memory_is_causal)
        norm = self.norm
        if norm is not None:
            output = norm(output)
        return output


class Transformer(Module):
    """torch.nn.Transformer: an encoder stack and a decoder stack (or custom ones), each
    ending in a LayerNorm; submodule names match torch's state_dict."""

    __constants__ = ("d_model", "nhead", "batch_first")
    d_model: int
    nhead: int
    batch_first: bool

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", custom_encoder=None,
                 custom_decoder=None, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None):
        super().__init__()
        args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                batch_first, norm_first, bias)
        self.encoder = custom_encoder if custom_encoder is not None else TransformerEncoder(
            TransformerEncoderLayer(*args, dtype=dtype), num_encoder_layers,
            LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype))
        self.decoder = custom_decoder if custom_decoder is not None else TransformerDecoder(
            TransformerDecoderLayer(*args, dtype=dtype), num_decoder_layers,
            LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Optional[Tensor] = None,
                tgt_mask: Optional[Tensor] = None, memory_mask: Optional[Tensor] = None,
                src_key_padding_mask: Optional[Tensor] = None,
                tgt_key_padding_mask: Optional[Tensor] = None,
                memory_key_padding_mask: Optional[Tensor] = None,
                src_is_causal: Optional[bool] = None, tgt_is_causal: Optional[bool] = None,
                memory_is_causal: bool = False) -> Tensor:
        batch = 0 if self.batch_first else 1
        if len(src.shape) == 3 and src.shape[batch] != tgt.shape[batch]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, src_mask, src_key_padding_mask, src_is_causal)
        return self.decoder(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                            memory_key_padding_mask, tgt_is_causal, memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device=None, dtype=None):
        """The (sz, sz) float mask of torch's: -inf above the diagonal, 0 elsewhere."""
        mask = np.zeros((sz, sz), dtype=float_dtype(dtype))
        mask[np.triu_indices(sz, 1)] = -np.inf
        return mask
