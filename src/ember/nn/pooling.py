"""Pooling: MaxPool1d/2d/3d, AvgPool1d/2d/3d, LPPool1d/2d/3d, AdaptiveAvgPool1d/2d/3d,
AdaptiveMaxPool1d/2d/3d, and MaxUnpool1d/2d/3d (the partial inverse of a max pool, from its
indices).

Hyper-parameters keep torch's attribute names and values (an int stays an int); forward
uses their normalized lists (`_kernel`, `_stride`, ...). 1-d pooling runs the 2-d operator
on a (N, C, 1, L) view. Inputs may be batched or unbatched, as torch allows.

Max pools with `return_indices=True` return `(values, indices)` as torch does: the flag is
a constant, so only one branch of their forward compiles, and the forward has no return
annotation (its result is a tensor or a pair, depending on the instance).
"""

from __future__ import annotations

import math
from typing import List, Optional

import ember.nn.functional as F
from ember.nn.conv import ntuple
from ember.nn.functional import Tensor
from ember.nn.module import Module


def _pool_lists(n: int, kernel_size, stride, padding) -> tuple:
    k = ntuple(kernel_size, n, "kernel_size")
    s = ntuple(stride, n, "stride") if stride is not None and stride != [] else k
    p = ntuple(padding, n, "padding")
    if any(2 * pi > ki for pi, ki in zip(p, k)):
        raise ValueError(f"pad should be at most half of effective kernel size, but got "
                         f"pad={p} and kernel_size={k}")
    return list(k), list(s), list(p)


def _as_2d(x: Tensor, spatial: int) -> Tensor:
    """A batched (N, C, ...) view of x: unbatched inputs get a batch dim of 1."""
    if len(x.shape) == spatial + 1:
        return F.unsqueeze(x, 0)
    return x


def _restore(y: Tensor, x: Tensor, spatial: int) -> Tensor:
    if len(x.shape) == spatial + 1:
        return F.squeeze(y, 0)
    return y


class _MaxPoolNd(Module):
    __constants__ = ("kernel_size", "stride", "padding", "dilation", "return_indices",
                     "ceil_mode")

    def __init__(self, n, kernel_size, stride, padding, dilation, return_indices, ceil_mode):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = bool(return_indices)
        self.ceil_mode = ceil_mode
        self._kernel, self._stride, self._padding = _pool_lists(n, kernel_size, stride, padding)
        self._dilation = list(ntuple(dilation, n, "dilation"))

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding},"
                f" dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    _kernel: List[int]
    _stride: List[int]
    _padding: List[int]
    _dilation: List[int]

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False):
        super().__init__(1, kernel_size, stride, padding, dilation, return_indices, ceil_mode)

    def forward(self, input: Tensor):
        if self.return_indices:  # a constant: only one branch is compiled
            return F.max_pool1d_with_indices(input, self._kernel, self._stride, self._padding,
                                             self._dilation, self.ceil_mode)
        x = F.unsqueeze(_as_2d(input, 1), 2)
        y = F.max_pool2d(x, [1, self._kernel[0]], [1, self._stride[0]], [0, self._padding[0]],
                         [1, self._dilation[0]], self.ceil_mode)
        return _restore(F.squeeze(y, 2), input, 1)


class MaxPool2d(_MaxPoolNd):
    _kernel: List[int]
    _stride: List[int]
    _padding: List[int]
    _dilation: List[int]

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False):
        super().__init__(2, kernel_size, stride, padding, dilation, return_indices, ceil_mode)

    def forward(self, input: Tensor):
        if self.return_indices:  # a constant: only one branch is compiled
            return F.max_pool2d_with_indices(input, self._kernel, self._stride, self._padding,
                                             self._dilation, self.ceil_mode)
        y = F.max_pool2d(_as_2d(input, 2), self._kernel, self._stride, self._padding,
                         self._dilation, self.ceil_mode)
        return _restore(y, input, 2)


class MaxPool3d(_MaxPoolNd):
    _kernel: List[int]
    _stride: List[int]
    _padding: List[int]
    _dilation: List[int]

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False):
        super().__init__(3, kernel_size, stride, padding, dilation, return_indices, ceil_mode)

    def forward(self, input: Tensor):
        if self.return_indices:  # a constant: only one branch is compiled
            return F.max_pool3d_with_indices(input, self._kernel, self._stride, self._padding,
                                             self._dilation, self.ceil_mode)
        return F.max_pool3d(input, self._kernel, self._stride, self._padding, self._dilation,
                            self.ceil_mode)


class _MaxUnpoolNd(Module):
    """Scatters each value to its index in a zero output; output_size (n or n + 2 sizes) picks
    among the sizes a max pool with these hyper-parameters maps to the input's size."""

    __constants__ = ("kernel_size", "stride", "padding")
    _kernel: List[int]
    _stride: List[int]
    _padding: List[int]

    def __init__(self, n: int, kernel_size, stride, padding):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self._kernel = list(ntuple(kernel_size, n, "kernel_size"))
        self._stride = list(ntuple(self.stride, n, "stride"))
        self._padding = list(ntuple(padding, n, "padding"))

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__(1, kernel_size, stride, padding)

    def forward(self, input: Tensor, indices: Tensor,
                output_size: Optional[List[int]] = None) -> Tensor:
        return F.max_unpool1d(input, indices, self._kernel, self._stride, self._padding,
                              output_size)


class MaxUnpool2d(_MaxUnpoolNd):
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__(2, kernel_size, stride, padding)

    def forward(self, input: Tensor, indices: Tensor,
                output_size: Optional[List[int]] = None) -> Tensor:
        return F.max_unpool2d(input, indices, self._kernel, self._stride, self._padding,
                              output_size)


class MaxUnpool3d(_MaxUnpoolNd):
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__(3, kernel_size, stride, padding)

    def forward(self, input: Tensor, indices: Tensor,
                output_size: Optional[List[int]] = None) -> Tensor:
        return F.max_unpool3d(input, indices, self._kernel, self._stride, self._padding,
                              output_size)


class _AvgPoolNd(Module):
    __constants__ = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad")

    def __init__(self, n, kernel_size, stride, padding, ceil_mode, count_include_pad):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self._kernel, self._stride, self._padding = _pool_lists(n, kernel_size, stride, padding)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    _kernel: List[int]
    _stride: List[int]
    _padding: List[int]
    count_include_pad: bool

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True):
        super().__init__(1, kernel_size, stride, padding, ceil_mode, count_include_pad)

    def forward(self, input: Tensor) -> Tensor:
        x = F.unsqueeze(_as_2d(input, 1), 2)
        y = F.avg_pool2d(x, [1, self._kernel[0]], [1, self._stride[0]], [0, self._padding[0]],
                         self.ceil_mode, self.count_include_pad)
        return _restore(F.squeeze(y, 2), input, 1)


class AvgPool2d(_AvgPoolNd):
    _kernel: List[int]
    _stride: List[int]
    _padding: List[int]
    count_include_pad: bool
    divisor_override: Optional[int]

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: Optional[int] = None):
        super().__init__(2, kernel_size, stride, padding, ceil_mode, count_include_pad)
        self.divisor_override = _check_divisor(divisor_override)

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(input, self._kernel, self._stride, self._padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AvgPool3d(_AvgPoolNd):
    _kernel: List[int]
    _stride: List[int]
    _padding: List[int]
    count_include_pad: bool
    divisor_override: Optional[int]

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: Optional[int] = None):
        super().__init__(3, kernel_size, stride, padding, ceil_mode, count_include_pad)
        self.divisor_override = _check_divisor(divisor_override)

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool3d(input, self._kernel, self._stride, self._padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


def _check_divisor(divisor: Optional[int]) -> Optional[int]:
    if divisor is not None and divisor <= 0:
        raise ValueError("divisor must be not zero")
    return divisor


class _LPPoolNd(Module):
    """Power-average pooling: (sum over the window of x ** p) ** (1 / p), computed as torch
    does, from an average pool (so ceil_mode's clipped windows scale the same way); p = inf
    (-inf) is the max (min) of |x|."""

    __constants__ = ("norm_type", "kernel_size", "stride", "ceil_mode", "_window", "_inf")
    norm_type: float
    ceil_mode: bool
    _window: float
    _inf: int
    _kernel: List[int]
    _stride: List[int]

    def __init__(self, n: int, norm_type, kernel_size, stride, ceil_mode: bool):
        super().__init__()
        self.norm_type = float(norm_type)
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode
        self._kernel, self._stride, _ = _pool_lists(n, kernel_size, stride, 0)
        self._window = float(math.prod(self._kernel))
        self._inf = 0 if math.isfinite(self.norm_type) else (1 if self.norm_type > 0 else -1)

    def _root(self, pooled: Tensor) -> Tensor:
        """The window sums of x ** p (the average times the window), to the power 1 / p."""
        return F.pow(F.sign(pooled) * F.relu(F.abs(pooled)) * self._window,
                     1.0 / self.norm_type)

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    def __init__(self, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False):
        super().__init__(1, norm_type, kernel_size, stride, ceil_mode)

    def forward(self, input: Tensor) -> Tensor:
        if self._inf != 0:  # a constant: only one branch is compiled
            y = F.max_pool1d(F.abs(input) * float(self._inf), self._kernel, self._stride, [0],
                             [1], self.ceil_mode)
            return y * float(self._inf)
        return self._root(F.avg_pool1d(F.pow(input, self.norm_type), self._kernel,
                                       self._stride, [0], self.ceil_mode, True))


class LPPool2d(_LPPoolNd):
    def __init__(self, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False):
        super().__init__(2, norm_type, kernel_size, stride, ceil_mode)

    def forward(self, input: Tensor) -> Tensor:
        if self._inf != 0:  # a constant: only one branch is compiled
            y = F.max_pool2d(F.abs(input) * float(self._inf), self._kernel, self._stride,
                             [0, 0], [1, 1], self.ceil_mode)
            return y * float(self._inf)
        return self._root(F.avg_pool2d(F.pow(input, self.norm_type), self._kernel,
                                       self._stride, [0, 0], self.ceil_mode, True))


class LPPool3d(_LPPoolNd):
    def __init__(self, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False):
        super().__init__(3, norm_type, kernel_size, stride, ceil_mode)

    def forward(self, input: Tensor) -> Tensor:
        if self._inf != 0:  # a constant: only one branch is compiled
            y = F.max_pool3d(F.abs(input) * float(self._inf), self._kernel, self._stride,
                             [0, 0, 0], [1, 1, 1], self.ceil_mode)
            return y * float(self._inf)
        return self._root(F.avg_pool3d(F.pow(input, self.norm_type), self._kernel,
                                       self._stride, [0, 0, 0], self.ceil_mode, True))


def _adaptive_size(size, n: int) -> List[int]:
    """output_size as a list; None entries (keep the input's size) become -1."""
    if size is None or isinstance(size, int):
        size = (size,) * n
    size = tuple(size)
    if len(size) != n:
        raise ValueError(f"output_size must be an int or a tuple of {n}, got {size!r}")
    return [-1 if s is None else int(s) for s in size]


class AdaptiveAvgPool1d(Module):
    __constants__ = ("output_size",)
    _size: List[int]

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size
        self._size = _adaptive_size(output_size, 1)

    def forward(self, input: Tensor) -> Tensor:
        length = self._size[0]
        if length < 0:
            length = input.shape[len(input.shape) - 1]
        y = F.adaptive_avg_pool2d(F.unsqueeze(input, -2), [1, length])
        return F.squeeze(y, -2)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2d(Module):
    __constants__ = ("output_size",)
    _size: List[int]

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size
        self._size = _adaptive_size(output_size, 2)

    def forward(self, input: Tensor) -> Tensor:
        h = self._size[0]
        w = self._size[1]
        if h < 0:
            h = input.shape[len(input.shape) - 2]
        if w < 0:
            w = input.shape[len(input.shape) - 1]
        return F.adaptive_avg_pool2d(input, [h, w])

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool3d(Module):
    __constants__ = ("output_size",)
    _size: List[int]

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size
        self._size = _adaptive_size(output_size, 3)

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool3d(input, _sizes(self._size, input))

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


def _sizes(size: List[int], input: Tensor) -> List[int]:
    """The adaptive output size, -1 entries replaced by the input's trailing sizes."""
    rank = len(input.shape)
    out: List[int] = []
    for i, s in enumerate(size):
        out.append(input.shape[rank - len(size) + i] if s < 0 else s)
    return out


class _AdaptiveMaxPoolNd(Module):
    __constants__ = ("output_size", "return_indices")
    _size: List[int]

    def __init__(self, n: int, output_size, return_indices: bool):
        super().__init__()
        self.output_size = output_size
        self.return_indices = bool(return_indices)
        self._size = _adaptive_size(output_size, n)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    def __init__(self, output_size, return_indices: bool = False):
        super().__init__(1, output_size, return_indices)

    def forward(self, input: Tensor):
        length = self._size[0]
        if length < 0:
            length = input.shape[len(input.shape) - 1]
        if self.return_indices:  # a constant: only one branch is compiled
            return F.adaptive_max_pool1d_with_indices(input, [length])
        y = F.adaptive_max_pool2d(F.unsqueeze(input, -2), [1, length])
        return F.squeeze(y, -2)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    def __init__(self, output_size, return_indices: bool = False):
        super().__init__(2, output_size, return_indices)

    def forward(self, input: Tensor):
        h = self._size[0]
        w = self._size[1]
        if h < 0:
            h = input.shape[len(input.shape) - 2]
        if w < 0:
            w = input.shape[len(input.shape) - 1]
        if self.return_indices:  # a constant: only one branch is compiled
            return F.adaptive_max_pool2d_with_indices(input, [h, w])
        return F.adaptive_max_pool2d(input, [h, w])


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    def __init__(self, output_size, return_indices: bool = False):
        super().__init__(3, output_size, return_indices)

    def forward(self, input: Tensor):
        if self.return_indices:  # a constant: only one branch is compiled
            return F.adaptive_max_pool3d_with_indices(input, _sizes(self._size, input))
        return F.adaptive_max_pool3d(input, _sizes(self._size, input))
