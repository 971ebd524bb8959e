"""Smaller tensor operators TorchScript programs use: trace, rot90, cross, logspace,
scalar_tensor, strides, unfold (sliding windows) and index_add_, with torch's dtypes and
errors."""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import arr, check_dim, check_dims, reg
from ember.ops.tensorinfo import TensorInfo

_KW = "*, ScalarType? dtype=None, Any device=None, bool requires_grad=False"


def _trace(x):
    """torch.trace: the sum of a matrix's diagonal (int tensors sum to int64)."""
    if x.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {x.ndim}")
    d = np.diagonal(x)
    out = d.sum(dtype=np.int64 if x.dtype.kind in "biu" else x.dtype)
    return arr(np.asarray(out))


def _trace_info(a):
    dt = a[0].dtype
    return TensorInfo("int64" if dt in ("bool", "uint8", "int8", "int16", "int32", "int64")
                      else dt, ())


def _rot90(x, k, dims):
    """torch.rot90: k quarter turns from the first dim of dims towards the second."""
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if x.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {x.ndim}")
    d = check_dims(dims, x.ndim)
    return np.rot90(x, k, axes=d).copy()


def _cross(a, b, dim):
    """torch.cross / torch.linalg.cross: the cross product along a dim of size 3 (the
    first such dim when none is given, as torch.cross does)."""
    if a.ndim != b.ndim:
        raise RuntimeError(f"linalg.cross: inputs must have the same number of dimensions, "
                           f"got {a.ndim} and {b.ndim}")
    shape = np.broadcast_shapes(a.shape, b.shape)
    if dim is None:
        dim = next((i for i, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    d = check_dim(dim, len(shape))
    if shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{a.shape[d]} and {b.shape[d]}")
    return arr(np.cross(a, b, axis=d).astype(np.result_type(a, b)))


def _logspace(start, end, steps, base, dtype, device=None, requires_grad=False):
    """base ** (steps values evenly spaced from start to end), float32 by default."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    exps = np.linspace(start, end, steps, dtype=np.float64)
    return np.power(float(base), exps).astype(dtype or np.float32)


def _scalar_tensor(s, dtype, device=None, requires_grad=False):
    """torch.scalar_tensor: a 0-d tensor of s (float32 unless a dtype is given)."""
    return np.asarray(s).astype(dtype or np.float32)


def _strides(x):
    return [s // x.itemsize for s in x.strides] if x.itemsize else [0] * x.ndim


def _stride_dim(x, dim):
    return _strides(x)[check_dim(dim, x.ndim)] if x.ndim else 1


def _unfold(x, dim, size, step):
    """x.unfold(dim, size, step): the windows of `size` elements `step` apart along dim,
    as a new last dim."""
    if x.ndim == 0:
        if size > 1:
            raise RuntimeError(f"maximum size for tensor at dimension 0 is 1 but size is "
                               f"{size}")
        return x.reshape(1).copy()
    d = check_dim(dim, x.ndim)
    if size > x.shape[d]:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {x.shape[d]} but "
                           f"size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    w = np.lib.stride_tricks.sliding_window_view(x, size, axis=d)
    sl = [slice(None)] * w.ndim
    sl[d] = slice(None, None, step)
    return w[tuple(sl)].copy()


def _unfold_info(a):
    x = a[0]
    return TensorInfo(x.dtype, None)


def _index_add_(x, dim, index, source, alpha=1):
    """x.index_add_(dim, index, source, alpha=1): alpha * source's slices added into x at
    index along dim (repeated indices add up)."""
    d = check_dim(dim, x.ndim)
    if index.dtype.kind not in "iu":
        raise RuntimeError("index_add_(): Expected dtype int32/int64 for index")
    idx = index.reshape(-1)
    n = x.shape[d] if x.ndim else 1
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise IndexError("index out of range in self")
    src = source if x.ndim else source.reshape(1)
    moved = np.moveaxis(x if x.ndim else x.reshape(1), d, 0)
    np.add.at(moved, idx, np.moveaxis(src, d, 0) * alpha)
    return x


reg("tensor.trace", "(Tensor self) -> Tensor", _trace, ("torch.trace", "Tensor.trace"),
    _trace_info, may_raise=True)
reg("tensor.rot90", "(Tensor self, int k=1, int[] dims=[0, 1]) -> Tensor", _rot90,
    ("torch.rot90", "Tensor.rot90"), lambda a: TensorInfo(a[0].dtype, None), may_raise=True,
    doc="x turned k times by 90 degrees in the plane of dims (a copy).")
reg("tensor.cross", "(Tensor self, Tensor other, int? dim=None) -> Tensor", _cross,
    ("torch.cross", "Tensor.cross", "torch.linalg.cross"),
    lambda a: TensorInfo(a[0].dtype if a[0].dtype == a[1].dtype else None, None),
    may_raise=True)
reg("tensor.logspace",
    f"(Scalar start, Scalar end, int steps, float base=10.0, {_KW}) -> Tensor", _logspace,
    ("torch.logspace",), lambda a: TensorInfo(a[4].const or "float32", (a[2].const,)),
    may_raise=True)
reg("tensor.scalar_tensor", f"(Scalar s, {_KW}) -> Tensor", _scalar_tensor,
    ("torch.scalar_tensor",), lambda a: TensorInfo(a[1].const or "float32", ()),
    doc="A 0-d tensor of s (float32 unless a dtype is given).")
reg("tensor.stride", "(Tensor self) -> int[]", _strides, ("Tensor.stride",), pure=True,
    doc="The step in elements between neighbours along each dim.")
reg("tensor.stride_dim", "(Tensor self, int dim) -> int", _stride_dim, ("Tensor.stride",),
    pure=True, may_raise=True, doc="The step in elements between neighbours along dim.")
reg("tensor.unfold", "(Tensor self, int dimension, int size, int step) -> Tensor", _unfold,
    ("Tensor.unfold",), _unfold_info, may_raise=True)
reg("tensor.index_add_",
    "(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
    _index_add_, ("Tensor.index_add_",), lambda a: TensorInfo(a[0].dtype, a[0].shape),
    may_raise=True)
