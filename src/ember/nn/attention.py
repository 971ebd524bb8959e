"""MultiheadAttention with torch.nn.MultiheadAttention's parameters, masks and outputs.

Parameters: in_proj_weight (3E, E), in_proj_bias (3E), out_proj (a Linear), as torch's
state_dict names them. Masks follow torch: a bool attn_mask / key_padding_mask marks
positions that may NOT be attended (True = masked), a float mask is added to the scores.
forward is one fused operator, `F.multi_head_attention_forward` (torch's signature):
projections, masks, softmax and the output projection; with need_weights the weights come
back averaged over heads unless average_attn_weights=False.
"""

from __future__ import annotations

from typing import Optional, Tuple

import ember.nn.functional as F
from ember.errors import UnsupportedError
from ember.nn import init
from ember.nn.functional import Tensor
from ember.nn.linear import Linear
from ember.nn.module import Module


class MultiheadAttention(Module):
    """Attention of `num_heads` heads over embed_dim features (kdim = vdim = embed_dim)."""

    __constants__ = ("batch_first", "embed_dim", "num_heads", "head_dim", "dropout")
    embed_dim: int
    num_heads: int
    head_dim: int
    batch_first: bool
    in_proj_weight: Tensor
    in_proj_bias: Optional[Tensor]

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim=None, vdim=None,
                 batch_first: bool = False, device=None, dtype=None):
        super().__init__()
        _check_options(embed_dim, num_heads, add_bias_kv, add_zero_attn, kdim, vdim)
        self.embed_dim = embed_dim
        self.kdim = embed_dim
        self.vdim = embed_dim
        self.num_heads = num_heads
        self.dropout = float(dropout)
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        bound = init.xavier_bound(embed_dim, 3 * embed_dim)
        self.in_proj_weight = init.uniform((3 * embed_dim, embed_dim), bound, dtype)
        self.register_parameter("in_proj_bias", init.zeros((3 * embed_dim,), dtype)
                                if bias else None)
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, dtype=dtype)
        if bias:
            self.out_proj.bias = init.zeros((embed_dim,), dtype)

    def forward(self, query: Tensor, key: Tensor, value: Tensor,
                key_padding_mask: Optional[Tensor] = None, need_weights: bool = True,
                attn_mask: Optional[Tensor] = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> Tuple[Tensor, Optional[Tensor]]:
        if is_causal and attn_mask is None:
            raise RuntimeError("Need attn_mask if specifying the is_causal hint")
        swap = self.batch_first and len(query.shape) == 3
        if swap:
            # Self-attention keeps query, key and value one tensor, so the operator
            # projects them with one GEMM (as torch's forward does).
            same_kv = key is value
            same_qk = query is key
            query = F.transpose(query, 0, 1)
            key = query if same_qk else F.transpose(key, 0, 1)
            value = key if same_kv else F.transpose(value, 0, 1)
        # One fused operator (torch.nn.functional's signature) for projections, masks,
        # softmax and the output projection.
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, None, None, False, 0.0, self.out_proj.weight,
            self.out_proj.bias, False, key_padding_mask, need_weights, attn_mask, False, None,
            None, None, None, None, average_attn_weights, is_causal)
        if swap:
            out = F.transpose(out, 0, 1)
        return out, weights

    def extra_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}"


def _check_options(embed_dim, num_heads, add_bias_kv, add_zero_attn, kdim, vdim) -> None:
    if embed_dim <= 0 or num_heads <= 0:
        raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                         f"embed_dim={embed_dim} and num_heads={num_heads} instead")
    if embed_dim % num_heads:
        raise ValueError("embed_dim must be divisible by num_heads")
    for name, value in (("add_bias_kv", add_bias_kv), ("add_zero_attn", add_zero_attn)):
        if value:
            raise UnsupportedError(f"MultiheadAttention({name}=True) is not supported by "
                                   "ember yet")
    for name, value in (("kdim", kdim), ("vdim", vdim)):
        if value is not None and value != embed_dim:
            raise UnsupportedError(f"MultiheadAttention({name}={value}) with {name} != "
                                   f"embed_dim ({embed_dim}) is not supported by ember yet; "
                                   f"project the inputs to embed_dim first")
