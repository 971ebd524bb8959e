"""Normalization layers: BatchNorm1d/2d/3d (inference: running statistics), LayerNorm, GroupNorm,
RMSNorm and LocalResponseNorm (InstanceNorm is in instancenorm.py).

BatchNorm and LayerNorm call the fused operators (`F.batch_norm`, `F.layer_norm`): one
kernel each, and `ember.freeze` folds a batch norm into the convolution before it.
"""

from __future__ import annotations

import numbers
from typing import List, Optional, Tuple

import numpy as np

import ember.nn.functional as F
from ember.nn import init
from ember.nn.functional import Tensor
from ember.nn.module import Module


def _channel_shape(x: Tensor) -> List[int]:
    """[C, 1, ...]: a per-channel vector broadcast over the dims after (N, C)."""
    shape: List[int] = [x.shape[1]]
    for _ in range(len(x.shape) - 2):
        shape.append(1)
    return shape


def batch_norm(x: Tensor, mean: Tensor, var: Tensor, weight: Optional[Tensor],
               bias: Optional[Tensor], eps: float) -> Tensor:
    """(x - mean) / sqrt(var + eps) * weight + bias over channel dim 1, folded into one
    scale and shift per channel (as torch's CPU kernel computes it)."""
    scale = F.rsqrt(var + eps)
    if weight is not None:
        scale = scale * weight
    shift = -mean * scale
    if bias is not None:
        shift = shift + bias
    shape = _channel_shape(x)
    return x * F.reshape(scale, shape) + F.reshape(shift, shape)


def init_norm_state(m, num_features, eps, momentum, affine, track_running_stats, dtype):
    """The state torch's batch and instance norms share: hyper-parameters, the affine
    weight and bias (or None), and the running statistics (or None)."""
    m.num_features = num_features
    m.eps = float(eps)
    m.momentum = momentum
    m.affine = affine
    m.track_running_stats = track_running_stats
    m.register_parameter("weight", init.ones((num_features,), dtype) if affine else None)
    m.register_parameter("bias", init.zeros((num_features,), dtype) if affine else None)
    if track_running_stats:
        m.register_buffer("running_mean", init.zeros((num_features,), dtype))
        m.register_buffer("running_var", init.ones((num_features,), dtype))
        m.register_buffer("num_batches_tracked", np.array(0, dtype=np.int64))
    else:
        m.register_buffer("running_mean", None)
        m.register_buffer("running_var", None)
        m.register_buffer("num_batches_tracked", None)


class _BatchNorm(Module):
    __constants__ = ("track_running_stats", "momentum", "eps", "num_features", "affine")
    num_features: int
    eps: float
    momentum: Optional[float]
    affine: bool
    track_running_stats: bool
    weight: Optional[Tensor]
    bias: Optional[Tensor]
    running_mean: Optional[Tensor]
    running_var: Optional[Tensor]

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: Optional[float] = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device=None,
                 dtype=None):
        super().__init__()
        init_norm_state(self, num_features, eps, momentum, affine, track_running_stats, dtype)

    def _norm(self, x: Tensor) -> Tensor:
        mean = self.running_mean
        var = self.running_var
        if mean is not None and var is not None:
            return F.batch_norm(x, mean, var, self.weight, self.bias, False, 0.0, self.eps)
        mean, var = self._stats(x)
        return batch_norm(x, mean, var, self.weight, self.bias, self.eps)

    def _stats(self, x: Tensor) -> Tuple[Tensor, Tensor]:
        """Running statistics, or the batch's own when the layer keeps none (as torch)."""
        mean = self.running_mean
        var = self.running_var
        if mean is not None and var is not None:
            return mean, var
        dims: List[int] = [0]
        for d in range(2, len(x.shape)):
            dims.append(d)  # noqa: PERF402 (no list(range) in the scriptable subset's ops)
        return F.mean(x, dims), F.var(x, dims, False)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch normalization of (N, C) or (N, C, L) inputs."""

    def forward(self, input: Tensor) -> Tensor:
        if len(input.shape) != 2 and len(input.shape) != 3:
            raise ValueError(f"expected 2D or 3D input (got {len(input.shape)}D input)")
        return self._norm(input)


class BatchNorm2d(_BatchNorm):
    """Batch normalization of (N, C, H, W) inputs."""

    def forward(self, input: Tensor) -> Tensor:
        if len(input.shape) != 4:
            raise ValueError(f"expected 4D input (got {len(input.shape)}D input)")
        return self._norm(input)


class BatchNorm3d(_BatchNorm):
    """Batch normalization of (N, C, D, H, W) inputs."""

    def forward(self, input: Tensor) -> Tensor:
        if len(input.shape) != 5:
            raise ValueError(f"expected 5D input (got {len(input.shape)}D input)")
        return self._norm(input)


class LayerNorm(Module):
    """Normalization over the trailing `normalized_shape` dims."""

    __constants__ = ("normalized_shape", "eps", "elementwise_affine")
    eps: float
    elementwise_affine: bool
    weight: Optional[Tensor]
    bias: Optional[Tensor]

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(int(d) for d in normalized_shape)
        self.eps = float(eps)
        self.elementwise_affine = elementwise_affine
        affine_w = init.ones(self.normalized_shape, dtype) if elementwise_affine else None
        affine_b = init.zeros(self.normalized_shape, dtype) if elementwise_affine and bias \
            else None
        self.register_parameter("weight", affine_w)
        self.register_parameter("bias", affine_b)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class GroupNorm(Module):
    """Normalization over groups of channels of (N, C, *) inputs."""

    __constants__ = ("num_groups", "num_channels", "eps", "affine")
    num_groups: int
    num_channels: int
    eps: float
    affine: bool
    weight: Optional[Tensor]
    bias: Optional[Tensor]

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device=None, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = float(eps)
        self.affine = affine
        self.register_parameter("weight", init.ones((num_channels,), dtype) if affine else None)
        self.register_parameter("bias", init.zeros((num_channels,), dtype) if affine else None)

    def forward(self, input: Tensor) -> Tensor:
        if len(input.shape) < 2 or input.shape[1] != self.num_channels:
            raise RuntimeError(f"GroupNorm: expected input of shape (N, {self.num_channels}, "
                               f"*), got {list(input.shape)}")
        g = F.reshape(input, [input.shape[0], self.num_groups, -1])
        c = g - F.mean(g, [2], True)
        y = F.reshape(c * F.rsqrt(F.mean(c * c, [2], True) + self.eps), input.shape)
        shape = _channel_shape(input)
        weight = self.weight
        if weight is not None:
            y = y * F.reshape(weight, shape)
        bias = self.bias
        if bias is not None:
            y = y + F.reshape(bias, shape)
        return y

    def extra_repr(self) -> str:
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"


class RMSNorm(Module):
    """x / sqrt(mean(x^2 over the trailing `normalized_shape` dims) + eps) * weight; eps None
    is the input dtype's machine epsilon."""

    __constants__ = ("normalized_shape", "eps", "elementwise_affine")
    eps: Optional[float]
    elementwise_affine: bool
    weight: Optional[Tensor]

    def __init__(self, normalized_shape, eps: Optional[float] = None,
                 elementwise_affine: bool = True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(int(d) for d in normalized_shape)
        self.eps = None if eps is None else float(eps)
        self.elementwise_affine = elementwise_affine
        self.register_parameter("weight", init.ones(self.normalized_shape, dtype)
                                if elementwise_affine else None)

    def forward(self, input: Tensor) -> Tensor:
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class LocalResponseNorm(Module):
    """x / (k + alpha * mean of x^2 over `size` neighbouring channels) ** beta."""

    __constants__ = ("size", "alpha", "beta", "k")
    size: int
    alpha: float
    beta: float
    k: float

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
        super().__init__()
        self.size = size
        self.alpha = float(alpha)
        self.beta = float(beta)
        self.k = float(k)

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
