"""Deterministic weight initialization for ember.nn layers.

Layers draw from one seeded numpy Generator with torch's default bounds (uniform
+-1/sqrt(fan_in) for linear, convolution and recurrent weights, xavier-uniform for
attention projections, standard normal for embeddings), so a fresh model is reasonable and
the same in every run. `manual_seed` restarts the sequence. Tests mostly load torch weights.

Layers built only to receive weights (`no_draws()`, as converting a torch layer does) get
uninitialized arrays instead: no draw, so converting leaves the sequence where it was. The
Generator (and numpy.random, a few ms to import) is made on the first draw.
"""

from __future__ import annotations

import contextlib
import math

import numpy as np

from ember.nn.eager import dtype_name

_STATE = {"rng": None, "seed": 0, "no_draws": 0}


def manual_seed(seed: int) -> None:
    """Restart the initialization sequence from `seed`."""
    _STATE["rng"], _STATE["seed"] = None, seed


def _rng():
    rng = _STATE["rng"]
    if rng is None:
        rng = _STATE["rng"] = np.random.default_rng(_STATE["seed"])
    return rng


@contextlib.contextmanager
def no_draws():
    """Inside, `uniform` and `normal` return uninitialized arrays and draw nothing: for
    layers whose every weight is overwritten right after (a converted torch layer)."""
    _STATE["no_draws"] += 1
    try:
        yield
    finally:
        _STATE["no_draws"] -= 1


def float_dtype(dtype) -> str:
    """The numpy name of a layer's `dtype=` argument (None: float32)."""
    if dtype is None:
        return "float32"
    name = dtype_name(dtype)
    if name not in ("float16", "float32", "float64"):
        raise TypeError(f"layer weights must have a floating dtype, not {name}")
    return name


def uniform(shape, bound: float, dtype=None) -> np.ndarray:
    """An array of `shape` drawn from U(-bound, bound)."""
    if _STATE["no_draws"]:
        return np.empty(tuple(shape), float_dtype(dtype))
    return _rng().uniform(-bound, bound, size=tuple(shape)).astype(float_dtype(dtype))


def normal(shape, dtype=None) -> np.ndarray:
    if _STATE["no_draws"]:
        return np.empty(tuple(shape), float_dtype(dtype))
    return _rng().standard_normal(size=tuple(shape)).astype(float_dtype(dtype))


def fan_in_bound(fan_in: int) -> float:
    """torch's default bound for weights and biases: kaiming-uniform(a=sqrt(5)) gives
    1/sqrt(fan_in)."""
    return 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0


def xavier_bound(fan_in: int, fan_out: int) -> float:
    return math.sqrt(6.0 / (fan_in + fan_out))


def zeros(shape, dtype=None) -> np.ndarray:
    return np.zeros(tuple(shape), dtype=float_dtype(dtype))


def ones(shape, dtype=None) -> np.ndarray:
    return np.ones(tuple(shape), dtype=float_dtype(dtype))
