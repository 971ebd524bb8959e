"""Transposed convolutions against torch over strides, paddings, output paddings,
dilations, groups and bias, plus their shape function and errors."""

from __future__ import annotations

import numpy as np
import pytest

from ember.ops import get
from ember.ops.registry import ShapeMismatch
from tests.unit.ops.util import arg_info, run, same, to_torch

torch = pytest.importorskip("torch")
F = torch.nn.functional
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")
RNG = np.random.default_rng(12)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


CONV_T2D = [
    # (N, C, H, W), (C, O/g, kh, kw), stride, padding, output_padding, dilation, groups
    ((1, 3, 4, 4), (3, 2, 2, 2), 2, 0, 0, 1, 1),            # tiles: stride == kernel
    ((2, 4, 5, 6), (4, 3, 3, 3), 2, 1, 1, 1, 2),
    ((2, 4, 5, 5), (4, 4, 3, 2), (2, 1), (1, 0), (1, 0), (1, 2), 1),
    ((3, 6, 3, 3), (6, 2, 4, 4), 3, 2, 2, 1, 3),
    ((1, 2, 4, 4), (2, 3, 3, 3), 1, 0, 0, 2, 1),
    ((2, 4, 7, 5), (4, 1, 5, 5), 2, 2, 1, 2, 4),             # depthwise, output_padding < d
    ((1, 2, 1, 1), (2, 2, 3, 3), 1, 0, 0, 1, 1),
    ((2, 3, 4, 4), (3, 5, 1, 1), 1, 0, 0, 1, 1),
    ((2, 3, 4, 4), (3, 5, 1, 1), 2, 0, 1, 1, 1),
    ((2, 3, 6, 5), (3, 4, 4, 4), 2, 1, 0, 1, 1),             # the DCGAN upsampler
    ((3, 5, 5), (3, 4, 3, 3), 2, 1, 1, 1, 1),                # unbatched
]


@pytest.mark.parametrize("xs,ws,stride,padding,out_pad,dilation,groups", CONV_T2D)
@pytest.mark.parametrize("bias", [True, False])
def test_conv_transpose2d(xs, ws, stride, padding, out_pad, dilation, groups, bias):
    x, w = rand(*xs), rand(*ws)
    b = rand(ws[1] * groups) if bias else None
    want = F.conv_transpose2d(to_torch(x), to_torch(w), to_torch(b), stride, padding, out_pad,
                              groups, dilation)
    same(run("tensor.conv_transpose2d", x, w, b, stride, padding, out_pad, groups, dilation),
         want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("stride,padding,out_pad,dilation,groups", [
    (1, 0, 0, 1, 1), (2, 1, 1, 1, 1), (3, 2, 1, 2, 2), (4, 0, 0, 1, 4), (2, 0, 1, 3, 1)])
def test_conv_transpose1d(stride, padding, out_pad, dilation, groups):
    x, w, b = rand(2, 4, 9), rand(4, 8 // groups, 4), rand(8)
    want = F.conv_transpose1d(to_torch(x), to_torch(w), to_torch(b), stride, padding, out_pad,
                              groups, dilation)
    same(run("tensor.conv_transpose1d", x, w, b, stride, padding, out_pad, groups, dilation),
         want, atol=1e-5)
    same(run("tensor.conv_transpose1d", x[0], w, None, stride, padding, out_pad, groups,
             dilation), F.conv_transpose1d(to_torch(x[0]), to_torch(w), None, stride, padding,
                                           out_pad, groups, dilation), atol=1e-5)


CONV_T3D = [
    # (N, C, D, H, W), (C, O/g, kd, kh, kw), stride, padding, output_padding, dilation, groups
    ((1, 3, 2, 3, 4), (3, 2, 2, 2, 2), 2, 0, 0, 1, 1),           # tiles: stride == kernel
    ((2, 4, 3, 4, 5), (4, 3, 3, 3, 3), 2, 1, 1, 1, 2),
    ((2, 4, 3, 4, 3), (4, 4, 3, 2, 3), (2, 1, 1), (1, 0, 1), (1, 0, 0), (1, 2, 1), 1),
    ((2, 4, 3, 3, 4), (4, 1, 3, 3, 3), 2, 2, 1, 2, 4),             # depthwise
    ((2, 3, 2, 2, 2), (3, 5, 1, 1, 1), 1, 0, 0, 1, 1),
    ((3, 3, 4, 5), (3, 2, 3, 3, 3), 2, 1, 1, 1, 1),                # unbatched
]


@pytest.mark.parametrize("xs,ws,stride,padding,out_pad,dilation,groups", CONV_T3D)
@pytest.mark.parametrize("bias", [True, False])
def test_conv_transpose3d(xs, ws, stride, padding, out_pad, dilation, groups, bias):
    x, w = rand(*xs), rand(*ws)
    b = rand(ws[1] * groups) if bias else None
    want = F.conv_transpose3d(to_torch(x), to_torch(w), to_torch(b), stride, padding, out_pad,
                              groups, dilation)
    same(run("tensor.conv_transpose3d", x, w, b, stride, padding, out_pad, groups, dilation),
         want, rtol=1e-5, atol=1e-5)


def test_conv_transpose3d_errors_match_torch():
    with pytest.raises(RuntimeError, match=r"Expected 4D \(unbatched\) or 5D \(batched\) "
                       r"input to conv_transpose3d, but got input of size: \[2, 3, 4\]"):
        run("tensor.conv_transpose3d", rand(2, 3, 4), rand(2, 3, 1, 1, 1), None, 1, 0, 0, 1, 1)
    with pytest.raises(RuntimeError, match="expected input.*to have 4 channels"):
        run("tensor.conv_transpose3d", rand(1, 3, 2, 2, 2), rand(4, 2, 1, 1, 1), None, 1, 0, 0,
            1, 1)
    with pytest.raises(RuntimeError, match="Output size is too small"):
        run("tensor.conv_transpose3d", rand(1, 3, 1, 1, 1), rand(3, 2, 1, 1, 1), None, 1, 1, 0,
            1, 1)


def test_conv_transpose_float64_and_large_batch_chunks():
    x, w = rand(40, 8, 16, 16).astype(np.float64), rand(8, 8, 3, 3).astype(np.float64)
    want = F.conv_transpose2d(to_torch(x), to_torch(w), None, 2, 1, 1)
    same(run("tensor.conv_transpose2d", x, w, None, 2, 1, 1, 1, 1), want, atol=1e-10)


def test_conv_transpose_errors():
    x = rand(1, 3, 5, 5)
    with pytest.raises(RuntimeError, match="expected input.*to have 4 channels"):
        run("tensor.conv_transpose2d", x, rand(4, 2, 3, 3), None, 1, 0, 0, 1, 1)
    with pytest.raises(RuntimeError, match="output padding must be smaller"):
        run("tensor.conv_transpose2d", x, rand(3, 2, 3, 3), None, 1, 0, 1, 1, 1)
    with pytest.raises(RuntimeError, match="too small"):
        run("tensor.conv_transpose2d", rand(1, 3, 1, 1), rand(3, 2, 1, 1), None, 1, 1, 0, 1, 1)
    with pytest.raises(RuntimeError, match="type"):
        run("tensor.conv_transpose2d", x, rand(3, 2, 3, 3).astype(np.float64), None, 1, 0, 0,
            1, 1)
    with pytest.raises(RuntimeError, match="groups"):
        run("tensor.conv_transpose2d", x, rand(3, 2, 3, 3), None, 1, 0, 0, 2, 1)


def test_conv_transpose_shape_function_proves_mismatches():
    info = get("tensor.conv_transpose2d").shape_fn
    args = [rand(1, 3, 5, 5), rand(4, 2, 3, 3), None, 1, 0, 0, 1, 1]
    with pytest.raises(ShapeMismatch, match="channels"):
        info([arg_info(a) for a in args])
    args = [rand(1, 3, 1, 1), rand(3, 2, 1, 1), None, 1, 1, 0, 1, 1]
    with pytest.raises(ShapeMismatch, match="empty output"):
        info([arg_info(a) for a in args])
    args = [rand(2, 3, 5, 5), rand(3, 2, 3, 3), None, [2, 1], 1, [1, 0], 2, 1]
    assert info([arg_info(a) for a in args]).shape == (2, 4, 10, 5)
