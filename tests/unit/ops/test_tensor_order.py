"""kthvalue, median and nanmedian give torch's values and indices (ties included: torch's
kthvalue picks among equal values by its quick select, median by position), NaN handling
and errors, compared with torch on the same inputs."""

from __future__ import annotations

import numpy as np
import pytest

from ember import ops

torch = pytest.importorskip("torch")

INPUTS = [
    [1.0, -2.0, 3.0, 0.5],
    [[1, 5, 2], [4, 4, 4]],
    [[1.0, float("nan"), 2.0], [3.0, 1.0, 2.0]],
    [[[2.0, 1.0], [1.0, 1.0]], [[0.0, 3.0], [3.0, 3.0]]],
    [[3.0, 1, 3, 1, 3, 1, 3, 2, 2, 3, 1]],
    [[4.0] * 20],
    5.0,
]


def _pair(r):
    return [np.asarray(r[0]), np.asarray(r[1])]


def _check(got, want):
    for g, w in zip(got, want):
        w = w.numpy()
        assert g.shape == w.shape and g.dtype == w.dtype
        assert np.array_equal(g, w, equal_nan=True), (g, w)


@pytest.mark.parametrize("data", INPUTS, ids=range(len(INPUTS)))
def test_order_statistics_match_torch(data):
    t = torch.tensor(data)
    x = t.numpy()
    for d in range(-1, max(t.dim(), 1)):
        n = t.shape[d] if t.dim() else 1
        for keep in (False, True):
            for k in range(1, n + 1):
                got = ops.get("tensor.kthvalue").kernel(x, k, d, keep)
                _check(_pair(got), t.kthvalue(k, d, keep))
            for name in ("median", "nanmedian"):
                _check(_pair(ops.get(f"tensor.{name}_dim").kernel(x, d, keep)),
                       getattr(t, name)(d, keep))
    for name in ("median", "nanmedian"):
        _check([ops.get(f"tensor.{name}_all").kernel(x)], [getattr(t, name)()])


def test_order_statistics_errors():
    x = np.array([1.0, 2.0])
    with pytest.raises(RuntimeError, match="selected number k out of range for dimension 0"):
        ops.get("tensor.kthvalue").kernel(x, 3, 0, False)
    with pytest.raises(IndexError, match="Expected reduction dim 0 to have non-zero size"):
        ops.get("tensor.median_dim").kernel(np.zeros((0,)), 0, False)
    assert np.isnan(ops.get("tensor.median_all").kernel(np.zeros((0,), np.float32)))
