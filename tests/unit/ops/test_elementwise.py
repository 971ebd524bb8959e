"""Elementwise binary operators against torch: values, dtypes (torch's promotion rules,
including zero-dim tensors and Python scalars), errors, in-place forms."""

from __future__ import annotations

import itertools
import operator

import numpy as np
import pytest

from ember import ops

from tests.unit.ops.util import run, same, to_torch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

DTYPES = ["bool", "uint8", "int8", "int32", "int64", "float16", "float32", "float64"]
SCALARS = [True, 3, -2, 2.5]
ARITH = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
         "truediv": operator.truediv, "floordiv": operator.floordiv, "mod": operator.mod,
         "pow": operator.pow}
CMP = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
       "gt": operator.gt, "ge": operator.ge}


def make(dtype, zero_dim, seed=0):
    rng = np.random.default_rng(seed)
    shape = () if zero_dim else (2, 3)
    if dtype == "bool":
        return rng.random(shape) > 0.5 if shape else np.array(True)
    if dtype.startswith("float"):
        return np.asarray(rng.random(shape) * 4 + 0.5).astype(dtype)
    return np.asarray(rng.integers(1, 4, shape)).astype(dtype)


def outcome(fn):
    try:
        return fn(), None
    except Exception as e:  # noqa: BLE001 - the test compares whether both raise
        return None, e


def compare(name, args, torch_fn, tol=1e-5):
    want, terr = outcome(torch_fn)
    got, eerr = outcome(lambda: run(name, *args))
    if terr is not None:
        assert eerr is not None, f"torch raised {terr!r} but {name} returned {got!r}"
        assert isinstance(eerr, (RuntimeError, IndexError, ValueError, TypeError)), eerr
        assert "numpy" not in str(eerr).lower(), f"numpy leaked into the message: {eerr}"
        return
    assert eerr is None, f"{name} raised {eerr!r}, torch gave {want}"
    half = any(isinstance(a, np.ndarray) and a.dtype == np.float16 for a in args)
    same(got, want, rtol=1e-3 if half else tol, atol=1e-3 if half else 1e-6)


@pytest.mark.parametrize("op", list(ARITH) + list(CMP))
@pytest.mark.parametrize("da,db", list(itertools.product(DTYPES, DTYPES)))
def test_tensor_tensor_promotion(op, da, db):
    fn = {**ARITH, **CMP}[op]
    for za, zb in ((False, False), (False, True), (True, False)):
        a, b = make(da, za, 1), make(db, zb, 2)
        compare(f"tensor.{op}", (a, b), lambda: fn(to_torch(a), to_torch(b)))


@pytest.mark.parametrize("op", list(ARITH) + list(CMP))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("s", SCALARS)
def test_tensor_scalar_and_reflected(op, dtype, s):
    fn = {**ARITH, **CMP}[op]
    a = make(dtype, False)
    compare(f"tensor.{op}_scalar", (a, s), lambda: fn(to_torch(a), s))
    if op in ARITH:
        compare(f"tensor.r{op}_scalar", (a, s), lambda: fn(s, to_torch(a)))


def test_integer_division_by_zero_raises_like_torch():
    a = np.array([1, 2], np.int64)
    b = np.array([1, 0], np.int64)
    for name in ("tensor.floordiv", "tensor.mod"):
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            run(name, a, b)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        run("tensor.floordiv_scalar", a, 0)
    # float division by zero is inf, without numpy warnings
    with np.errstate(all="raise"):
        same(run("tensor.truediv", a, b), to_torch(a) / to_torch(b))
        same(run("tensor.truediv", a.astype(np.float32), np.zeros(2, np.float32)),
             torch.tensor([1.0, 2.0]) / torch.zeros(2))


def test_negative_integer_power_raises():
    with pytest.raises(RuntimeError, match="negative integer powers"):
        run("tensor.pow_scalar", np.array([2, 3]), -1)
    same(run("tensor.pow_scalar", np.array([2.0, 4.0], np.float32), -1),
         torch.tensor([2.0, 4.0]) ** -1)


def test_uint8_wraps_with_large_python_ints():
    a = np.array([1, 200], np.uint8)
    same(run("tensor.add_scalar", a, 300), to_torch(a) + 300)
    same(run("tensor.eq_scalar", a, 300), to_torch(a) == 300)


def test_bool_subtraction_is_refused():
    a = np.array([True, False])
    with pytest.raises(RuntimeError, match="bool tensor"):
        run("tensor.sub", a, a)
    with pytest.raises(RuntimeError, match="bool tensor"):
        run("tensor.sub_scalar", np.arange(2), True)


@pytest.mark.parametrize("mode", [None, "trunc", "floor"])
@pytest.mark.parametrize("dtype", ["int64", "float32"])
def test_div_rounding_modes(mode, dtype):
    a = np.array([-7, -6, 5, 7], dtype)
    b = np.array([2, -4, -3, 2], dtype)
    same(run("tensor.div_mode", a, b, mode),
         torch.div(to_torch(a), to_torch(b), rounding_mode=mode))
    same(run("tensor.div_mode_scalar", a, 3, mode),
         torch.div(to_torch(a), 3, rounding_mode=mode))


def test_alpha_forms():
    a, b = np.arange(4, dtype=np.float32), np.ones(4, np.float32)
    same(run("tensor.add_alpha", a, b, 3), torch.add(to_torch(a), to_torch(b), alpha=3))
    same(run("tensor.sub_alpha", a, b, 0.5), torch.sub(to_torch(a), to_torch(b), alpha=0.5))
    with pytest.raises(RuntimeError, match="alpha"):
        run("tensor.add_alpha", a.astype(np.int64), b.astype(np.int64), 0.5)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_inplace_mutates_and_returns_self(op):
    a = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    b = np.array([1.0, 2.0, 4.0], np.float32)
    want = getattr(to_torch(a), f"{op}_")(to_torch(b))
    got = run(f"tensor.{op}_", a, b)
    same(got, want)
    from ember import ops
    x = a.copy()
    assert ops.get(f"tensor.{op}_").kernel(x, b) is x
    same(x, want)
    y = a.copy()
    ops.get(f"tensor.{op}_scalar_").kernel(y, 2)
    same(y, getattr(to_torch(a), f"{op}_")(2))


def test_inplace_refuses_what_torch_refuses():
    from ember import ops
    with pytest.raises(RuntimeError, match="can't be cast"):
        ops.get("tensor.add_scalar_").kernel(np.arange(3), 0.5)
    with pytest.raises(RuntimeError, match="shape"):
        ops.get("tensor.add_").kernel(np.ones(3, np.float32), np.ones((2, 3), np.float32))
    x = np.arange(3)
    ops.get("tensor.mul_scalar_").kernel(x, 2)
    np.testing.assert_array_equal(x, [0, 2, 4])


@pytest.mark.parametrize("op", ["and", "or", "xor", "lshift", "rshift"])
@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float32"])
def test_bitwise(op, dtype):
    fn = {"and": operator.and_, "or": operator.or_, "xor": operator.xor,
          "lshift": operator.lshift, "rshift": operator.rshift}[op]
    a, b = make(dtype, False, 1), make(dtype, False, 2)
    compare(f"tensor.bitwise_{op}", (a, b), lambda: fn(to_torch(a), to_torch(b)))
    compare(f"tensor.bitwise_{op}_scalar", (a, 1), lambda: fn(to_torch(a), 1))


@pytest.mark.parametrize("dtype", ["bool", "int64", "float32"])
def test_invert_and_logical(dtype):
    a, b = make(dtype, False, 1), make(dtype, False, 2)
    compare("tensor.invert", (a,), lambda: ~to_torch(a))
    for op in ("and", "or", "xor"):
        compare(f"tensor.logical_{op}", (a, b),
                lambda: getattr(torch, f"logical_{op}")(to_torch(a), to_torch(b)))
    compare("tensor.logical_not", (a,), lambda: torch.logical_not(to_torch(a)))


def test_where_variants():
    c = np.array([[True, False, True]])
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = np.full((2, 1), 0.5, np.float64)
    same(run("tensor.where", c, a, b), torch.where(to_torch(c), to_torch(a), to_torch(b)))
    same(run("tensor.where_ts", c, a, 0.5), torch.where(to_torch(c), to_torch(a), 0.5))
    same(run("tensor.where_st", c, 7, a), torch.where(to_torch(c), 7, to_torch(a)))
    same(run("tensor.where_ss", c, 1.0, 0), torch.where(to_torch(c), 1.0, 0))
    same(run("tensor.where_method", a, c, b), to_torch(a).where(to_torch(c), to_torch(b)))
    with pytest.raises(RuntimeError, match="boolean"):
        run("tensor.where", a, a, a)


def test_masked_fill():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    m = np.array([True, False, True])
    same(run("tensor.masked_fill", x, m, -1.5), to_torch(x).masked_fill(to_torch(m), -1.5))
    same(run("tensor.masked_fill", x, m, float("-inf")),
         to_torch(x).masked_fill(to_torch(m), float("-inf")))
    same(run("tensor.masked_fill_tensor", x, m, np.array(2.0, np.float32)),
         to_torch(x).masked_fill(to_torch(m), torch.tensor(2.0)))
    from ember import ops
    y = x.copy()
    assert ops.get("tensor.masked_fill_").kernel(y, m, 0.0) is y
    same(y, to_torch(x).masked_fill(to_torch(m), 0.0))
    with pytest.raises(RuntimeError, match="boolean"):
        run("tensor.masked_fill", x, m.astype(np.int64), 0.0)


@pytest.mark.parametrize("da,db", [("float32", "float32"), ("int64", "float32"),
                                   ("float32", "float64"), ("int32", "int64")])
def test_maximum_minimum_with_nan(da, db):
    a = np.array([1, 5, 3], da)
    b = np.array([2, 4, 3], db)
    if da.startswith("float"):
        a[0] = np.nan
    for op in ("maximum", "minimum"):
        same(run(f"tensor.{op}", a, b), getattr(torch, op)(to_torch(a), to_torch(b)))


def test_comparisons_of_int_tensors_with_floats_promote():
    a = np.array([1, 2, 3])
    same(run("tensor.gt_scalar", a, 1.5), to_torch(a) > 1.5)
    same(run("tensor.eq_scalar", a, 2.0), to_torch(a) == 2.0)


def test_isnan_isinf_isfinite_equal():
    a = np.array([1.0, np.nan, np.inf, -np.inf], np.float32)
    for op in ("isnan", "isinf", "isfinite"):
        same(run(f"tensor.{op}", a), getattr(torch, op)(to_torch(a)))
    assert run("tensor.equal", a[:1], a[:1].copy()) is True
    assert run("tensor.equal", a[:1], a[:2]) is False


@pytest.mark.parametrize("name", ["tensor.add", "tensor.mul", "tensor.truediv", "tensor.lt",
                                  "tensor.eq"])
@pytest.mark.parametrize("sa, sb", [((2, 6, 4, 5), (2, 5, 1, 1)), ((3, 6, 4), (2, 5, 4)),
                                    ((5,), (3, 1, 4)), ((2, 3), (3, 2))])
def test_shapes_that_do_not_broadcast_raise_torchs_runtime_error(name, sa, sb):
    a, b = np.ones(sa, np.float32), np.ones(sb, np.int64)
    with pytest.raises(RuntimeError) as want:
        getattr(torch, name.split(".")[1].replace("truediv", "div"))(to_torch(a), to_torch(b))
    with pytest.raises(RuntimeError) as got:
        ops.get(name).kernel(a, b)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("rtol,atol,equal_nan", [(1e-5, 1e-8, False), (0.1, 0.0, True),
                                                 (0.0, 0.05, False)])
def test_isclose_and_allclose_match_torch(rtol, atol, equal_nan):
    a = np.array([[1.0, np.nan, 2.0, np.inf], [3.0, -np.inf, 0.0, 1e-9]], np.float32)
    b = np.array([[1.0, np.nan, 2.1, np.inf], [3.00001, -np.inf, 0.04, 0.0]], np.float32)
    ta, tb = to_torch(a), to_torch(b)
    same(run("tensor.isclose", a, b, rtol, atol, equal_nan),
         torch.isclose(ta, tb, rtol, atol, equal_nan))
    same(run("tensor.isclose", a, b[1], rtol, atol, equal_nan),
         torch.isclose(ta, tb[1], rtol, atol, equal_nan))
    assert run("tensor.allclose", a, b, rtol, atol, equal_nan) is \
        torch.allclose(ta, tb, rtol, atol, equal_nan)
    assert run("tensor.allclose", b[1:], b[1:], rtol, atol, equal_nan) is True
    with pytest.raises(RuntimeError, match="Double did not match Float"):
        run("tensor.isclose", a, b.astype(np.float64), rtol, atol, equal_nan)
    with pytest.raises(RuntimeError, match="must match the size"):
        run("tensor.allclose", a, b[:, :3], rtol, atol, equal_nan)
