"""The adjoint seed of a tensor-returning function (tensor.seed_like) and the adjoints
of parameters nobody asked for (tensor.zeros_unread)."""

import numpy as np

from ember.ops import get
from ember.ops.tensor_grad import seed_like, zeros_unread


def _reference(seed, like):
    ones = get("tensor.ones_like").kernel(like, None, None, False)
    return get("tensor.mul").kernel(ones, seed)


def test_seed_of_the_result_shape_is_passed_through():
    like = np.zeros((2, 3), np.float32)
    seed = np.array([[1.0, -0.0, np.nan], [2.0, np.inf, -3.0]], np.float32)
    got = seed_like(seed, like)
    assert got is seed
    np.testing.assert_array_equal(got, _reference(seed, like))


def test_seed_that_broadcasts_or_promotes_is_ones_times_seed():
    like = np.zeros((2, 3), np.float32)
    for seed in (np.array(0.5), np.array(2.0, np.float32), np.ones(3, np.float64),
                 np.full((2, 3), 1.5, np.float64)):
        got, want = seed_like(seed, like), _reference(seed, like)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_zeros_unread():
    z = zeros_unread(np.ones((4, 5), np.float64))
    assert z.shape == (4, 5) and z.dtype == np.float64 and not z.any()
    assert not z.flags.writeable
