"""The native float32 product (ember/llvm/kernel_gemm.py) against numpy, every tile shape
(8 / 4 / 1 rows; 32 / 16 / masked columns), each epilogue, and the offset-table reads."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("llvmlite")

from ember.llvm import kernel_gemm as G  # noqa: E402


def _run(a, b, c, bias, opts, off=None, ni=1, sbi=0, sci=0, nj=None):
    m, k = a.shape
    off = np.arange(k, dtype=np.int64) * b.shape[-1] if off is None else off
    G.native(*opts)(a.ctypes.data, a.strides[0] // 4, a.strides[1] // 4, off.ctypes.data,
                    b.ctypes.data, sbi, c.ctypes.data, c.shape[-1] if ni == 1 else
                    c.shape[-1] * ni, sci, 0 if bias is None else bias.ctypes.data, m, k, ni,
                    b.shape[-1] if nj is None else nj)


@pytest.mark.parametrize("m", [1, 3, 4, 8, 13, 32])
@pytest.mark.parametrize("n", [1, 15, 16, 33, 48, 70])
@pytest.mark.parametrize("opts", [(None, None, False), ("row", "relu", False),
                                  ("col", None, False), (None, None, True)])
def test_product_matches_numpy_within_the_sum_bound(m, n, opts):
    rng = np.random.default_rng(m * 100 + n)
    k = 37
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c0 = rng.standard_normal((m, n)).astype(np.float32)
    c = c0.copy()
    bias = rng.standard_normal(m if opts[0] == "row" else n).astype(np.float32)
    _run(a, b, c, bias, opts)
    want = a.astype(np.float64) @ b.astype(np.float64)
    if opts[2]:
        want += c0
    if opts[0] == "row":
        want += bias[:, None]
    elif opts[0] == "col":
        want += bias[None, :]
    if opts[1] == "relu":
        want = np.maximum(want, 0)
    scale = np.abs(a).astype(np.float64) @ np.abs(b) + np.abs(c0) * opts[2] + 1
    assert np.all(np.abs(c - want) <= 2e-6 * scale)


def test_masked_columns_write_nothing_past_the_row():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((5, 9)).astype(np.float32)
    b = rng.standard_normal((9, 21)).astype(np.float32)
    c = np.full((5, 24), np.nan, np.float32)  # 3 columns the product must not touch
    off = np.arange(9, dtype=np.int64) * 21
    G.native(None, None, False)(a.ctypes.data, 9, 1, off.ctypes.data, b.ctypes.data, 0,
                                c.ctypes.data, 24, 0, 0, 5, 9, 1, 21)
    assert np.all(np.isnan(c[:, 21:]))
    assert np.abs(c[:, :21] - a @ b).max() < 1e-4


def test_relu_keeps_nan_and_zeroes_negative_zero():
    a = np.array([[1.0], [1.0], [-1.0]], np.float32)
    b = np.array([[np.nan, -0.0, 2.0, -3.0]], np.float32)
    c = np.empty((3, 4), np.float32)
    off = np.zeros(1, np.int64)
    G.native(None, "relu", False)(a.ctypes.data, 1, 1, off.ctypes.data, b.ctypes.data, 0,
                                  c.ctypes.data, 4, 0, 0, 3, 1, 1, 4)
    assert np.isnan(c[:, 0]).all()
    assert np.array_equal(c[:, 1:], np.array([[0, 2, 0], [0, 2, 0], [0, 0, 3]], np.float32))
    assert not np.signbit(c[:, 1:]).any()


def test_offset_table_reads_rows_anywhere():
    """Row k of the right operand starts at off[k]; output rows i step by sbi / sci."""
    rng = np.random.default_rng(2)
    img = rng.standard_normal((3, 10, 12)).astype(np.float32)  # (c, hp, wp)
    w = rng.standard_normal((6, 3, 3, 3)).astype(np.float32)
    c_, ki, kj = np.meshgrid(np.arange(3), np.arange(3), np.arange(3), indexing="ij")
    off = (c_ * 120 + ki * 12 + kj).astype(np.int64).ravel()
    out = np.empty((6, 8, 10), np.float32)
    G.native(None, None, False)(w.ctypes.data, 27, 1, off.ctypes.data, img.ctypes.data, 12,
                                out.ctypes.data, 80, 10, 0, 6, 27, 8, 10)
    want = np.zeros((6, 8, 10))
    for i in range(3):
        for j in range(3):
            want += np.einsum("oc,chw->ohw", w[:, :, i, j], img[:, i:i + 8, j:j + 10])
    assert np.abs(out - want).max() < 1e-4
