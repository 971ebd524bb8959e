"""InstanceNorm1d, InstanceNorm2d and InstanceNorm3d: each (sample, channel) normalized over
its positions, or by running statistics when the layer tracks them (eval mode, as in torch).

Inputs may be batched (N, C, *) or unbatched (C, *).
"""

from __future__ import annotations

from typing import Optional

import ember.nn.functional as F
from ember.nn.functional import Tensor
from ember.nn.module import Module
from ember.nn.norm import init_norm_state


class _InstanceNorm(Module):
    __constants__ = ("num_features", "eps", "momentum", "affine", "track_running_stats",
                     "_spatial")
    num_features: int
    eps: float
    momentum: Optional[float]
    affine: bool
    track_running_stats: bool
    _spatial: int
    weight: Optional[Tensor]
    bias: Optional[Tensor]
    running_mean: Optional[Tensor]
    running_var: Optional[Tensor]

    def __init__(self, spatial: int, num_features: int, eps: float, momentum: Optional[float],
                 affine: bool, track_running_stats: bool, dtype):
        super().__init__()
        init_norm_state(self, num_features, eps, momentum, affine, track_running_stats, dtype)
        self._spatial = spatial

    def forward(self, input: Tensor) -> Tensor:
        rank = len(input.shape)
        if rank != self._spatial + 1 and rank != self._spatial + 2:
            raise ValueError(f"expected {self._spatial + 1}D or {self._spatial + 2}D input "
                             f"(got {rank}D input)")
        if self.affine and input.shape[rank - self._spatial - 1] != self.num_features:
            raise ValueError(f"expected input's size at dim={rank - self._spatial - 1} to "
                             f"match num_features ({self.num_features}), but got: "
                             f"{input.shape[rank - self._spatial - 1]}.")
        if rank == self._spatial + 1:
            return F.squeeze(self._norm(F.unsqueeze(input, 0)), 0)
        return self._norm(input)

    def _norm(self, x: Tensor) -> Tensor:
        momentum = self.momentum
        m = momentum if momentum is not None else 0.0
        # eval mode: the running statistics when tracked, else each instance's own
        return F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                               not self.track_running_stats, m, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, track_running_stats={self.track_running_stats}")


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of (N, C, L) or (C, L) inputs."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: Optional[float] = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device=None,
                 dtype=None):
        super().__init__(1, num_features, eps, momentum, affine, track_running_stats, dtype)


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of (N, C, H, W) or (C, H, W) inputs."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: Optional[float] = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device=None,
                 dtype=None):
        super().__init__(2, num_features, eps, momentum, affine, track_running_stats, dtype)


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of (N, C, D, H, W) or (C, D, H, W) inputs."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: Optional[float] = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device=None,
                 dtype=None):
        super().__init__(3, num_features, eps, momentum, affine, track_running_stats, dtype)
