"""Reductions against torch: values, dtypes (int sums are int64, mean of ints is an
error), dims as int or list, negative dims, keepdim, (values, indices) pairs."""

from __future__ import annotations

import numpy as np
import pytest

from tests.unit.ops.util import run, same, to_torch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

RNG = np.random.default_rng(7)
XF = RNG.standard_normal((2, 3, 4)).astype(np.float32)
XI = RNG.integers(-5, 6, (2, 3, 4)).astype(np.int32)
XB = XF > 0
DIMS = [None, 0, -1, [0, 2], [-1, 1], []]


def _t(x):
    return to_torch(x)


def _dim_kw(dim):
    if dim is None:
        return {}
    return {"dim": dim if isinstance(dim, int) else tuple(dim)}


@pytest.mark.parametrize("dim", DIMS)
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("x", [XF, XI, XB], ids=["f32", "i32", "bool"])
def test_sum(x, dim, keepdim):
    if dim is None and keepdim:
        want = torch.sum(_t(x), dim=tuple(range(x.ndim)), keepdim=True)
    else:
        want = torch.sum(_t(x), **_dim_kw(dim), keepdim=keepdim) if dim is not None \
            else torch.sum(_t(x))
    same(run("tensor.sum", x, dim, keepdim, None), want)


@pytest.mark.parametrize("dim", DIMS)
@pytest.mark.parametrize("keepdim", [False, True])
def test_mean_and_dtype_argument(dim, keepdim):
    kw = _dim_kw(dim)
    if dim is not None:
        same(run("tensor.mean", XF, dim, keepdim, None), torch.mean(_t(XF), **kw,
                                                                  keepdim=keepdim))
        same(run("tensor.mean", XI, dim, keepdim, "float64"),
             torch.mean(_t(XI), **kw, keepdim=keepdim, dtype=torch.float64))
        same(run("tensor.sum", XF, dim, keepdim, "float64"),
             torch.sum(_t(XF), **kw, keepdim=keepdim, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="floating point"):
        run("tensor.mean", XI, dim, keepdim, None)


@pytest.mark.parametrize("dim", [None, 0, -1])
@pytest.mark.parametrize("x", [XF, XI, XB], ids=["f32", "i32", "bool"])
def test_prod(x, dim):
    want = torch.prod(_t(x)) if dim is None else torch.prod(_t(x), dim)
    same(run("tensor.prod", x, dim, False, None), want)


@pytest.mark.parametrize("x", [XF, XI], ids=["f32", "i32"])
def test_max_min(x):
    for name in ("max", "min"):
        fn = getattr(torch, name)
        same(run(f"tensor.{name}_all", x), fn(_t(x)))
        for dim in (0, 1, -1):
            for keep in (False, True):
                same(run(f"tensor.{name}_dim", x, dim, keep), tuple(fn(_t(x), dim, keep)))
        same(run(f"tensor.a{name}", x, [0, -1], False), getattr(torch, f"a{name}")(
            _t(x), (0, -1)))
        same(run(f"tensor.a{name}", x, [], True),
             getattr(torch, f"a{name}")(_t(x), (), keepdim=True))


def test_max_with_nan_and_ties_and_empty():
    x = np.array([[1.0, 3.0, 3.0], [np.nan, 2.0, np.nan]], np.float32)
    same(run("tensor.max_dim", x, 1, False), tuple(torch.max(_t(x), 1)))
    same(run("tensor.argmax", x, 1, False), torch.argmax(_t(x), 1))
    same(run("tensor.max_all", x), torch.max(_t(x)))
    with pytest.raises(IndexError):
        run("tensor.max_all", np.zeros((0, 3), np.float32))
    with pytest.raises(IndexError, match="out of range"):
        run("tensor.max_dim", x, 2, False)


@pytest.mark.parametrize("dim", [None, 0, -1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_argmax_argmin(dim, keepdim):
    for name in ("argmax", "argmin"):
        fn = getattr(torch, name)
        want = fn(_t(XF), dim=dim, keepdim=keepdim)
        same(run(f"tensor.{name}", XF, dim, keepdim), want)
        same(run(f"tensor.{name}", XI, dim, keepdim), fn(_t(XI), dim=dim, keepdim=keepdim))


@pytest.mark.parametrize("dim", [None, 1, [0, 2]])
@pytest.mark.parametrize("x", [XB, XI, XI.astype(np.uint8)], ids=["bool", "i32", "u8"])
def test_any_all(x, dim):
    for name in ("any", "all"):
        fn = getattr(torch, name)
        want = fn(_t(x)) if dim is None else fn(_t(x), **_dim_kw(dim))
        same(run(f"tensor.{name}", x, dim, False), want)


@pytest.mark.parametrize("dim", [None, 0, [1, 2]])
@pytest.mark.parametrize("unbiased", [True, False])
@pytest.mark.parametrize("keepdim", [False, True])
def test_var_std(dim, unbiased, keepdim):
    for name in ("var", "std"):
        fn = getattr(torch, name)
        if dim is None and not keepdim:
            same(run(f"tensor.{name}_unbiased", XF, unbiased), fn(_t(XF), unbiased))
        want = fn(_t(XF), **_dim_kw(dim) if dim is not None else {"dim": None},
                  unbiased=unbiased, keepdim=keepdim)
        same(run(f"tensor.{name}", XF, dim, unbiased, keepdim), want)
        same(run(f"tensor.{name}_correction", XF, dim, 0, keepdim),
             fn(_t(XF), **_dim_kw(dim) if dim is not None else {"dim": None}, correction=0,
                keepdim=keepdim))
    with pytest.raises(RuntimeError, match="floating"):
        run("tensor.var", XI, None, True, False)


@pytest.mark.parametrize("p", [2, 1, 3.5, float("inf"), float("-inf"), 0, "fro"])
@pytest.mark.parametrize("dim", [None, 1, [0, 2]])
def test_norm(p, dim):
    op = "tensor.norm_str" if isinstance(p, str) else "tensor.norm"
    if isinstance(p, str) and isinstance(dim, int):
        return
    want = torch.norm(_t(XF), p=p, dim=dim if dim is None or isinstance(dim, int) else
                      tuple(dim))
    same(run(op, XF, p, dim, False, None), want, rtol=2e-6)


def test_vector_norm_logsumexp_cumsum_count_nonzero():
    same(run("tensor.vector_norm", XF, 2, [1], True, None),
         torch.linalg.vector_norm(_t(XF), 2, dim=1, keepdim=True))
    x = XF.copy()
    x[0, 0, :] = -np.inf
    same(run("tensor.logsumexp", x, [-1], False), torch.logsumexp(_t(x), -1))
    same(run("tensor.logsumexp", XI, [0, 1], True), torch.logsumexp(_t(XI), (0, 1), True))
    for name in ("cumsum", "cumprod"):
        fn = getattr(torch, name)
        same(run(f"tensor.{name}", XF, 1, None), fn(_t(XF), 1), rtol=2e-6)
        same(run(f"tensor.{name}", XI, -1, None), fn(_t(XI), -1))
        same(run(f"tensor.{name}", XB, 0, None), fn(_t(XB), 0))
    same(run("tensor.count_nonzero", XI, [1]), torch.count_nonzero(_t(XI), 1))
    same(run("tensor.count_nonzero", XI, None), torch.count_nonzero(_t(XI)))


@pytest.mark.parametrize("descending", [False, True])
def test_sort_argsort_topk(descending):
    x = np.array([[3, 1, 2, 1, 5], [0, 0, 9, -1, 2]], np.int64)
    vals, idx = run("tensor.sort", x, 1, descending)
    tv, ti = torch.sort(_t(x), dim=1, descending=descending, stable=True)
    same((vals, idx), (tv, ti))
    same(run("tensor.argsort", x, -1, descending),
         torch.argsort(_t(x), dim=-1, descending=descending, stable=True))
    xf = RNG.standard_normal((3, 6)).astype(np.float32)  # no ties: torch's order is defined
    same(run("tensor.topk", xf, 2, 1, not descending, True),
         tuple(torch.topk(_t(xf), 2, 1, largest=not descending)))
    with pytest.raises(RuntimeError, match="out of range"):
        run("tensor.topk", xf, 7, 1, True, True)
