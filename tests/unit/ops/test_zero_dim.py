"""Every one-tensor operator spelled `torch.NAME` takes a 0-d tensor the way torch does:
numpy ufuncs return immutable scalars for 0-d inputs, which broke in-place steps."""

from __future__ import annotations

import numpy as np
import pytest

from ember import ops

torch = pytest.importorskip("torch")


def _unary():
    out = []
    for name, d in sorted(ops.REGISTRY.items()):
        if not d.schema_text.endswith("(Tensor self) -> Tensor") or name.endswith("_"):
            continue
        spelled = [p[6:] for p in d.python_names if p.startswith("torch.") and
                   p.count(".") == 1 and hasattr(torch, p[6:])]
        if spelled:
            out.append((name, spelled[0]))
    return out


UNARY = _unary()


def test_the_sweep_covers_the_elementwise_math():
    names = {n for n, _ in UNARY}
    assert {"tensor.sign", "tensor.sigmoid", "tensor.exp", "tensor.abs"} <= names


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name, torch_name", UNARY, ids=[n for n, _ in UNARY])
@pytest.mark.parametrize("value", [-1.25, 0.0, 2.5])
def test_zero_dim_operand(name, torch_name, value):
    x = np.array(value, np.float32)
    try:
        want = getattr(torch, torch_name)(torch.tensor(value, dtype=torch.float32))
    except (RuntimeError, TypeError):
        pytest.skip(f"torch.{torch_name} refuses a float 0-d tensor")
    got = ops.get(name).kernel(x)
    want = want.numpy()
    assert type(got) is np.ndarray and got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7, equal_nan=True)
