"""Identity, Dropout (identity at inference), Flatten, Unflatten, Embedding, EmbeddingBag
and ChannelShuffle."""

from __future__ import annotations

from typing import List, Optional

import numpy as np

import ember.nn.functional as F
from ember.errors import UnsupportedError
from ember.nn import init
from ember.nn.functional import Tensor
from ember.nn.module import Module


class Identity(Module):
    """Returns its input; takes (and ignores) any constructor arguments, as torch's."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Dropout(Module):
    """Identity: ember runs inference, where dropout does nothing."""

    __constants__ = ("p", "inplace")
    p: float

    def __init__(self, p: float = 0.5, inplace: bool = False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = float(p)
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return input

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Flatten(Module):
    """Flattens dims start_dim..end_dim into one."""

    __constants__ = ("start_dim", "end_dim")
    start_dim: int
    end_dim: int

    def __init__(self, start_dim: int = 1, end_dim: int = -1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return F.flatten(input, self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Splits dim `dim` into `unflattened_size` (one entry may be -1)."""

    __constants__ = ("dim", "unflattened_size")
    dim: int
    _sizes: List[int]

    def __init__(self, dim: int, unflattened_size):
        super().__init__()
        if isinstance(dim, str):
            raise UnsupportedError("Unflatten over a named dimension is not supported by ember; "
                                   "give the dim as an int")
        sizes = [int(s) for s in unflattened_size]
        if sizes.count(-1) > 1:
            raise ValueError("Unflatten: only one size may be -1")
        self.dim = dim
        self.unflattened_size = tuple(unflattened_size)
        self._sizes = sizes

    def forward(self, input: Tensor) -> Tensor:
        rank = len(input.shape)
        dim = self.dim
        if dim < 0:
            dim = dim + rank
        shape: List[int] = []
        for i in range(dim):
            shape.append(input.shape[i])
        shape.extend(self._sizes)
        for i in range(dim + 1, rank):
            shape.append(input.shape[i])
        return F.reshape(input, shape)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


def _padding_index(padding_idx, num_embeddings):
    """padding_idx in [0, num_embeddings) (negative counts from the end), or None."""
    if padding_idx is not None:
        if not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError("padding_idx must be within num_embeddings")
        padding_idx = padding_idx % num_embeddings
    return padding_idx


def _table(num_embeddings, embedding_dim, padding_idx, _weight, dtype):
    """The given weight as an array, or a normal one with the padding row zeroed."""
    if _weight is not None:
        return np.array(_weight, dtype=None if dtype is None else init.float_dtype(dtype))
    weight = init.normal((num_embeddings, embedding_dim), dtype)
    if padding_idx is not None:
        weight[padding_idx] = 0
    return weight


class Embedding(Module):
    """A lookup table: weight[input] for an integer input tensor."""

    __constants__ = ("num_embeddings", "embedding_dim", "padding_idx")
    num_embeddings: int
    embedding_dim: int
    padding_idx: Optional[int]
    weight: Tensor

    def __init__(self, num_embeddings: int, embedding_dim: int,
                 padding_idx: Optional[int] = None, max_norm: Optional[float] = None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False,
                 _weight=None, _freeze: bool = False, device=None, dtype=None):
        super().__init__()
        if max_norm is not None:
            raise UnsupportedError("Embedding(max_norm=...) is not supported by ember (it "
                                   "renormalizes the weight during forward); renormalize the "
                                   "weight once before scripting and drop max_norm")
        padding_idx = _padding_index(padding_idx, num_embeddings)
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.weight = _table(num_embeddings, embedding_dim, padding_idx, _weight, dtype)

    def forward(self, input: Tensor) -> Tensor:
        return F.embedding(input, self.weight)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        return text


class ChannelShuffle(Module):
    """(N, g * k, *) -> (N, k * g, *): interleaves the channels of the g groups."""

    __constants__ = ("groups",)
    groups: int

    def __init__(self, groups: int):
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


class EmbeddingBag(Module):
    """Sums, means or maxima of bags of embedding rows: forward(input, offsets=None,
    per_sample_weights=None), bags being the rows of a 2-D input or a 1-D input cut at
    offsets."""

    __constants__ = ("num_embeddings", "embedding_dim", "mode", "include_last_offset",
                     "padding_idx")
    num_embeddings: int
    embedding_dim: int
    mode: str
    include_last_offset: bool
    padding_idx: Optional[int]
    weight: Tensor

    def __init__(self, num_embeddings: int, embedding_dim: int,
                 max_norm: Optional[float] = None, norm_type: float = 2.0,
                 scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                 _weight=None, include_last_offset: bool = False,
                 padding_idx: Optional[int] = None, device=None, dtype=None):
        super().__init__()
        if max_norm is not None:
            raise UnsupportedError("EmbeddingBag(max_norm=...) is not supported by ember (it "
                                   "renormalizes the weight during forward); renormalize the "
                                   "weight once before scripting and drop max_norm")
        if mode not in ("sum", "mean", "max"):
            raise ValueError(f"mode has to be one of sum, mean or max, got {mode!r}")
        padding_idx = _padding_index(padding_idx, num_embeddings)
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.mode = mode
        self.include_last_offset = include_last_offset
        self.padding_idx = padding_idx
        self.weight = _table(num_embeddings, embedding_dim, padding_idx, _weight, dtype)

    def forward(self, input: Tensor, offsets: Optional[Tensor] = None,
                per_sample_weights: Optional[Tensor] = None) -> Tensor:
        return F.embedding_bag(input, self.weight, offsets, None, 2.0, False, self.mode, False,
                               per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}, mode={self.mode!r}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        return text
