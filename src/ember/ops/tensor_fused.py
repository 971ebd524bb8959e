"""Fused operators: patterns the freeze pass rewrites into one kernel. They have no Python
spelling (scripts cannot call them); each computes exactly its unfused form, and takes a
fast path only when the run-time shapes allow it.

- `tensor.mul_conv2d(a, b, weight, bias, stride, padding, dilation, groups)` is
  `conv2d(a * b, weight, bias, ...)`. When one factor scales the other per channel
  (squeeze-excite: (N, C, H, W) * (N, C, 1, 1)) and the convolution is pointwise (1x1,
  stride 1, no padding, one group), it scales the weight's C columns for each sample
  instead of the N*C*H*W activations: W @ (s * y) = (W * s) @ y.
"""

from __future__ import annotations

import numpy as np

from ember.ops.registry import get
from ember.ops.tensor_common import binary_info, reg
from ember.ops.tensor_conv import _check, _conv_info, conv2d
from ember.ops.tensorinfo import UNKNOWN, ArgInfo, TensorInfo


def _channel_scale(y, s):
    """Whether s (N or 1, C, 1, 1) or (C, 1, 1) scales the (N, C, H, W) y per channel
    without widening its shape or dtype."""
    if y.ndim != 4 or s.ndim not in (3, 4) or s.shape[-2:] != (1, 1) or \
            s.shape[-3] != y.shape[1] or y.dtype != s.dtype or y.dtype.kind != "f":
        return False
    return s.ndim == 3 or s.shape[0] in (1, y.shape[0])


def _pointwise(w, stride, padding, dilation, groups):
    return w.ndim == 4 and w.shape[2:] == (1, 1) and groups == 1 and \
        stride in (1, (1, 1), [1, 1]) and padding in (0, (0, 0), [0, 0], "valid") and \
        dilation in (1, (1, 1), [1, 1])


def mul_conv2d(a, b, w, bias, stride, padding, dilation, groups):
    """conv2d(a * b, weight, bias, stride, padding, dilation, groups)."""
    if _pointwise(w, stride, padding, dilation, groups):
        y, s = (a, b) if _channel_scale(a, b) else (b, a) if _channel_scale(b, a) else (None, None)
        if y is not None and y.dtype == w.dtype:
            _check(y, w, bias, groups, "conv2d")
            n, c, h, wd = y.shape
            o = w.shape[0]
            scaled = w.reshape(1, o, c) * s.reshape(-1, 1, c)
            out = np.matmul(scaled, y.reshape(n, c, h * wd)).reshape(n, o, h, wd)
            if bias is not None:
                out += bias.reshape(1, -1, 1, 1)
            return out
    return conv2d(get("tensor.mul").kernel(a, b), w, bias, stride, padding, dilation, groups)


def _mul_conv2d_info(args):
    x = binary_info(args[:2])
    return _conv_info(2)([ArgInfo(x.dtype, x.shape, None, True)] + list(args[2:]))


reg("tensor.mul_conv2d", "(Tensor self, Tensor other, Tensor weight, Tensor? bias=None, "
    "Any stride=1, Any padding=0, Any dilation=1, int groups=1) -> Tensor", mul_conv2d, (),
    _mul_conv2d_info, may_raise=True)


def _product_stand_in(a, b):
    """A zero-strided tensor of a * b's shape and dtype (the input gradient of a
    convolution reads only its input's shape and dtype)."""
    dtype = np.result_type(a, b) if a.dtype != b.dtype else a.dtype
    return np.broadcast_to(np.zeros((), dtype), np.broadcast_shapes(a.shape, b.shape))


def mul_conv2d_input_backward(g, a, b, w, stride, padding, dilation, groups):
    """d conv2d(a * b, weight, ...) / d (a * b), without the product."""
    from ember.ops.tensor_grad import conv2d_input_backward
    return conv2d_input_backward(g, _product_stand_in(a, b), w, stride, padding, dilation,
                                 groups)


def mul_conv2d_weight_backward(g, a, b, w, stride, padding, dilation, groups):
    """d conv2d(a * b, weight, ...) / d weight. A per-channel scale s of y under a
    pointwise convolution is applied to the per-sample products instead of the
    activations: sum_n (G_n @ Y_n^T) * s_n, no N*C*H*W product."""
    from ember.ops.tensor_grad import conv2d_weight_backward
    if _pointwise(w, stride, padding, dilation, groups):
        y, s = (a, b) if _channel_scale(a, b) else (b, a) if _channel_scale(b, a) else (None, None)
        if y is not None and y.dtype == w.dtype == g.dtype:
            n, c, h, wd = y.shape
            o = w.shape[0]
            per = np.matmul(g.reshape(n, o, h * wd), y.reshape(n, c, h * wd).transpose(0, 2, 1))
            per *= s.reshape(-1, 1, c)
            return per.sum(axis=0).reshape(w.shape)
    return conv2d_weight_backward(g, get("tensor.mul").kernel(a, b), w, stride, padding,
                                  dilation, groups)


def _weight_info(args):
    w = args[3]
    return TensorInfo(w.dtype, w.shape) if w.is_tensor else UNKNOWN


reg("tensor.mul_conv2d_input_backward", "(Tensor grad, Tensor self, Tensor other, "
    "Tensor weight, Any stride, Any padding, Any dilation, int groups) -> Tensor",
    mul_conv2d_input_backward, (), lambda args: binary_info(args[1:3]), may_raise=True)
reg("tensor.mul_conv2d_weight_backward", "(Tensor grad, Tensor self, Tensor other, "
    "Tensor weight, Any stride, Any padding, Any dilation, int groups) -> Tensor",
    mul_conv2d_weight_backward, (), _weight_info, may_raise=True)
