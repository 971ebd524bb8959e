"""The native linear (ember/llvm/kernel_linear.py) against the VM's numpy kernel, and the
calls it leaves to the kernel."""

from __future__ import annotations

import numpy as np
import pytest

import ember

pytest.importorskip("llvmlite")
torch = pytest.importorskip("torch")

from ember.llvm import kernels  # noqa: E402


def _pair(layer):
    m = torch.nn.Sequential(layer).eval()
    return ember.script(m), ember.script(m, backend="llvm")


def _run(layer, x):
    vm, nat = _pair(layer)
    before = dict(kernels.COUNTS)
    got = nat(x)
    used = {k: v - before.get(k, 0) for k, v in kernels.COUNTS.items()
            if v != before.get(k, 0)}
    want = vm(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    w = layer.weight.detach().numpy().astype(np.float64)
    terms = np.abs(x.astype(np.float64)) @ np.abs(w).T
    assert np.all(np.abs(got.astype(np.float64) - want) <= 1e-6 * (terms + 1))
    return used


@pytest.mark.parametrize("shape", [(4, 7), (9, 33), (3, 5, 70), (2, 2, 2, 16)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_runs_natively(shape, bias):
    torch.manual_seed(0)
    layer = torch.nn.Linear(shape[-1], 37, bias=bias)
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    assert _run(layer, x) == {("tensor.linear", "native"): 1}


@pytest.mark.parametrize("k,n", [(7, 5), (33, 70), (100, 3), (64, 64), (300, 130),
                                 (17, 200), (40, 63)])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("lead", [(1,), (1, 1)])
def test_one_row_runs_the_native_gemv(k, n, bias, lead):
    torch.manual_seed(5)
    layer = torch.nn.Linear(k, n, bias=bias)
    x = np.random.default_rng(6).standard_normal(lead + (k,)).astype(np.float32)
    assert _run(layer, x) == {("tensor.linear", "native"): 1}


def test_strided_rows_are_copied_then_native():
    torch.manual_seed(7)
    x = np.random.default_rng(8).standard_normal((8, 6, 3)).astype(np.float32)[:, :, 1]
    assert not x.flags.c_contiguous
    assert _run(torch.nn.Linear(8, 5), x.T) == {("tensor.linear", "native"): 1}
    assert _run(torch.nn.Linear(6, 5), x) == {("tensor.linear", "native"): 1}


def test_gemv_columns_match_the_product_row_bits():
    """The column-form GEMV runs the GEMM one-row tile's operations: same bits."""
    from ember.llvm import kernel_gemm as G, kernel_gemv as GV, kernels
    rng = np.random.default_rng(9)
    x = rng.standard_normal((1, 77)).astype(np.float32)
    wt = rng.standard_normal((77, 150)).astype(np.float32)
    b = rng.standard_normal(150).astype(np.float32)
    y1, y2 = np.empty((1, 150), np.float32), np.empty((1, 150), np.float32)
    A = kernels.array
    GV.native(True, "relu")(A(x), A(wt), A(b), A(y1), 77, 150)
    off = np.arange(77, dtype=np.int64) * 150
    G.native("col", "relu")(x.ctypes.data, 77, 1, off.ctypes.data, wt.ctypes.data, 0,
                            y2.ctypes.data, 150, 0, b.ctypes.data, 1, 77, 1, 150)
    np.testing.assert_array_equal(y1, y2)


@pytest.mark.parametrize("x", [
    np.ones((3, 8), np.float32),                          # fewer rows than ROWS
    np.ones((8,), np.float32),                            # a vector
])
def test_other_linears_run_the_kernel(x):
    torch.manual_seed(2)
    assert _run(torch.nn.Linear(x.shape[-1], 5), x) == {("tensor.linear", "numpy"): 1}


def test_float64_and_errors_are_the_kernels():
    torch.manual_seed(3)
    layer = torch.nn.Linear(6, 4).double()
    x = np.random.default_rng(4).standard_normal((5, 6))
    assert _run(layer, x) == {("tensor.linear", "numpy"): 1}
    vm, nat = _pair(torch.nn.Linear(6, 4))
    bad = np.zeros((5, 7), np.float32)
    with pytest.raises(Exception) as want:
        vm(bad)
    with pytest.raises(type(want.value)) as got:
        nat(bad)
    assert str(got.value).splitlines()[0] == str(want.value).splitlines()[0]


def test_rows_apart_are_read_in_place_with_the_copys_bits():
    from ember.llvm.kernel_linear import linear_act

    rng = np.random.default_rng(4)
    seq = rng.standard_normal((6, 5, 40)).astype(np.float32)
    w = rng.standard_normal((24, 40)).astype(np.float32)
    b = rng.standard_normal(24).astype(np.float32)
    x = seq[:, -1]  # rows 200 floats apart
    assert not x.flags.c_contiguous
    assert np.array_equal(linear_act(x, w, b), linear_act(np.ascontiguousarray(x), w, b))
