"""CosineSimilarity and PairwiseDistance between two broadcastable inputs."""

from __future__ import annotations

import ember.nn.functional as F
from ember.nn.functional import Tensor
from ember.nn.module import Module


class CosineSimilarity(Module):
    """sum(x1 * x2) / (max(|x1|, eps) * max(|x2|, eps)) along dim."""

    __constants__ = ("dim", "eps")
    dim: int
    eps: float

    def __init__(self, dim: int = 1, eps: float = 1e-8):
        super().__init__()
        self.dim = dim
        self.eps = float(eps)

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """The p-norm of x1 - x2 + eps along the last dim."""

    __constants__ = ("norm", "eps", "keepdim")
    norm: float
    eps: float
    keepdim: bool

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False):
        super().__init__()
        self.norm = float(p)
        self.eps = float(eps)
        self.keepdim = keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
