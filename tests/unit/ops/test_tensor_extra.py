"""deg2rad/rad2deg, hypot, lerp, addcmul/addcdiv, nan_to_num, diff, msort, unique,
Tensor.where with a number and true_divide by a number give torch's results (values,
dtypes, errors)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import ops

torch = pytest.importorskip("torch")

X = [1.5, -2.0, 0.25, 3.0, -2.0]
CALLS = [
    ("deg2rad", lambda t: (t,)), ("rad2deg", lambda t: (t,)),
    ("hypot", lambda t: (t, t * 2)),
    ("lerp_scalar", lambda t: (t, t * 3, 0.3)), ("lerp_scalar", lambda t: (t, t * 3, 0.7)),
    ("lerp_tensor", lambda t: (t, t * 3, torch.linspace(0, 1, 5))),
    ("addcmul", lambda t: (t, t, t + 1, 0.5)), ("addcdiv", lambda t: (t, t, t + 5, 2)),
    ("nan_to_num", lambda t: (t / 0, None, None, None)),
    ("nan_to_num", lambda t: (t / 0, 1.0, 2.0, -3.0)),
    ("diff", lambda t: (t, 1, -1, None, None)), ("diff", lambda t: (t, 2, 0, t[:2], t[:1])),
    ("msort", lambda t: (t.reshape(5, 1),)), ("unique", lambda t: (t, True)),
    ("where_method_scalar", lambda t: (t, t > 0, 1.0)),
    ("true_divide_scalar", lambda t: (t.long(), 2)),
]
TORCH = {"deg2rad": torch.deg2rad, "rad2deg": torch.rad2deg, "hypot": torch.hypot,
         "lerp_scalar": torch.lerp, "lerp_tensor": torch.lerp,
         "addcmul": lambda a, b, c, v: torch.addcmul(a, b, c, value=v),
         "addcdiv": lambda a, b, c, v: torch.addcdiv(a, b, c, value=v),
         "nan_to_num": torch.nan_to_num,
         "diff": lambda x, n, d, p, a: torch.diff(x, n, d, p, a),
         "msort": torch.msort, "unique": lambda x, s: torch.unique(x, sorted=s),
         "where_method_scalar": lambda a, c, b: a.where(c, b),
         "true_divide_scalar": torch.true_divide}


def _np(v):
    return v.numpy() if isinstance(v, torch.Tensor) else v


@pytest.mark.parametrize("name, make", CALLS, ids=[c[0] for c in CALLS])
def test_matches_torch(name, make):
    args = make(torch.tensor(X))
    want = TORCH[name](*args).numpy()
    got = ops.get(f"tensor.{name}").kernel(*map(_np, args))
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=True)


def test_errors_are_torchs():
    i = np.array([1, 2])
    with pytest.raises(RuntimeError, match="Integer division with addcdiv"):
        ops.get("tensor.addcdiv").kernel(i, i, i, 1)
    with pytest.raises(RuntimeError, match="must match the size of tensor b"):
        ops.get("tensor.lerp_tensor").kernel(np.ones(3, np.float32), np.ones(3, np.float32),
                                             np.ones(2, np.float32))
    with pytest.raises(RuntimeError, match="diff expects input to be at least one-dim"):
        ops.get("tensor.diff").kernel(np.array(1.0), 1, -1, None, None)
