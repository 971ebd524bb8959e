"""Helpers for the operator tests: run an ember kernel on numpy arrays, the same
operation in torch, and compare values, dtypes and the operator's shape function."""

from __future__ import annotations

import numpy as np

from ember import ops
from ember.ops.tensorinfo import ArgInfo, TensorInfo

TORCH_DTYPE_NAMES = {"float32": "float32", "float64": "float64", "float16": "float16",
                     "int64": "int64", "int32": "int32", "int16": "int16", "int8": "int8",
                     "uint8": "uint8", "bool": "bool", "complex64": "complex64",
                     "complex128": "complex128"}


def to_numpy(t):
    """A torch tensor (or nested tuple/list of them) as numpy values."""
    import torch
    if isinstance(t, torch.Tensor):
        return t.detach().resolve_conj().resolve_neg().numpy()
    if isinstance(t, (tuple, list)):
        return type(t)(to_numpy(x) for x in t)
    return t


def to_torch(v):
    """numpy arrays (in lists/tuples) as torch tensors; other values unchanged."""
    import torch
    if isinstance(v, np.ndarray):
        return torch.from_numpy(v.copy())
    if isinstance(v, (tuple, list)):
        return type(v)(to_torch(x) for x in v)
    return v


def arg_info(v) -> ArgInfo:
    """The compile-time description of a concrete argument."""
    if isinstance(v, np.ndarray):
        return ArgInfo(v.dtype.name, tuple(v.shape), None, True, "tensor")
    if isinstance(v, list) and v and all(isinstance(x, np.ndarray) for x in v):
        return ArgInfo(None, None, None, False, "list", tuple(arg_info(x) for x in v))
    kind = {bool: "bool", int: "int", float: "float", complex: "complex", str: "str",
            type(None): "none"}.get(type(v))
    if isinstance(v, (list, tuple)):
        kind = "list"
    if isinstance(v, str) and v in TORCH_DTYPE_NAMES:
        kind = "dtype"
    return ArgInfo(None, None, list(v) if isinstance(v, tuple) else v, False, kind)


def run(name: str, *args):
    """Run operator `name` on copies of args; also check its shape function agrees."""
    d = ops.get(name)
    assert d is not None, f"no operator {name}"
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    out = d.kernel(*copies)
    if d.shape_fn is not None:
        check_info(d.shape_fn([arg_info(a) for a in args]), out, name)
    return out


def check_info(info, out, name=""):
    """A shape function's claim (dtype, known dims) must hold for the actual result."""
    if isinstance(info, tuple):
        assert isinstance(out, tuple) and len(out) == len(info), name
        for i, o in zip(info, out):
            check_info(i, o, name)
        return
    if not isinstance(info, TensorInfo) or out is None:
        return
    assert type(out) is np.ndarray, f"{name} returned {type(out).__name__}, not ndarray"
    if info.dtype is not None:
        assert info.dtype == out.dtype.name, f"{name}: shape fn says {info.dtype}, got " \
                                             f"{out.dtype}"
    if info.shape is not None:
        assert len(info.shape) == out.ndim, f"{name}: shape fn says {info.shape}, got " \
                                            f"{out.shape}"
        for d, s in zip(info.shape, out.shape):
            assert not isinstance(d, int) or d == s, f"{name}: shape fn says {info.shape}, " \
                                                     f"got {out.shape}"


def same(got, want, rtol=1e-5, atol=1e-6):
    """got (numpy) equals want (torch result) in type, dtype, shape and values."""
    want = to_numpy(want)
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w, rtol, atol)
        return
    if not isinstance(want, np.ndarray):
        assert got == want or (np.isnan(got) and np.isnan(want)), (got, want)
        return
    assert type(got) is np.ndarray, f"expected an ndarray, got {type(got).__name__}"
    assert got.dtype == want.dtype, f"dtype {got.dtype} != torch's {want.dtype}"
    assert got.shape == want.shape, f"shape {got.shape} != torch's {want.shape}"
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)
