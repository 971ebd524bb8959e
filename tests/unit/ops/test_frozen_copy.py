"""seal: the one copy ember makes of an in-process weight (frozen, read-only, exact),
split across threads when large."""

from __future__ import annotations

import numpy as np
import pytest

from ember.ops import tensor_common as tc
from ember.ops.tensor_common import frozen, seal


@pytest.mark.parametrize("n", [0, 7, (9 << 20) // 4 + 3])  # the last one is threaded
def test_seal_copies_exactly_into_frozen_memory(n):
    a = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    s = seal(a)
    assert frozen(s) and not s.flags.writeable and not np.shares_memory(s, a)
    np.testing.assert_array_equal(s, a)
    before = a.copy()
    a += 1  # the source changes later: the copy does not
    np.testing.assert_array_equal(s, before)


def test_seal_keeps_shape_and_casts_once(monkeypatch):
    monkeypatch.setattr(tc, "_PARALLEL_COPY_BYTES", 64)  # threads even for a small array
    a = np.arange(3 * 5 * 7, dtype=np.float64).reshape(3, 5, 7) / 3
    s = seal(a, np.float32)
    assert s.shape == a.shape and s.dtype == np.float32 and frozen(s)
    np.testing.assert_array_equal(s, a.astype(np.float32))
    t = seal(a[:, ::2])  # not contiguous: one plain copy
    np.testing.assert_array_equal(t, a[:, ::2])
    z = seal(np.array(2.5))
    assert z.shape == () and z == 2.5 and frozen(z)


def test_a_failing_threaded_copy_raises(monkeypatch):
    monkeypatch.setattr(tc, "_PARALLEL_COPY_BYTES", 64)
    a = np.array([1.5, np.nan] * 200)
    with pytest.raises(TypeError):  # casting="no" refuses float64 -> int64 in every part
        tc._copy_into(np.empty(400, np.int64), a, "no")
