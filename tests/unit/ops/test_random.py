"""Random operators: shapes, dtypes, value ranges and argument checks (the values come from
numpy's generator, so they are not torch's)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import ops


def _k(name):
    return ops.get(name).kernel


def test_bernoulli_in_place_fills_zeros_and_ones_with_probability_p():
    x = np.full((400, 50), 7.0, np.float32)
    out = _k("tensor.bernoulli_")(x, 0.25)
    assert out is x and x.dtype == np.float32
    assert set(np.unique(x)) <= {0.0, 1.0}
    assert 0.2 < x.mean() < 0.3
    assert not _k("tensor.bernoulli_")(x, 0.0).any()
    assert _k("tensor.bernoulli_")(x, 1.0).all()
    with pytest.raises(RuntimeError, match="p to be in"):
        _k("tensor.bernoulli_")(x, 1.5)


def test_bernoulli_takes_each_elements_probability():
    p = np.zeros((300, 40), np.float64)
    p[:, 20:] = 1.0
    out = _k("tensor.bernoulli")(p)
    assert out.dtype == np.float64 and out.shape == p.shape
    assert not out[:, :20].any() and out[:, 20:].all()
    with pytest.raises(RuntimeError, match="p_in"):
        _k("tensor.bernoulli")(np.array([0.5, 2.0]))
    with pytest.raises(RuntimeError, match="floating"):
        _k("tensor.bernoulli")(np.array([0, 1]))
