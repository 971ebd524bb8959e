"""Shared pieces of the tensor kernels: dtype rules (torch's), registration helpers."""

from __future__ import annotations

import numpy as np

from ember.ops.registry import OpDef, register
from ember.ops.tensorinfo import UNKNOWN, TensorInfo, broadcast, promote, scalar_result

FLOAT_KINDS = "f"


def as_float(a: np.ndarray) -> np.ndarray:
    """An int/bool tensor as float32 (torch's default dtype); floats unchanged."""
    return a if a.dtype.kind == FLOAT_KINDS else a.astype(np.float32)


def match_dtypes(a, b):
    """torch promotion for two tensors: int with float becomes the float's dtype."""
    if a.dtype == b.dtype:
        return a, b
    ka, kb = a.dtype.kind, b.dtype.kind
    if ka == "f" and kb != "f":
        return a, b.astype(a.dtype)
    if kb == "f" and ka != "f":
        return a.astype(b.dtype), b
    return a, b


def with_scalar(a, s):
    """A tensor ready to combine with Python scalar s the way torch does."""
    if isinstance(s, float) and a.dtype.kind != "f":
        return a.astype(np.float32)
    return a


def reg(name, schema, kernel, python=(), shape=None, **flags):
    register(OpDef(name, f"{name}{schema}", kernel, python_names=python, shape_fn=shape,
                   **flags))


# ----------------------------------------------------------------------------- shape functions


def same_as_first(args):
    a = args[0]
    return TensorInfo(a.dtype, a.shape) if a.is_tensor else UNKNOWN


def as_float_info(args):
    a = args[0]
    dtype = a.dtype if a.dtype in (None, "float16", "float32", "float64") else "float32"
    return TensorInfo(dtype, a.shape)


def binary_info(args):
    a, b = args[0], args[1]
    if a.is_tensor and b.is_tensor:
        return TensorInfo(promote(a.dtype, b.dtype), broadcast(a.shape, b.shape))
    scalar = b.const if b.const is not None else b.kind
    return TensorInfo(scalar_result(a.dtype, scalar), a.shape)


def compare_info(args):
    info = binary_info(args)
    return TensorInfo("bool", info.shape)


def div_info(args):
    info = binary_info(args)
    dtype = info.dtype if info.dtype in (None, "float16", "float32", "float64") else "float32"
    return TensorInfo(dtype, info.shape)
