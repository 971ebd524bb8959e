"""Tensor mode in CI: fixed-seed tensor functions agree between torch and ember (shape,
dtype exactly; values to rtol 1e-5), and the comparison catches a dtype change."""

from __future__ import annotations

import numpy as np
import pytest

from ember.fuzz import tensor_oracle
from ember.fuzz.tensorgen import generate_tensor

pytestmark = pytest.mark.skipif(not tensor_oracle.available(), reason="torch is not installed")

CI_SEED = 7
CI_PROGRAMS = 200


def test_fixed_seed_tensor_campaign_agrees():
    stats = tensor_oracle.run_tensors(CI_SEED, count=CI_PROGRAMS)
    report = "\n".join(f"{d[:500]}\n{src}" for _, _, d, src in stats.failures[:3])
    assert stats.generated == CI_PROGRAMS
    assert stats.agreed == CI_PROGRAMS, report


def test_tensor_programs_are_deterministic_and_typed():
    a, b = generate_tensor(3), generate_tensor(3)
    assert a.source == b.source
    assert all(np.array_equal(x, y) for (_, xs), (_, ys) in zip(a.cases, b.cases)
               for x, y in zip(xs, ys))
    assert "torch.Tensor" in a.source


def test_comparison_catches_dtype_shape_and_value_changes():
    x = np.ones((2, 3), dtype=np.float32)
    ok = ("ok", x, (), "")
    same = tensor_oracle.same_tensor_outcome
    assert same(ok, ("ok", x + 1e-7, (), ""))
    assert not same(ok, ("ok", x.astype(np.float64), (), ""))
    assert not same(ok, ("ok", x.reshape(3, 2), (), ""))
    assert not same(ok, ("ok", x * 1.001, (), ""))
    assert not same(("ok", np.zeros((), np.float32), (), ""), ("ok", np.float32(0), (), ""))
