"""Every out= twin of ember.ops.fusion against its kernel: the same bits, dtype and shape,
for each dtype and scalar kind, with nan, inf and -0.0 among the values; and the
vocabulary names registered operators only."""

import numpy as np
import pytest

from ember import ops
from ember.ops import fusion

DTYPES = ("float32", "float64", "float16", "int32", "int64", "uint8", "bool", "complex64",
          "complex128")
_RNG = np.random.default_rng(3)


def _tensor(shape, dtype):
    a = _RNG.standard_normal(shape) * 4
    if np.dtype(dtype).kind == "f":
        a = a.astype(dtype)
        a.flat[:4] = [np.nan, np.inf, -0.0, -np.inf]
        return a
    if np.dtype(dtype).kind == "c":
        a = (a + 1j * _RNG.standard_normal(shape)).astype(dtype)
        a.flat[:4] = [complex(np.nan, 1), complex(1, np.inf), complex(-0.0, -0.0),
                      complex(-np.inf, 0.5)]
        return a
    if dtype == "bool":
        return a > 0
    return np.abs(a).astype(dtype) if dtype == "uint8" else a.astype(dtype)


def _args(name, x, y):
    """Argument lists for operator `name` (its schema's arity, defaults filled)."""
    params = ops.get(name).schema.params
    n = len(params)
    kinds = [p.type.name for p in params]
    if name.endswith("_scalar"):
        return [[x, s] for s in (0.5, 3, -2, True, 300, 1.5j - 0.5)]
    if name in ("tensor.clamp",):
        return [[x, -0.5, 0.5], [x, None, 2], [x, -1, None]]
    if name == "tensor.hardtanh":
        return [[x, -1.0, 1.0, False], [x, 2.0, 1.0, False]]
    if name == "tensor.leaky_relu":
        return [[x, 0.1, False]]
    if name == "tensor.gelu":
        return [[x, "none"], [x, "tanh"]]
    if n == 1:
        return [[x]]
    if kinds[1] == "Tensor":
        return [[x, y]]
    if params[-1].name == "inplace":
        return [[x, False]]
    raise AssertionError(f"no arguments for {name}")


def _outcome(fn, *args):
    try:
        with np.errstate(all="ignore"):
            return "ok", fn(*args)
    except Exception as e:
        return "raised", type(e)


@pytest.mark.parametrize("name", sorted(fusion.TWINS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_twin_equals_kernel(name, dtype):
    kernel, twin = ops.get(name).kernel, fusion.TWINS[name]
    x = _tensor((3, 5), dtype)
    for ydtype in ("float32", "int64", dtype):
        y = _tensor((5,), ydtype)
        for args in _args(name, x, y):
            want = _outcome(kernel, *args)
            if want[0] == "raised" or not isinstance(want[1], np.ndarray) or \
                    want[1].ndim == 0:
                continue
            r = want[1]
            out = np.empty(r.shape, r.dtype)
            got = _outcome(twin, out, *args)
            assert got[0] == "ok", (name, dtype, args[1:], got)
            g = got[1]
            assert g.dtype == r.dtype and g.shape == r.shape, (name, dtype)
            assert g.tobytes() == np.ascontiguousarray(r).tobytes(), (name, dtype, args[1:])
            if name in fusion.INPLACE_SAFE and x.dtype == r.dtype and x.shape == r.shape:
                over = x.copy()
                g2 = _outcome(twin, over, over, *args[1:])
                assert g2[0] == "ok" and g2[1].tobytes() == r.tobytes(), (name, dtype)


def test_vocabulary_names_registered_operators():
    for name in fusion.ELEMENTWISE | fusion.REDUCTIONS | fusion.PRODUCERS:
        assert ops.get(name) is not None, name
    assert set(fusion.TWINS) <= fusion.ELEMENTWISE
    assert fusion.INPLACE_SAFE <= set(fusion.TWINS)
