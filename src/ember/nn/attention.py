"""MultiheadAttention with torch.nn.MultiheadAttention's parameters, masks and outputs.

Parameters: in_proj_weight (3E, E), in_proj_bias (3E), out_proj (a Linear), as torch's
state_dict names them. Masks follow torch: a bool attn_mask / key_padding_mask marks
positions that may NOT be attended (True = masked), a float mask is added to the scores.
With need_weights the weights are computed explicitly (softmax(q k^T / sqrt(d) + mask)) and
returned averaged over heads unless average_attn_weights=False; without, the fused
`F.scaled_dot_product_attention` does the work and the weights are None.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import ember.nn.functional as F
from ember.errors import UnsupportedError
from ember.nn import init
from ember.nn.functional import Tensor
from ember.nn.linear import Linear
from ember.nn.module import Module


def float_mask(mask: Tensor, like: Tensor) -> Tensor:
    """A bool mask (True = masked) as an additive float mask (-inf / 0) of like's dtype;
    float masks as they are."""
    if mask.dtype == F.bool:
        return F.where(mask, F.full_like(mask, float("-inf"), dtype=like.dtype), 0.0)
    return mask


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
        batched = len(query.shape) == 3
        q = self._time_major(query, batched)
        k = self._time_major(key, batched)
        v = self._time_major(value, batched)
        mask = self._mask(q, k, key_padding_mask, attn_mask, batched)
        out, weights = self._attend(q, k, v, mask, need_weights, average_attn_weights)
        if not batched:
            out = F.squeeze(out, 1)
            if weights is not None:
                weights = F.squeeze(weights, 0)
        elif self.batch_first:
            out = F.transpose(out, 0, 1)
        return out, weights

    def _time_major(self, x: Tensor, batched: bool) -> Tensor:
        """(L, N, E): unbatched inputs get N = 1, batch_first inputs are transposed."""
        if not batched:
            return F.unsqueeze(x, 1)
        if self.batch_first:
            return F.transpose(x, 0, 1)
        return x

    def _mask(self, q: Tensor, k: Tensor, key_padding_mask: Optional[Tensor],
              attn_mask: Optional[Tensor], batched: bool) -> Tensor:
        """attn_mask and key_padding_mask merged into one additive (N or 1, H or 1, L, S)
        float mask (zeros when there is none)."""
        tgt = q.shape[0]
        n = q.shape[1]
        src = k.shape[0]
        mask = F.zeros([1, 1, 1, 1], dtype=q.dtype)
        if attn_mask is not None:
            m = float_mask(attn_mask, q)
            if len(m.shape) == 2:
                _check_mask_shape(m, [tgt, src], "2D attn_mask")
                mask = mask + F.reshape(m, [1, 1, tgt, src])
            else:
                _check_mask_shape(m, [n * self.num_heads, tgt, src], "3D attn_mask")
                mask = mask + F.reshape(m, [n, self.num_heads, tgt, src])
        if key_padding_mask is not None:
            kp = float_mask(key_padding_mask, q)
            if not batched:
                kp = F.unsqueeze(kp, 0)
            _check_mask_shape(kp, [n, src], "key_padding_mask")
            mask = mask + F.reshape(kp, [n, 1, 1, src])
        return mask

    def _heads(self, x: Tensor, part: int) -> Tensor:
        """Project x (T, N, E) with part 0/1/2 (q/k/v) of in_proj into heads (N, H, T, D)."""
        e = self.embed_dim
        w = F.narrow(self.in_proj_weight, 0, part * e, e)
        b: Optional[Tensor] = None
        in_b = self.in_proj_bias
        if in_b is not None:
            b = F.narrow(in_b, 0, part * e, e)
        y = F.linear(x, w, b)
        y = F.reshape(y, [x.shape[0], x.shape[1] * self.num_heads, self.head_dim])
        return F.reshape(F.transpose(y, 0, 1), [x.shape[1], self.num_heads, x.shape[0],
                                                self.head_dim])

    def _attend(self, query: Tensor, key: Tensor, value: Tensor, mask: Tensor,
                need_weights: bool, average: bool) -> Tuple[Tensor, Optional[Tensor]]:
        q = self._heads(query, 0)
        k = self._heads(key, 1)
        v = self._heads(value, 2)
        weights: Optional[Tensor] = None
        if need_weights:
            scale = (1.0 / float(self.head_dim)) ** 0.5
            scores = F.matmul(q * scale, F.transpose(k, 2, 3)) + mask
            w = F.softmax(scores, -1)
            out = F.matmul(w, v)
            if average:
                weights = F.mean(w, [1])
            else:
                weights = w
        else:
            out = F.scaled_dot_product_attention(q, k, v, mask)
        tgt = query.shape[0]
        n = query.shape[1]
        out = F.reshape(F.permute(out, [2, 0, 1, 3]), [tgt, n, self.embed_dim])
        return self.out_proj(out), weights

    def extra_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}"


def _check_mask_shape(mask: Tensor, want: List[int], what: str) -> None:
    ok = len(mask.shape) == len(want)
    if ok:
        for i in range(len(want)):
            if mask.shape[i] != want[i]:
                ok = False
    if not ok:
        raise RuntimeError(f"The shape of the {what} is {list(mask.shape)}, but should be "
                           f"{want}.")


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
