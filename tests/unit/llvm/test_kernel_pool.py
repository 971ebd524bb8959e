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
