"""Scratch buffers (ops/workspace.py): reused per name, and padded copies whose border is
zero whatever the buffer held before."""

import numpy as np

from ember.ops.workspace import padded, scratch


def test_scratch_reuses_the_buffer_of_a_name():
    a = scratch("test.a", (3, 4), np.float32)
    b = scratch("test.a", (2, 5), np.float32)
    assert np.shares_memory(a, b) and b.shape == (2, 5) and b.flags.c_contiguous
    assert not np.shares_memory(a, scratch("test.b", (3, 4), np.float32))
    assert scratch("test.a", (3, 4), np.float64).dtype == np.float64


def test_padded_zeroes_a_dirty_border():
    rng = np.random.default_rng(0)
    for pads, extra in (([(1, 1), (1, 1)], 1), ([(2, 0), (0, 3)], 0), ([(0, 0), (1, 2)], 2)):
        scratch("test.pad", (64,), np.float64)[:] = np.nan  # what an earlier user left
        x = rng.standard_normal((2, 3, 4, 5))
        got = padded("test.pad", x, pads, extra)
        want = np.pad(x, [(0, 0), (0, 0), (pads[0][0], pads[0][1] + extra), pads[1]])
        np.testing.assert_array_equal(got, want)
        scratch("test.pad", got.shape, got.dtype)[:] = np.nan
