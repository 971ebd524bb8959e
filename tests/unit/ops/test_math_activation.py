"""Unary math, clamp, activations and softmax against torch (values, dtypes, in place)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ember import ops
from tests.unit.ops.util import run, same, to_torch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")
F = torch.nn.functional

X = np.array([[-3.5, -1.0, -0.25, 0.0], [0.3, 1.0, 2.5, 7.0]], np.float32)
POS = np.array([0.1, 0.5, 1.0, 3.0, 40.0], np.float32)
INTS = np.array([-3, -1, 0, 2, 5], np.int64)


@pytest.mark.parametrize("name", ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
                                  "sqrt", "rsqrt", "sin", "cos", "tan", "sinh", "cosh",
                                  "tanh", "asinh", "reciprocal", "atan", "erf", "erfc"])
@pytest.mark.parametrize("data", ["pos", "ints", "float64"])
def test_floating_unary(name, data):
    x = {"pos": POS, "ints": np.abs(INTS) + 1, "float64": POS.astype(np.float64)}[data]
    same(run(f"tensor.{name}", x), getattr(torch, name)(to_torch(x)), rtol=2e-6)


@pytest.mark.parametrize("name", ["asin", "acos", "atanh"])
def test_inverse_trig_in_domain_and_nan_outside(name):
    x = np.array([-0.9, 0.0, 0.5, 2.0], np.float32)
    with np.errstate(all="raise"):  # no numpy warning escapes for the nan at 2.0
        same(run(f"tensor.{name}", x), getattr(torch, name)(to_torch(x)))


def test_erf_is_accurate_across_the_range():
    xs = np.linspace(-6, 6, 2001)
    got = run("tensor.erf", xs)
    want = np.array([math.erf(v) for v in xs])
    np.testing.assert_allclose(got, want, rtol=2e-7, atol=1e-12)
    got_c = run("tensor.erfc", xs)
    want_c = np.array([math.erfc(v) for v in xs])
    np.testing.assert_allclose(got_c, want_c, rtol=5e-7, atol=0)


@pytest.mark.parametrize("name", ["abs", "neg", "sign", "floor", "ceil", "trunc", "square",
                                  "frac"])
@pytest.mark.parametrize("data", ["float", "ints"])
def test_same_dtype_unary(name, data):
    x = X if data == "float" else INTS
    if name == "frac" and data == "ints":
        with pytest.raises(RuntimeError):
            run("tensor.frac", x)
        return
    same(run(f"tensor.{name}", x), getattr(torch, name)(to_torch(x)))


def test_sign_of_nan_and_round_half_even():
    x = np.array([np.nan, -0.0, 2.5, -2.5, 0.5, 1.5], np.float32)
    same(run("tensor.sign", x), torch.sign(to_torch(x)))
    same(run("tensor.round", x, 0), torch.round(to_torch(x)))
    y = np.array([1.2345, -2.5678], np.float32)
    same(run("tensor.round", y, 2), torch.round(to_torch(y), decimals=2))
    with pytest.raises(RuntimeError, match="bool"):
        run("tensor.neg", np.array([True]))


def test_inplace_unary_returns_self():
    x = POS.copy()
    assert ops.get("tensor.exp_").kernel(x) is x
    np.testing.assert_allclose(x, np.exp(POS), rtol=1e-6)
    with pytest.raises(RuntimeError, match="can't be cast"):
        ops.get("tensor.sqrt_").kernel(INTS.copy())
    y = X.copy()
    ops.get("tensor.abs_").kernel(y)
    same(y, torch.abs(to_torch(X)))


@pytest.mark.parametrize("lo,hi", [(0, 6), (-1.5, None), (None, 2), (3, 1), (0.5, 2.5)])
@pytest.mark.parametrize("data", ["float", "ints"])
def test_clamp_numbers(lo, hi, data):
    x = X if data == "float" else INTS
    same(run("tensor.clamp", x, lo, hi), torch.clamp(to_torch(x), lo, hi))


def test_clamp_tensor_bounds_nan_and_errors():
    x = np.array([[np.nan, -2.0, 0.5, 9.0]], np.float32)
    lo = np.array([0.0, -1.0, 1.0, 0.0], np.float32)
    hi = np.array([[5.0], [0.75]], np.float32)
    same(run("tensor.clamp_tensor", x, lo, hi),
         torch.clamp(to_torch(x), to_torch(lo), to_torch(hi)))
    same(run("tensor.clamp", x, 0.0, 1.0), torch.clamp(to_torch(x), 0.0, 1.0))
    with pytest.raises(RuntimeError, match="At least one"):
        run("tensor.clamp", x, None, None)
    same(run("tensor.clamp_min", INTS, 0.5), torch.clamp_min(to_torch(INTS), 0.5))
    same(run("tensor.clamp_max", X, 1), torch.clamp_max(to_torch(X), 1))
    y = X.copy()
    assert ops.get("tensor.clamp_").kernel(y, -1.0, 1.0) is y
    same(y, torch.clamp(to_torch(X), -1.0, 1.0))
    with pytest.raises(RuntimeError, match="can't be cast"):
        ops.get("tensor.clamp_").kernel(INTS.copy(), 0.5, None)


def test_atan2():
    a, b = X, np.flip(X).copy()
    same(run("tensor.atan2", a, b), torch.atan2(to_torch(a), to_torch(b)))
    same(run("tensor.atan2", INTS, INTS[::-1].copy()),
         torch.atan2(to_torch(INTS), to_torch(INTS[::-1].copy())))


ACTS = [
    ("relu", (), lambda t: F.relu(t)),
    ("relu6", (), lambda t: F.relu6(t)),
    ("hardtanh", (-2.0, 1.5), lambda t: F.hardtanh(t, -2.0, 1.5)),
    ("leaky_relu", (0.2,), lambda t: F.leaky_relu(t, 0.2)),
    ("hardsigmoid", (), lambda t: F.hardsigmoid(t)),
    ("hardswish", (), lambda t: F.hardswish(t)),
    ("silu", (), lambda t: F.silu(t)),
    ("mish", (), lambda t: F.mish(t)),
    ("elu", (0.7,), lambda t: F.elu(t, 0.7)),
    ("selu", (), lambda t: F.selu(t)),
    ("celu", (1.3,), lambda t: F.celu(t, 1.3)),
    ("threshold", (0.5, -9.0), lambda t: F.threshold(t, 0.5, -9.0)),
]


@pytest.mark.parametrize("name,params,fn", ACTS, ids=[a[0] for a in ACTS])
def test_activation_matches_torch_and_inplace_mutates(name, params, fn):
    x = np.concatenate([X.ravel(), [np.nan, -30.0, 30.0]]).astype(np.float32)
    same(run(f"tensor.{name}", x, *params, False), fn(to_torch(x)), rtol=2e-6)
    y = x.copy()
    out = ops.get(f"tensor.{name}").kernel(y, *params, True)
    assert out is y
    same(y, fn(to_torch(x)), rtol=2e-6)
    z = x.copy()
    assert ops.get(f"tensor.{name}_").kernel(z, *params) is z
    same(z, fn(to_torch(x)), rtol=2e-6)


def test_relu_of_ints_and_float64():
    same(run("tensor.relu", INTS, False), torch.relu(to_torch(INTS)))
    x64 = X.astype(np.float64)
    same(run("tensor.relu6", x64, False), F.relu6(to_torch(x64)))


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu(approximate):
    # torch computes 0.5 * x * (1 + erf(x / sqrt(2))) in float32, which cancels to about
    # 1e-6 absolute for x < -4; ember's erfc form is closer to the true value there.
    x = np.linspace(-12, 12, 97).astype(np.float32)
    same(run("tensor.gelu", x, approximate), F.gelu(to_torch(x), approximate=approximate),
         rtol=2e-6, atol=1e-6)
    exact = np.array([0.5 * v * math.erfc(-v / math.sqrt(2)) for v in x.astype(float)])
    if approximate == "none":
        np.testing.assert_allclose(run("tensor.gelu", x, "none"), exact, rtol=2e-5, atol=0)


def test_smooth_activations():
    x = np.linspace(-30, 30, 61).astype(np.float32)
    same(run("tensor.sigmoid", x), torch.sigmoid(to_torch(x)), rtol=2e-6, atol=1e-7)
    same(run("tensor.sigmoid", INTS), torch.sigmoid(to_torch(INTS)), rtol=2e-6)
    same(run("tensor.softplus", x, 1.0, 20.0), F.softplus(to_torch(x)), rtol=2e-6)
    same(run("tensor.softplus", x, 2.0, 5.0), F.softplus(to_torch(x), 2.0, 5.0), rtol=2e-6)
    same(run("tensor.logsigmoid", x), F.logsigmoid(to_torch(x)), rtol=2e-6)
    same(run("tensor.softsign", x), F.softsign(to_torch(x)), rtol=2e-6)
    w = np.array([0.25, -0.5], np.float32)
    x4 = np.random.default_rng(0).standard_normal((2, 2, 3, 3)).astype(np.float32)
    same(run("tensor.prelu", x4, w), F.prelu(to_torch(x4), to_torch(w)))


@pytest.mark.parametrize("dim", [0, 1, -1, 2])
def test_softmax_family(dim):
    x = np.random.default_rng(1).standard_normal((2, 3, 5)).astype(np.float32) * 10
    x[0, 0, :] = -np.inf
    x[1, 1, 2] = -np.inf
    for name in ("softmax", "log_softmax"):
        fn = getattr(torch, name)
        same(run(f"tensor.{name}", x, dim, None), fn(to_torch(x), dim), rtol=2e-6)
        same(run(f"tensor.{name}", x, dim, "float64"),
             fn(to_torch(x), dim, dtype=torch.float64), rtol=2e-6)
    with pytest.raises(RuntimeError, match="floating"):
        run("tensor.softmax", INTS, 0, None)


def test_softmax_rows_of_very_different_scales():
    # The last-dim kernel shifts by the global max; rows far below it are redone per row.
    x = np.random.default_rng(2).standard_normal((4, 6)).astype(np.float32)
    x[1] -= 300.0
    x[2] += 50.0
    x[3, :3] = -np.inf
    for name in ("softmax", "log_softmax"):
        same(run(f"tensor.{name}", x, -1, None), getattr(torch, name)(to_torch(x), -1),
             rtol=2e-6)
    with pytest.raises(IndexError, match="out of range"):
        run("tensor.softmax", x, 3, None)


@pytest.mark.parametrize("dtype,scale", [("float32", 1.0), ("float32", 30.0),
                                         ("float16", 8.0), ("float64", 100.0)])
def test_softmax_last_dim_shifted_or_not(dtype, scale):
    # float32/64 rows with a small global max take exp(x) unshifted; float16 (exp(12)
    # overflows) and large maxima shift by the global max.
    x = (np.random.default_rng(3).standard_normal((3, 4, 7)) * scale).astype(dtype)
    want = torch.softmax(to_torch(x).double(), -1).numpy()
    same(run("tensor.softmax", x, -1, None).astype(np.float64), want,
         rtol=1e-2 if dtype == "float16" else 2e-6, atol=1e-3 if dtype == "float16" else 1e-7)


def test_shrinkage_glu_and_softmin():
    x = np.concatenate([np.linspace(-3, 3, 61), [np.nan, -0.5, 0.5]]).astype(np.float32)
    t = to_torch(x)
    for lambd in (0.5, 1.25, 0.0):
        same(run("tensor.hardshrink", x, lambd), F.hardshrink(t, lambd))
        same(run("tensor.softshrink", x, lambd), F.softshrink(t, lambd), rtol=2e-6)
    same(run("tensor.tanhshrink", x), F.tanhshrink(t), rtol=2e-6, atol=1e-7)
    same(run("tensor.tanhshrink", INTS), F.tanhshrink(to_torch(INTS)), rtol=2e-6, atol=1e-7)
    with pytest.raises(RuntimeError, match="lambda must be greater or equal to 0"):
        run("tensor.softshrink", x, -1.0)
    x3 = np.random.default_rng(3).standard_normal((2, 4, 6)).astype(np.float32)
    for dim in (-1, 1, 0):
        same(run("tensor.glu", x3, dim), F.glu(to_torch(x3), dim), rtol=2e-6)
        same(run("tensor.softmin", x3, dim, None), F.softmin(to_torch(x3), dim), rtol=2e-6)
    same(run("tensor.softmin", x3, 1, "float64"),
         F.softmin(to_torch(x3), 1, dtype=torch.float64), rtol=2e-6)
    with pytest.raises(RuntimeError, match="Halving dimension must be even"):
        run("tensor.glu", x3[:, :3], 1)


def test_glu_shape_function_halves_and_proves_odd_sizes():
    from ember.ops.registry import ShapeMismatch
    from tests.unit.ops.util import arg_info

    info = ops.get("tensor.glu").shape_fn
    x = np.zeros((2, 3, 8), np.float32)
    assert info([arg_info(x), arg_info(-1)]).shape == (2, 3, 4)
    with pytest.raises(ShapeMismatch, match="odd size 3"):
        info([arg_info(x), arg_info(1)])
