"""The native max_pool2d (ember/llvm/kernel_pool.py) against the VM's numpy kernel (bit for
bit), and the calls it leaves to the kernel."""

from __future__ import annotations

import numpy as np
import pytest

import ember

pytest.importorskip("llvmlite")
torch = pytest.importorskip("torch")

from ember.llvm import kernels  # noqa: E402


def _run(pool, x):
    m = torch.nn.Sequential(pool).eval()
    vm, nat = ember.script(m), ember.script(m, backend="llvm")
    before = dict(kernels.COUNTS)
    got = nat(x)
    used = {k: v - before.get(k, 0) for k, v in kernels.COUNTS.items()
            if v != before.get(k, 0)}
    want = vm(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert np.array_equal(got, want, equal_nan=True)
    return used


@pytest.mark.parametrize("k, s", [(2, None), (3, 2), ((2, 3), (1, 2)), (3, 1), (1, 1)])
@pytest.mark.parametrize("shape", [(2, 3, 9, 11), (3, 8, 37)])
def test_max_pool_runs_natively_bit_for_bit(k, s, shape):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    x.flat[::7] = np.nan
    x.flat[1::13] = -np.inf
    assert _run(torch.nn.MaxPool2d(k, s), x) == {("tensor.max_pool2d", "native"): 1}


@pytest.mark.parametrize("pool, dtype", [
    (torch.nn.MaxPool2d(2, padding=1), np.float32),
    (torch.nn.MaxPool2d(3, dilation=2), np.float32),
    (torch.nn.MaxPool2d(2, ceil_mode=True), np.float32),
    (torch.nn.MaxPool2d(2), np.float64),
])
def test_other_pools_run_the_kernel(pool, dtype):
    x = np.random.default_rng(1).standard_normal((1, 2, 9, 9)).astype(dtype)
    assert _run(pool, x) == {("tensor.max_pool2d", "numpy"): 1}


def test_errors_are_the_kernels():
    m = torch.nn.Sequential(torch.nn.MaxPool2d(5)).eval()
    vm, nat = ember.script(m), ember.script(m, backend="llvm")
    bad = np.zeros((1, 2, 3, 3), np.float32)
    with pytest.raises(Exception) as want:
        vm(bad)
    with pytest.raises(type(want.value)) as got:
        nat(bad)
    assert str(got.value).splitlines()[0] == str(want.value).splitlines()[0]


def _pair_close(m, x):
    vm, nat = ember.script(m), ember.script(m, backend="llvm")
    before = dict(kernels.COUNTS)
    got = nat(x)
    used = {k: v - before.get(k, 0) for k, v in kernels.COUNTS.items()
            if v != before.get(k, 0)}
    want = vm(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    # a mean of n terms in another order: within n ulps of the mean of |x|
    n = x.shape[-1] * x.shape[-2]
    bound = n * np.spacing(np.abs(x).mean(axis=(-1, -2), keepdims=True).astype(np.float32))
    assert np.all(np.abs(got - want) <= bound)
    return used


@pytest.mark.parametrize("shape", [(2, 5, 7, 9), (3, 56, 56), (1, 64, 1, 1), (4, 3, 33, 1)])
@pytest.mark.parametrize("size", [1, (1, 1)])
def test_global_average_pool_runs_natively(shape, size):
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    m = torch.nn.Sequential(torch.nn.AdaptiveAvgPool2d(size)).eval()
    assert _pair_close(m, x) == {("tensor.adaptive_avg_pool2d", "native"): 1}


@pytest.mark.parametrize("size, dtype", [(2, np.float32), ((1, 2), np.float32),
                                         (1, np.float64)])
def test_other_adaptive_pools_run_the_kernel(size, dtype):
    x = np.random.default_rng(2).standard_normal((2, 3, 6, 5)).astype(dtype)
    m = torch.nn.Sequential(torch.nn.AdaptiveAvgPool2d(size)).eval()
    assert _pair_close(m, x) == {("tensor.adaptive_avg_pool2d", "numpy"): 1}


def _add(x, y):
    return x + y


@pytest.mark.parametrize("shape", [(7,), (3, 33), (2, 3, 40, 41)])
def test_tensor_add_runs_a_native_loop_bit_for_bit(shape):
    rng = np.random.default_rng(3)
    x, y = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
    x.flat[::5] = np.nan
    vm, nat = ember.script(_add), ember.script(_add, backend="llvm")
    r = nat.native_report(x, y)
    assert [(row.op, row.calls) for row in r.rows] == [("tensor.add", {"native": 1})]
    np.testing.assert_array_equal(nat(x, y), vm(x, y))
    # broadcasting and float64 run the kernels
    np.testing.assert_array_equal(nat(x, y[..., :1]), vm(x, y[..., :1]))
    np.testing.assert_array_equal(nat(x.astype(np.float64), y), vm(x.astype(np.float64), y))
