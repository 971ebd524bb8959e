"""Freeze's rewrites of tensor patterns: batch_norm folded into the convolution before it,
and conv2d(a * b) with a constant 1x1 weight fused into tensor.mul_conv2d (whose kernel
scales the weight instead of the activations when a * b is a per-channel scale). Results
agree with eager, in process and after save -> load; patterns that must not be rewritten
are not."""

from __future__ import annotations

import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F
from ember import mobile, ops


def _x(*shape, seed=1, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


class Squeeze(nn.Module):
    """conv -> BN -> squeeze-excite gate -> 1x1 project -> BN."""

    def __init__(self, c: int = 8, mid: int = 4, k: int = 1):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.reduce = nn.Conv2d(c, mid, 1)
        self.expand = nn.Conv2d(mid, c, 1)
        self.project = nn.Conv2d(c, 4, k, bias=False)
        self.bn2 = nn.BatchNorm2d(4)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv(x)))
        s = F.hardsigmoid(self.expand(F.relu(self.reduce(F.adaptive_avg_pool2d(y, 1)))))
        return self.bn2(self.project(s * y))


class TwoUses(nn.Module):
    def __init__(self):
        super().__init__()
        self.project = nn.Conv2d(8, 4, 1)

    def forward(self, x, s):
        y = x * s
        return self.project(y), y


def _stats(m, seed=3):
    rng = np.random.default_rng(seed)
    for bn in (m.bn1, m.bn2):
        c = bn.running_mean.shape[0]
        bn.running_mean[:] = rng.standard_normal(c) * 0.1
        bn.running_var[:] = rng.random(c) + 0.5
        bn.weight[:] = rng.random(c) + 0.5
        bn.bias[:] = rng.standard_normal(c) * 0.1
    return m.eval()


def _kernels(sm):
    return [line.split()[3] for line in sm.code.splitlines() if " KCALL " in line]


@pytest.mark.parametrize("batch", [1, 3])
def test_squeeze_excite_fuses_and_agrees(batch, tmp_path):
    m = _stats(Squeeze())
    x = _x(batch, 8, 6, 5)
    want = m(x)
    sm = ember.script(m)
    names = _kernels(sm)
    assert "tensor.mul_conv2d" in names
    assert "tensor.batch_norm" not in names and "tensor.mul" not in names
    np.testing.assert_allclose(sm(x), want, rtol=1e-5, atol=1e-5)
    sm.save(tmp_path / "m.ember")
    np.testing.assert_allclose(mobile.load(tmp_path / "m.ember")(x), want, rtol=1e-5,
                               atol=1e-5)


def test_a_3x3_projection_is_not_fused():
    m = _stats(Squeeze(k=3))
    x = _x(2, 8, 6, 5)
    sm = ember.script(m)
    names = _kernels(sm)
    assert "tensor.mul_conv2d" not in names and "tensor.mul " in sm.graph
    np.testing.assert_allclose(sm(x), m(x), rtol=1e-5, atol=1e-5)


def test_a_product_used_twice_is_not_fused():
    m = TwoUses().eval()
    x, s = _x(2, 8, 3, 3), _x(2, 8, 1, 1, seed=2)
    sm = ember.script(m)
    assert "tensor.mul_conv2d" not in _kernels(sm)
    for got, want in zip(sm(x, s), m(x, s)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def _unfused(a, b, w, bias, *rest):
    return ops.get("tensor.conv2d").kernel(ops.get("tensor.mul").kernel(a, b), w, bias, *rest)


FUSED_CASES = [
    # a shape, b shape, weight shape, conv args (stride, padding, dilation, groups)
    ((2, 6, 4, 5), (2, 6, 1, 1), (3, 6, 1, 1), (1, 0, 1, 1)),  # per-sample channel scale
    ((2, 6, 1, 1), (2, 6, 4, 5), (3, 6, 1, 1), (1, 0, 1, 1)),  # the scale first
    ((3, 6, 4, 5), (1, 6, 1, 1), (3, 6, 1, 1), ((1, 1), (0, 0), (1, 1), 1)),
    ((2, 6, 4, 5), (6, 1, 1), (3, 6, 1, 1), (1, "valid", 1, 1)),
    ((2, 6, 4, 5), (2, 6, 4, 5), (3, 6, 1, 1), (1, 0, 1, 1)),  # not a scale: unfused path
    ((1, 6, 4, 5), (2, 6, 1, 1), (3, 6, 1, 1), (1, 0, 1, 1)),  # the scale widens the batch
    ((2, 6, 4, 5), (2, 6, 1, 1), (3, 6, 1, 1), (2, 0, 1, 1)),  # strided
    ((2, 6, 4, 5), (2, 6, 1, 1), (4, 3, 1, 1), (1, 0, 1, 2)),  # grouped
    ((2, 6, 4, 5), (2, 6, 1, 1), (3, 6, 1, 1), (1, 1, 1, 1)),  # padded
    ((2, 6, 4, 5), (2, 1, 1, 1), (3, 6, 1, 1), (1, 0, 1, 1)),  # one scale for all channels
]


@pytest.mark.parametrize("ashape, bshape, wshape, conv", FUSED_CASES)
@pytest.mark.parametrize("bias", [False, True])
def test_mul_conv2d_kernel_equals_its_unfused_form(ashape, bshape, wshape, conv, bias):
    a, b, w = _x(*ashape), _x(*bshape, seed=2), _x(*wshape, seed=3)
    bb = _x(wshape[0], seed=4) if bias else None
    got = ops.get("tensor.mul_conv2d").kernel(a, b, w, bb, *conv)
    want = _unfused(a, b, w, bb, *conv)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("a, b, w, bias", [
    (_x(2, 6, 4, 5), _x(2, 5, 1, 1), _x(3, 6, 1, 1), None),   # bad broadcast
    (_x(2, 6, 4, 5), _x(2, 6, 1, 1), _x(3, 4, 1, 1), None),   # channels do not match
    (_x(2, 6, 4, 5), _x(2, 6, 1, 1, dtype=np.float64), _x(3, 6, 1, 1), None),  # dtypes
    (_x(2, 6, 4, 5), _x(2, 6, 1, 1), _x(3, 6, 1, 1), _x(3, dtype=np.float64)),
])
def test_mul_conv2d_kernel_raises_what_its_unfused_form_raises(a, b, w, bias):
    with pytest.raises(RuntimeError) as want:
        _unfused(a, b, w, bias, 1, 0, 1, 1)
    with pytest.raises(RuntimeError) as got:
        ops.get("tensor.mul_conv2d").kernel(a, b, w, bias, 1, 0, 1, 1)
    assert str(got.value) == str(want.value)


class ConvBN(nn.Module):
    def __init__(self, conv, bn):
        super().__init__()
        self.conv, self.bn = conv, bn

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


@pytest.mark.parametrize("conv,bn,shape", [
    (nn.Conv1d(3, 5, 3, padding=1), nn.BatchNorm1d(5), (2, 3, 9)),
    (nn.Conv3d(3, 5, 3, padding=1, bias=False), nn.BatchNorm3d(5), (2, 3, 4, 5, 6))],
    ids=["1d", "3d"])
def test_batch_norm_folds_into_conv1d_and_conv3d(conv, bn, shape, tmp_path):
    m = ConvBN(conv, bn)
    rng = np.random.default_rng(4)
    bn.running_mean[:] = rng.standard_normal(5) * 0.1
    bn.running_var[:] = rng.random(5) + 0.5
    m.eval()
    x = _x(*shape)
    sm = ember.script(m)
    assert "tensor.batch_norm" not in _kernels(sm)
    np.testing.assert_allclose(sm(x), m(x), rtol=1e-5, atol=1e-5)
    sm.save(tmp_path / "m.ember")
    np.testing.assert_array_equal(mobile.load(tmp_path / "m.ember")(x), sm(x))


def test_batch_norm_of_the_wrong_size_is_not_folded():
    """Statistics that do not match the conv's channels (a corrupt import) stay a batch norm,
    which raises at run time; freezing must not crash on them."""
    m = ConvBN(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(4)).eval()
    sm = ember.script(m)
    assert "tensor.batch_norm" in _kernels(sm)
    with pytest.raises((RuntimeError, ValueError)):
        sm(_x(1, 1, 5, 5))
