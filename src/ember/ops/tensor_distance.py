"""Distances between tensors: F.cosine_similarity and F.pairwise_distance (broadcasting
their two inputs, as torch does), F.pdist (the distances between the rows of a matrix) and
F.cosine_embedding_loss."""

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


def _p_norm(diff, p, axis):
    if p == 2:
        return np.sqrt(np.sum(diff * diff, axis=axis))
    if p == float("inf"):
        return np.max(np.abs(diff), axis=axis, initial=0)
    if p == 0:
        return np.sum(diff != 0, axis=axis).astype(diff.dtype)
    return np.sum(np.abs(diff) ** p, axis=axis) ** (1.0 / p)


def pdist(x, p=2.0):
    """The p-norm distance between each pair of rows i < j of a 2-D input, in row order."""
    if x.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {x.ndim}D")
    if x.dtype.kind != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    i, j = np.triu_indices(x.shape[0], 1)
    with quiet():
        return np.asarray(_p_norm(x[i] - x[j], p, -1), x.dtype).reshape(len(i))


def cosine_embedding_loss(x1, x2, target, margin=0.0, reduction="mean"):
    """1 - cos(x1, x2) where target is 1, max(0, cos(x1, x2) - margin) where it is -1."""
    if x1.ndim != x2.ndim or x1.ndim not in (1, 2) or target.ndim != x1.ndim - 1:
        raise RuntimeError(f"cosine_embedding_loss: expected 1D or 2D inputs of one rank and "
                           f"a target of one dimension less, got {x1.ndim}D, {x2.ndim}D and "
                           f"{target.ndim}D")
    a, b = _operands(x1, x2, "cosine_embedding_loss")
    eps = a.dtype.type(1e-12)
    with quiet():
        prod = np.sum(a * b, axis=-1)
        denom = np.sqrt((np.sum(a * a, axis=-1) + eps) * (np.sum(b * b, axis=-1) + eps))
        cos = prod / denom
        loss = np.where(target == 1, 1 - cos, 0) + \
            np.where(target == -1, np.maximum(cos - margin, 0), 0)
    loss = np.asarray(loss, a.dtype)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return np.asarray(loss.sum(dtype=a.dtype))
    if reduction == "mean":
        return np.asarray(loss.mean(dtype=a.dtype))
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _pdist_info(args):
    x = args[0]
    n = x.shape[0] if x.shape is not None and len(x.shape) == 2 and \
        isinstance(x.shape[0], int) else None
    return TensorInfo(x.dtype, None if n is None else (n * (n - 1) // 2,))


def _cel_info(args):
    reduction = args[4].const
    shape = () if reduction in ("mean", "sum") else None
    return TensorInfo(to_float(args[0].dtype) if args[0].dtype == args[1].dtype else None,
                      shape)


reg("tensor.pdist", "(Tensor self, float p=2.0) -> Tensor", pdist, (f"{F}.pdist", "torch.pdist"),
    _pdist_info, may_raise=True)
reg("tensor.cosine_embedding_loss", "(Tensor input1, Tensor input2, Tensor target, "
    'float margin=0.0, str reduction="mean") -> Tensor', cosine_embedding_loss,
    (f"{F}.cosine_embedding_loss", "torch.cosine_embedding_loss"), _cel_info, may_raise=True)
