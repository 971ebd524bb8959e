"""Fused groups natively (ember/llvm/fused.py): the math functions' accuracy against
correctly rounded float32 values, and whole groups against the VM's planned numpy groups."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

import ember

pytest.importorskip("llvmlite")

from ember.llvm import fused  # noqa: E402


def _ulps(a, b):
    def ordered(v):
        i = v.view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)
    return np.abs(ordered(a) - ordered(b))


def _run_one(opname, x):
    fn = fused._compile(("fused", 1, (), ((opname, (0,)),), (1,)), ("t",))
    out = np.empty_like(x)
    tens = (ctypes.c_void_p * 1)(x.ctypes.data)
    scal = (ctypes.c_double * 1)(0.0)
    outs = (ctypes.c_void_p * 1)(out.ctypes.data)
    fn(ctypes.addressof(tens), ctypes.addressof(scal), ctypes.addressof(outs), x.size)
    return out


@pytest.mark.parametrize("opname, ref, lo, hi, bound", [
    ("tensor.tanh", np.tanh, -12.0, 12.0, 1), ("tensor.exp", np.exp, -104.0, 89.0, 1)])
def test_math_within_its_documented_bound(opname, ref, lo, hi, bound):
    rng = np.random.default_rng(5)
    x = rng.uniform(lo, hi, 200_000).astype(np.float32)
    x[:2000] = rng.uniform(-1e-3, 1e-3, 2000).astype(np.float32)
    x[2000:2006] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30]
    got = _run_one(opname, x)
    with np.errstate(over="ignore"):
        want = ref(x.astype(np.float64)).astype(np.float32)
    finite = np.isfinite(want)
    assert _ulps(got[finite], want[finite]).max() <= bound
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)])
    assert np.array_equal(np.signbit(got[2000:2002]), np.signbit(want[2000:2002]))


def test_tanh_within_one_ulp_over_ten_million_floats():
    """Every 14th float32 in [1e-8, 10] (tanh's whole non-trivial range), and negated:
    1.0e7 points against the correctly rounded value; below 1e-8 tanh(x) rounds to x,
    past 9.01 to 1."""
    lo, hi = np.float32(1e-8).view(np.int32), np.float32(10.0).view(np.int32)
    x = np.arange(lo, hi, 14, dtype=np.int32).view(np.float32)
    x = np.concatenate([x, -x])
    assert x.size >= 10_000_000
    got = _run_one("tensor.tanh", x)
    want = np.tanh(x.astype(np.float64)).astype(np.float32)
    assert _ulps(got, want).max() <= 1
    edge = np.array([1e-9, -1e-30, 9.02, 50.0, -50.0], np.float32)
    assert np.array_equal(_run_one("tensor.tanh", edge),
                          np.tanh(edge.astype(np.float64)).astype(np.float32))



def _sigmoid64(x):
    return 1.0 / (1.0 + np.exp(-x.astype(np.float64)))


def test_sigmoid_within_two_ulp_over_ten_million_floats():
    """Every 60th float32 in [1e-9, 110] and negated (1.0e7 points: below 1e-9 sigmoid
    rounds to 0.5, past 17 to 1, below -103.97 to 0), subnormal results included, against
    the correctly rounded value."""
    lo, hi = np.float32(1e-9).view(np.int32), np.float32(110.0).view(np.int32)
    x = np.arange(lo, hi, 60, dtype=np.int32).view(np.float32)
    x = np.concatenate([x, -x])
    assert x.size >= 10_000_000
    with np.errstate(over="ignore"):
        want = _sigmoid64(x).astype(np.float32)
    assert _ulps(_run_one("tensor.sigmoid", x), want).max() <= 2
    edge = np.array([0.0, -0.0, np.inf, -np.inf, 1e-30, -87.3, -100.0, -103.9, -104.0,
                     -200.0, 200.0], np.float32)
    with np.errstate(over="ignore"):
        assert np.array_equal(_run_one("tensor.sigmoid", edge),
                              _sigmoid64(edge).astype(np.float32))
    assert np.isnan(_run_one("tensor.sigmoid", np.array([np.nan], np.float32)))[0]

SRC = '''
def k(x: Tensor, a: float, b: float) -> Tensor:
    return torch.relu(x * a + b) * torch.sigmoid(x) - x / 2

def exact(x: Tensor, y: Tensor, a: float) -> Tensor:
    return torch.relu((x + y) * a - y / 3) - x * y
'''


def test_groups_run_natively_and_agree_with_the_vm():
    cu = ember.CompilationUnit(SRC, "fused_test.py", backend="llvm")
    vm = ember.CompilationUnit(SRC, "fused_test.py")
    rng = np.random.default_rng(6)
    x = (rng.standard_normal((64, 33)) * 3).astype(np.float32)
    y = rng.standard_normal((64, 33)).astype(np.float32)
    x[0, :4] = [np.nan, np.inf, -0.0, -np.inf]
    # arithmetic and relu only: bit for bit
    assert np.array_equal(cu.exact(x, y, 0.7), vm.exact(x, y, 0.7), equal_nan=True)
    got, want = cu.k(x, 1.5, -0.25), vm.k(x, 1.5, -0.25)
    assert got.dtype == np.float32 and got.shape == want.shape
    # sigmoid differs from numpy's float32 tanh by a few ulp at most, then the products
    # and differences carry it: compare against the magnitude of the terms
    scale = np.abs(x) + np.abs(x * 1.5 - 0.25) + 1e-30
    ok = np.isfinite(want)
    with np.errstate(invalid="ignore"):
        assert np.all(np.abs(got - want)[ok] <= 4e-7 * scale[ok])
    assert np.array_equal(np.isnan(got), np.isnan(want))
    # other dtypes, broadcasting or strides run the planned numpy group: the VM's bits
    xd = x.astype(np.float64)
    assert np.array_equal(cu.k(xd, 1.5, -0.25), vm.k(xd, 1.5, -0.25), equal_nan=True)
    xt = x.T
    assert np.array_equal(cu.k(xt, 1.5, -0.25), vm.k(xt, 1.5, -0.25), equal_nan=True)


def test_native_groups_are_used():
    cu = ember.CompilationUnit(SRC, "fused_test.py", backend="llvm")
    x = np.ones((8, 8), np.float32)
    cu.k(x, 1.0, 0.0)
    env_groups = [g for g in _groups(cu) if isinstance(g, fused.NativeFusedGroup)]
    assert env_groups and any(fn is not None for g in env_groups for fn in g._native.values())


def _groups(cu):
    fns = cu._functions["k"]._compiled.loaded._fns
    return [v for fn in fns for v in fn.__globals__.values()
            if isinstance(v, fused.FusedGroup)]


ACT_SRC = '''
import torch
import torch.nn.functional as F
from torch import Tensor

def a(x: Tensor, y: Tensor) -> Tensor:
    return F.hardswish(x * y) + F.hardsigmoid(x - y) + F.relu6(x + y)
'''


def test_piecewise_activations_are_bit_exact():
    cu = ember.CompilationUnit(ACT_SRC, backend="llvm")
    vm = ember.CompilationUnit(ACT_SRC)
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(10000) * 5).astype(np.float32)
    y = rng.standard_normal(10000).astype(np.float32)
    x[:8] = [np.nan, -0.0, 0.0, np.inf, -np.inf, -3.0, 3.0, 6.0]
    y[:8] = [1, 1, -0.0, 1, 1, 1, 1, 1]
    with np.errstate(invalid="ignore"):
        assert np.array_equal(cu.a(x, y), vm.a(x, y), equal_nan=True)


TWO_SRC = '''
def two(x: Tensor, y: Tensor, a: float) -> Tuple[Tensor, Tensor]:
    s = (x + y) * a
    return s, s - y * 2.0
'''


def _native_group(cu, name):
    fns = cu._functions[name]._compiled.loaded._fns
    return next(v for fn in fns for v in fn.__globals__.values()
                if isinstance(v, fused.NativeFusedGroup))


def test_object_entry_checks_every_argument_and_falls_back():
    from ember.llvm import objcall

    if objcall.LAYOUT is None:
        pytest.skip("this interpreter's object layout is not CPython's")
    src = "from typing import Tuple\nfrom torch import Tensor\n" + TWO_SRC
    cu = ember.CompilationUnit(src, backend="llvm")
    vm = ember.CompilationUnit(src)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((5, 6)).astype(np.float32)
    y = rng.standard_normal((5, 6)).astype(np.float32)
    group = _native_group(cu, "two")
    calls = []

    def same(*args):
        for g, w in zip(cu.two(*args), vm.two(*args)):
            assert g.dtype == w.dtype and g.shape == w.shape
            assert np.array_equal(g, w, equal_nan=True)

    same(x, y, 0.5)
    assert group._fast is not None
    fast_entry = group._fast[1]

    def counting(*a):
        r = fast_entry(*a)
        calls.append(r)
        return r
    group._fast = (group._fast[0], counting)
    same(x, y, 1.5)                       # the object entry runs it
    same(x, y, 3)                         # the entry converts 3 to 3.0: native
    same(x, y.astype(np.float64), 1.5)    # another dtype: the numpy plan
    same(x, y[:, None, :].repeat(2, 1)[:, 0], 1.5)  # same shape, not contiguous
    same(x, np.asfortranarray(y), 1.5)    # Fortran order
    same(x[:1], y[:1], 2.0)               # another shape: runs natively again
    same(np.zeros((0, 6), np.float32), np.zeros((0, 6), np.float32), 1.0)
    same(np.full((), 2.0, np.float32), np.ones((), np.float32), 1.0)
    assert calls == [1, 1, 0, 0, 0, 1, 1, 1]
    with pytest.raises(Exception) as want:
        vm.two(x, y[:2], 1.0)
    with pytest.raises(type(want.value)):
        cu.two(x, y[:2], 1.0)             # broadcasting mismatch: the kernel's error


def test_large_outputs_are_recycled_only_once_dropped():
    cu = ember.CompilationUnit(SRC, "fused_test.py", backend="llvm")
    x = np.linspace(-3, 3, fused.REUSE, dtype=np.float32)
    y = x[::-1].copy()
    kept = cu.exact(x, y, 0.5)
    first = kept.copy()
    again = cu.exact(y, x, 0.5)           # kept is still referenced: a fresh array
    assert again is not kept and np.array_equal(kept, first)
    addr = again.ctypes.data
    del again
    third = cu.exact(y, x, 0.5)           # dropped: written again in place
    assert third.ctypes.data == addr
    view = third[:10]
    fourth = cu.exact(x, y, 0.5)          # a view keeps its base alive
    assert fourth.ctypes.data != third.ctypes.data and np.array_equal(view, third[:10])
    assert np.array_equal(fourth, first)


UNARY_SRC = '''
import torch
import torch.nn.functional as F
from torch import Tensor

def pw(x: Tensor, which: int) -> Tensor:
    if which == 0:
        return F.relu(x)
    if which == 1:
        return F.hardswish(x)
    if which == 2:
        return F.hardsigmoid(x)
    return F.relu6(x)

def smooth(x: Tensor, which: int) -> Tensor:
    if which == 0:
        return torch.sigmoid(x)
    if which == 1:
        return torch.tanh(x)
    return F.silu(x)

def inplace(x: Tensor) -> Tensor:
    return F.relu(x, inplace=True)
'''


def test_single_activations_run_natively():
    from ember.llvm import kernels

    cu = ember.CompilationUnit(UNARY_SRC, backend="llvm")
    vm = ember.CompilationUnit(UNARY_SRC)
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((7, 129)) * 4).astype(np.float32)
    x[0, :5] = [np.nan, -0.0, np.inf, -np.inf, 3.0]
    with np.errstate(invalid="ignore"):
        for k in range(4):
            for arg in (x, x.T, x.astype(np.float64)):
                assert np.array_equal(cu.pw(arg, k), vm.pw(arg, k), equal_nan=True)
        for k in range(3):
            got, want = cu.smooth(x, k), vm.smooth(x, k)
            ok = np.isfinite(want)
            assert np.all(np.abs(got - want)[ok] <= 4e-7 * (np.abs(x[ok]) + 1))
            assert np.array_equal(np.isnan(got), np.isnan(want))
    y = x.copy()
    r = cu.inplace(y)
    assert np.shares_memory(r, y) and np.array_equal(y, vm.inplace(x.copy()), equal_nan=True)
    assert isinstance(kernels.native_kernel("tensor.relu", None), kernels.NativeUnary)
