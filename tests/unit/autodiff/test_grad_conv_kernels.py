"""Convolution backward kernels (ops/tensor_grad.py) against torch's convolution_backward:
the depthwise weight gradient over plane blocks, and the forward's contiguous results."""

import numpy as np
import pytest

from ember.ops import tensor_grad as TG
from ember.ops.tensor_conv import conv2d

torch = pytest.importorskip("torch")

CASES = [  # n, channels, size, kernel, stride, padding, dilation
    (2, 3, 9, 3, 1, 1, 1), (2, 3, 9, 3, 2, 1, 1), (2, 4, 10, 5, 1, 2, 2),
    (3, 5, 11, 3, 2, 0, 1), (2, 3, 8, 2, 3, 3, 1), (5, 16, 7, 3, 1, 1, 1)]


@pytest.mark.parametrize("case", CASES)
def test_depthwise_weight_gradient_equals_torch(case, monkeypatch):
    n, c, size, k, st, pad, dil = case
    monkeypatch.setattr(TG, "_DW_PLANES", 4)  # several blocks, a partial last one
    rng = np.random.default_rng(sum(case))
    x = rng.standard_normal((n, c, size, size))
    w = rng.standard_normal((c, 1, k, k))
    y = torch.nn.functional.conv2d(torch.tensor(x), torch.tensor(w), None, st, pad, dil, c)
    g = rng.standard_normal(tuple(y.shape))
    want = torch.ops.aten.convolution_backward(
        torch.tensor(g), torch.tensor(x), torch.tensor(w), None, [st] * 2, [pad] * 2,
        [dil] * 2, False, [0, 0], c, [False, True, False])[1].numpy()
    got = TG.conv2d_weight_backward(g, x, w, st, pad, dil, c)
    assert got.dtype == np.float64 and got.shape == w.shape
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
    got32 = TG.conv2d_weight_backward(g.astype(np.float32), x.astype(np.float32),
                                      w.astype(np.float32), st, pad, dil, c)
    assert got32.dtype == np.float32
    np.testing.assert_allclose(got32, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("groups,cout", [(1, 6), (4, 4)])
def test_stride_one_convolutions_are_contiguous(groups, cout):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 4, 7, 9)).astype(np.float32)
    w = rng.standard_normal((cout, 4 // groups, 3, 3)).astype(np.float32)
    got = conv2d(x, w, None, 1, 1, 1, groups)
    want = torch.nn.functional.conv2d(torch.tensor(x), torch.tensor(w), None, 1, 1, 1, groups)
    assert got.flags.c_contiguous
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-5, atol=1e-5)
