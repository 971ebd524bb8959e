"""Distances between tensors: F.cosine_similarity and F.pairwise_distance (broadcasting
their two inputs, as torch does)."""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import F, broadcast_error, check_dim, quiet, reg, tensors_dtype
from ember.ops.tensorinfo import TensorInfo, broadcast, to_float


def _operands(a, b, what):
    err = broadcast_error(a, b)
    if err is not None:
        raise err
    dtype = tensors_dtype(a, b)
    if dtype.kind != "f":
        raise RuntimeError(f"{what}: expected floating point inputs, got {a.dtype} and "
                           f"{b.dtype}")
    return a.astype(dtype, copy=False), b.astype(dtype, copy=False)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """sum(x1 * x2) / (max(|x1|, eps) * max(|x2|, eps)) along dim."""
    a, b = _operands(x1, x2, "cosine_similarity")
    a, b = np.broadcast_arrays(a, b)
    d = check_dim(dim, max(a.ndim, 1))
    with quiet():
        na = np.sqrt(np.sum(a * a, axis=d, keepdims=True))
        nb = np.sqrt(np.sum(b * b, axis=d, keepdims=True))
        ua = a / np.maximum(na, eps).astype(a.dtype, copy=False)
        ub = b / np.maximum(nb, eps).astype(b.dtype, copy=False)
        return np.asarray(np.sum(ua * ub, axis=d))


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps along the last dim."""
    a, b = _operands(x1, x2, "pairwise_distance")
    diff = np.subtract(a, b)
    diff += diff.dtype.type(eps)
    if diff.ndim == 0:
        diff = diff.reshape(1)
    with quiet():
        if p == 2:
            out = np.sqrt(np.sum(diff * diff, axis=-1, keepdims=keepdim))
        elif p == float("inf"):
            out = np.max(np.abs(diff), axis=-1, keepdims=keepdim)
        elif p == 0:
            out = np.sum(diff != 0, axis=-1, keepdims=keepdim).astype(diff.dtype)
        else:
            out = np.sum(np.abs(diff) ** p, axis=-1, keepdims=keepdim) ** (1.0 / p)
    return np.asarray(out, diff.dtype)


def _reduced_info(dim_arg, keep_arg):
    def info(args):
        a, b = args[0], args[1]
        shape = broadcast(a.shape, b.shape)  # raises ShapeMismatch if they cannot
        dtype = to_float(a.dtype) if a.dtype == b.dtype else None
        dim = args[dim_arg].const if dim_arg is not None else -1
        keep = args[keep_arg].const if keep_arg is not None else False
        if shape is None or not isinstance(dim, int) or not isinstance(keep, bool) or \
                not shape or not -len(shape) <= dim < len(shape):
            return TensorInfo(dtype, None)
        d = dim % len(shape)
        out = shape[:d] + ((1,) if keep else ()) + shape[d + 1:]
        return TensorInfo(dtype, out)
    return info


reg("tensor.cosine_similarity", "(Tensor x1, Tensor x2, int dim=1, float eps=0.00000001) "
    "-> Tensor", cosine_similarity, (f"{F}.cosine_similarity", "torch.cosine_similarity"),
    _reduced_info(2, None), may_raise=True)
reg("tensor.pairwise_distance", "(Tensor x1, Tensor x2, float p=2.0, float eps=0.000001, "
    "bool keepdim=False) -> Tensor", pairwise_distance,
    (f"{F}.pairwise_distance", "torch.pairwise_distance"), _reduced_info(None, 4),
    may_raise=True)
