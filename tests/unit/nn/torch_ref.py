"""Helpers comparing ember.nn layers with torch.nn layers holding the same weights.

Import only from test modules that have already done `pytest.importorskip("torch")`.
"""

from __future__ import annotations

import numpy as np
import torch

from ember.nn.from_torch import convert_layer

TOL = 1e-5
"""Largest allowed |ember - torch|, relative to max(1, |torch|) (float32 results)."""

MAX_ERRORS: dict = {}
"""Layer name -> the largest error seen (printed by conftest's terminal summary)."""


def randomize(tm, seed: int = 0):
    """Fill every floating parameter and buffer of torch module `tm` with random values
    (running variances positive) and put it in eval mode; returns tm."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, t in tm.state_dict(keep_vars=True).items():
            if not t.is_floating_point():
                continue
            if name.endswith("running_var"):
                t.copy_(torch.rand(t.shape, generator=g) + 0.5)
            else:
                t.copy_(torch.randn(t.shape, generator=g) * 0.5)
    return tm.eval()


def randn(*shape, scale: float = 1.0, seed: int = 1) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


def to_torch(v):
    if isinstance(v, np.ndarray):
        return torch.from_numpy(v.copy())
    if isinstance(v, tuple):
        return tuple(to_torch(x) for x in v)
    return v


def run_torch(tm, args, kwargs=None):
    with torch.no_grad():
        return tm(*[to_torch(a) for a in args], **{k: to_torch(v) for k, v in
                                                    (kwargs or {}).items()})


def max_error(out, ref) -> float:
    """Largest relative error between nested results (tuples / None / arrays); asserts the
    structure, shapes and dtypes agree."""
    if ref is None:
        assert out is None
        return 0.0
    if isinstance(ref, (tuple, list)):
        assert isinstance(out, tuple) and len(out) == len(ref)
        return max([max_error(o, r) for o, r in zip(out, ref)] + [0.0])
    r = ref.detach().numpy()
    assert isinstance(out, np.ndarray), type(out)
    assert out.shape == r.shape, (out.shape, r.shape)
    assert out.dtype == r.dtype, (out.dtype, r.dtype)
    if r.size == 0:
        return 0.0
    assert np.isfinite(out).all() == np.isfinite(r).all()
    scale = max(1.0, float(np.abs(r).max()))
    return float(np.abs(out.astype(np.float64) - r).max()) / scale


def record(name: str, err: float) -> None:
    MAX_ERRORS[name] = max(MAX_ERRORS.get(name, 0.0), err)
    assert err <= TOL, f"{name}: error {err:.3g} > {TOL}"


def check_layer(tm, ember_layer, inputs, kwargs=None, name=None):
    """ember_layer (weights loaded from tm's state_dict) and convert_layer(tm) give tm's
    outputs on each args tuple in `inputs`; returns both ember layers."""
    tm.eval()
    ember_layer.load_state_dict(tm.state_dict())
    layers = [ember_layer, convert_layer(tm)]
    name = name or type(tm).__name__
    for args in inputs:
        ref = run_torch(tm, args, kwargs)
        for layer in layers:
            record(name, max_error(layer(*args, **(kwargs or {})), ref))
    return layers
