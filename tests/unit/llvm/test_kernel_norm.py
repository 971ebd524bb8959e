"""The native layer_norm (ember/llvm/kernel_norm.py) against the VM's numpy kernel, and the
calls it leaves to the kernel."""

from __future__ import annotations

import numpy as np
import pytest

import ember

pytest.importorskip("llvmlite")
torch = pytest.importorskip("torch")

from ember.llvm import kernels  # noqa: E402


def _run(layer, x):
    m = torch.nn.Sequential(layer).eval()
    vm, nat = ember.script(m), ember.script(m, backend="llvm")
    before = dict(kernels.COUNTS)
    got = nat(x)
    used = {k: v - before.get(k, 0) for k, v in kernels.COUNTS.items()
            if v != before.get(k, 0)}
    want = vm(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    # sums in 16 lanes where the kernel's BLAS dot has its own order: a few ulp of the
    # normalized values (|y| of a few units)
    assert np.abs(got - want).max() <= 1e-5 * (1 + np.abs(want).max())
    return used


@pytest.mark.parametrize("shape", [(3, 128), (2, 5, 37), (1, 16), (4, 7), (2, 3, 200)])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_runs_natively(shape, affine):
    torch.manual_seed(0)
    layer = torch.nn.LayerNorm(shape[-1], elementwise_affine=affine)
    if affine:
        with torch.no_grad():
            layer.weight.normal_()
            layer.bias.normal_()
    x = (np.random.default_rng(1).standard_normal(shape) * 3 + 1).astype(np.float32)
    assert _run(layer, x) == {("tensor.layer_norm", "native"): 1}


@pytest.mark.parametrize("layer, x", [
    (torch.nn.LayerNorm((4, 5)), np.ones((2, 4, 5), np.float32)),          # two dims
    (torch.nn.LayerNorm(5).double(), np.ones((2, 5))),                      # float64
    (torch.nn.LayerNorm(6), np.ones((6, 2), np.float32).T),                 # not contiguous
])
def test_other_layer_norms_run_the_kernel(layer, x):
    assert _run(layer, x) == {("tensor.layer_norm", "numpy"): 1}


def test_nan_and_errors_are_the_kernels():
    m = torch.nn.Sequential(torch.nn.LayerNorm(4)).eval()
    vm, nat = ember.script(m), ember.script(m, backend="llvm")
    x = np.array([[1, np.nan, 2, 3], [1, 2, 3, 4]], np.float32)
    got, want = nat(x), vm(x)
    assert np.isnan(got[0]).all() and np.abs(got[1] - want[1]).max() < 1e-6
    bad = np.zeros((2, 5), np.float32)
    with pytest.raises(Exception) as want_e:
        vm(bad)
    with pytest.raises(type(want_e.value)) as got_e:
        nat(bad)
    assert str(got_e.value).splitlines()[0] == str(want_e.value).splitlines()[0]
