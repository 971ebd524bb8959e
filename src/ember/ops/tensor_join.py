"""Joining and splitting tensors: cat, stack, hstack/vstack, chunk, split, unbind.

cat and stack promote mixed dtypes like torch (int with float gives the float);
cat skips 1-D empty tensors (torch's legacy rule). Pieces from chunk/split/unbind
are views of the input.
"""

from __future__ import annotations

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import broadcast_error, check_dim, reg
from ember.ops.tensorinfo import (
    TensorInfo,
    fmt,
    norm_dim,
    promote_types,
    result_type,
    same_dim,
)


def _common_dtype(ts):
    if all(t.dtype == ts[0].dtype for t in ts):
        return ts[0].dtype
    return np.dtype(result_type([t.dtype.name for t in ts]))


def cat(ts, dim):
    """Tensors joined along an existing dim (other dims must match)."""
    if not ts:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(ts):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               "concatenated")
    rt = _common_dtype(ts)
    parts = [(i, t) for i, t in enumerate(ts) if not (t.ndim == 1 and t.shape[0] == 0)]
    if not parts:
        return np.empty((0,), rt)
    ref = parts[0][1]
    d = check_dim(dim, ref.ndim)
    for i, t in parts:
        if t.ndim != ref.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} "
                               f"and {t.ndim}")
        for k in range(ref.ndim):
            if k != d and t.shape[k] != ref.shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. "
                                   f"Expected size {ref.shape[k]} but got size {t.shape[k]} "
                                   f"for tensor number {i} in the list.")
    return np.concatenate([t for _, t in parts], axis=d, dtype=rt)


def stack(ts, dim):
    """Tensors of equal shape joined along a new dim."""
    if not ts:
        raise RuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(ts):
        if t.shape != ts[0].shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(ts[0].shape)} at entry 0 and {list(t.shape)} at entry "
                               f"{i}")
    d = check_dim(dim, ts[0].ndim + 1)
    return np.stack(ts, axis=d, dtype=_common_dtype(ts))


def _items_dtype(items):
    dtype = items[0].dtype
    for it in items[1:]:
        dtype = promote_types(dtype, it.dtype)
    return dtype


def _cat_info(args):
    items, dim = args[0].items, args[1].const
    if not items or dim is None or any(it.shape is None for it in items):
        return TensorInfo(_items_dtype(items) if items else None, None)
    dtype = _items_dtype(items)
    shapes = [it.shape for it in items if it.shape != (0,)]
    if not shapes:
        return TensorInfo(dtype, (0,))
    rank = len(shapes[0])
    if rank == 0:
        raise ShapeMismatch("zero-dimensional tensors cannot be concatenated")
    d = norm_dim(dim, rank)
    out = list(shapes[0])
    for i, s in enumerate(shapes[1:], 1):
        if len(s) != rank:
            raise ShapeMismatch(f"cat: tensors of ranks {rank} and {len(s)}")
        for k in range(rank):
            if k == d:
                out[k] = out[k] + s[k] if isinstance(out[k], int) and isinstance(s[k], int) \
                    else None
            elif same_dim(out[k], s[k]) is False:
                raise ShapeMismatch(f"cat along dim {dim}: tensor {i} has shape {fmt(s)}, "
                                    f"which differs from {fmt(shapes[0])} in dim {k}")
    return TensorInfo(dtype, tuple(out))


def _stack_info(args):
    items, dim = args[0].items, args[1].const
    if not items or dim is None or any(it.shape is None for it in items):
        return TensorInfo(_items_dtype(items) if items else None, None)
    first = items[0].shape
    for i, it in enumerate(items[1:], 1):
        if len(it.shape) != len(first) or any(same_dim(a, b) is False
                                              for a, b in zip(first, it.shape)):
            raise ShapeMismatch(f"stack expects tensors of equal shape: {fmt(first)} and "
                                f"{fmt(it.shape)} (entry {i})")
    d = norm_dim(dim, len(first) + 1)
    return TensorInfo(_items_dtype(items), first[:d] + (len(items),) + first[d:])


def _hstack(ts):
    """Tensors joined along dim 1 (dim 0 for vectors)."""
    return cat(ts, 0 if ts and ts[0].ndim == 1 else 1)


def _vstack(ts):
    """Tensors (vectors as rows) joined along dim 0."""
    return cat([t.reshape(1, -1) if t.ndim < 2 else t for t in ts], 0)


reg("tensor.cat", "(Tensor[] tensors, int dim=0) -> Tensor", cat,
    ("torch.cat", "torch.concat", "torch.concatenate"), _cat_info, may_raise=True)
reg("tensor.stack", "(Tensor[] tensors, int dim=0) -> Tensor", stack, ("torch.stack",),
    _stack_info, may_raise=True)
def _joined_dtype(args):
    items = args[0].items
    return TensorInfo(_items_dtype(items) if items else None, None)


reg("tensor.hstack", "(Tensor[] tensors) -> Tensor", _hstack, ("torch.hstack",),
    _joined_dtype, may_raise=True)
reg("tensor.vstack", "(Tensor[] tensors) -> Tensor", _vstack, ("torch.vstack", "torch.row_stack"),
    _joined_dtype, may_raise=True)


def _broadcast_tensors(ts):
    """The tensors broadcast to their common shape (copies, as ember's tensors own data)."""
    shape = ()
    for t in ts:
        err = broadcast_error(np.broadcast_to(np.zeros((), t.dtype), shape), t)
        if err is not None:
            raise err
        shape = np.broadcast_shapes(shape, t.shape)
    return [np.broadcast_to(t, shape).copy() for t in ts]


reg("tensor.broadcast_tensors", "(Tensor[] tensors) -> Tensor[]", _broadcast_tensors,
    ("torch.broadcast_tensors",), may_raise=True,
    doc="The tensors expanded to the shape they broadcast to.")

# ----------------------------------------------------------------------------- splitting


def _pieces(x, d, bounds):
    pre = (slice(None),) * d
    return [x[pre + (slice(a, b),)] for a, b in bounds]


def chunk(x, chunks, dim):
    """x split into at most `chunks` views of equal size (the last may be smaller)."""
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = check_dim(dim, x.ndim)
    n = x.shape[d]
    size = max(-(-n // chunks), 1)
    return _pieces(x, d, [(i, min(i + size, n)) for i in range(0, n, size)] or [(0, 0)])


def split(x, size, dim):
    """x split into views of `size` along dim (the last may be smaller)."""
    d = check_dim(dim, x.ndim)
    n = x.shape[d]
    if size <= 0 and n:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                           f"dimension size of {n}")
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size="
                           f"{size}")
    return _pieces(x, d, [(i, min(i + size, n)) for i in range(0, n, size)] or [(0, 0)])


def split_sizes(x, sizes, dim):
    """x split into views of the given sizes along dim (they must sum to its size)."""
    d = check_dim(dim, x.ndim)
    if sum(sizes) != x.shape[d] or any(s < 0 for s in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to "
                           f"{x.shape[d]} (input tensor's size at dimension {dim}), but got "
                           f"split_sizes={list(sizes)}")
    bounds, at = [], 0
    for s in sizes:
        bounds.append((at, at + s))
        at += s
    return _pieces(x, d, bounds)


def unbind(x, dim):
    """The slices of x along dim, as views without that dim."""
    d = check_dim(dim, x.ndim)
    pre = (slice(None),) * d
    return [x[pre + (i, Ellipsis)] for i in range(x.shape[d])]


reg("tensor.chunk", "(Tensor self, int chunks, int dim=0) -> Tensor[]", chunk,
    ("torch.chunk", "Tensor.chunk"), may_raise=True)
reg("tensor.split", "(Tensor self, int split_size, int dim=0) -> Tensor[]", split,
    ("torch.split", "Tensor.split"), may_raise=True)
reg("tensor.split_sizes", "(Tensor self, int[] split_size, int dim=0) -> Tensor[]",
    split_sizes, ("torch.split", "Tensor.split", "Tensor.split_with_sizes",
                  "torch.split_with_sizes"), may_raise=True)
reg("tensor.unbind", "(Tensor self, int dim=0) -> Tensor[]", unbind,
    ("torch.unbind", "Tensor.unbind"), may_raise=True)
