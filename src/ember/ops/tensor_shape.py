"""Shape, view, indexing, creation and conversion operators on tensors."""

from __future__ import annotations

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import reg, same_as_first
from ember.ops.tensorinfo import TensorInfo, fmt, norm_dim, numel

# ----------------------------------------------------------------------------- views


def _view(x, shape):
    return np.reshape(x, tuple(shape))


def _view_info(args):
    x, shape = args[0], args[1].const
    if shape is None:
        return TensorInfo(x.dtype, None)
    shape = list(shape)
    n = numel(x.shape)
    if shape.count(-1) > 1:
        raise ShapeMismatch("only one dimension can be -1 in a view/reshape")
    if -1 in shape:
        known = numel(tuple(d for d in shape if d != -1))
        if n is not None and known:
            if n % known:
                raise ShapeMismatch(f"cannot view a tensor of {n} elements as {shape}")
            shape[shape.index(-1)] = n // known
        else:
            shape[shape.index(-1)] = None
    elif n is not None and numel(tuple(shape)) != n:
        raise ShapeMismatch(f"cannot view a tensor of shape {fmt(x.shape)} ({n} elements) as "
                            f"{shape}")
    return TensorInfo(x.dtype, tuple(shape))


def _permute(x, dims):
    return np.transpose(x, tuple(dims))


def _permute_info(args):
    x, dims = args[0], args[1].const
    if x.shape is None or dims is None:
        return TensorInfo(x.dtype, None)
    if sorted(d % len(x.shape) for d in dims) != list(range(len(x.shape))):
        raise ShapeMismatch(f"permute dims {dims} do not match a tensor of rank {len(x.shape)}")
    return TensorInfo(x.dtype, tuple(x.shape[d] for d in dims))


def _transpose(x, a, b):
    return np.swapaxes(x, a, b)


def _transpose_info(args):
    x, a, b = args[0], args[1].const, args[2].const
    if x.shape is None or a is None or b is None:
        return TensorInfo(x.dtype, None)
    a, b = norm_dim(a, len(x.shape)), norm_dim(b, len(x.shape))
    s = list(x.shape)
    s[a], s[b] = s[b], s[a]
    return TensorInfo(x.dtype, tuple(s))


def _t(x):
    return x.T if x.ndim == 2 else x


def _flatten(x, start, end):
    nd = x.ndim
    if nd == 0:
        return x.reshape(1)
    start, end = start % nd, end % nd
    shape = x.shape[:start] + (-1,) + x.shape[end + 1:]
    return x.reshape(shape)


def _flatten_info(args):
    x, s, e = args[0], args[1].const, args[2].const
    if x.shape is None or s is None or e is None:
        return TensorInfo(x.dtype, None)
    nd = len(x.shape)
    if nd == 0:
        return TensorInfo(x.dtype, (1,))
    s, e = norm_dim(s, nd), norm_dim(e, nd)
    return TensorInfo(x.dtype, x.shape[:s] + (numel(x.shape[s:e + 1]),) + x.shape[e + 1:])


def _unsqueeze(x, dim):
    return np.expand_dims(x, dim if dim >= 0 else dim + x.ndim + 1)


def _unsqueeze_info(args):
    x, d = args[0], args[1].const
    if x.shape is None or d is None:
        return TensorInfo(x.dtype, None)
    d = d if d >= 0 else d + len(x.shape) + 1
    return TensorInfo(x.dtype, x.shape[:d] + (1,) + x.shape[d:])


def _squeeze(x, dim):
    if dim is None:
        return np.squeeze(x)
    return np.squeeze(x, axis=dim) if x.shape[dim] == 1 else x


def _expand(x, sizes):
    sizes = list(sizes)
    lead = len(sizes) - x.ndim
    shape = [x.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes)]
    return np.broadcast_to(x, shape)


reg("tensor.view", "(Tensor self, int[] size) -> Tensor", _view,
    ("Tensor.view", "Tensor.reshape", "torch.reshape"), shape=_view_info)
reg("tensor.permute", "(Tensor self, int[] dims) -> Tensor", _permute,
    ("Tensor.permute", "torch.permute"), shape=_permute_info)
reg("tensor.transpose", "(Tensor self, int dim0, int dim1) -> Tensor", _transpose,
    ("Tensor.transpose", "torch.transpose"), shape=_transpose_info)
reg("tensor.t", "(Tensor self) -> Tensor", _t, ("Tensor.t", "torch.t", "Tensor.T"),
    shape=lambda a: TensorInfo(a[0].dtype, None if a[0].shape is None else
                               tuple(reversed(a[0].shape))))
reg("tensor.flatten", "(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor", _flatten,
    ("torch.flatten", "Tensor.flatten"), shape=_flatten_info)
reg("tensor.unsqueeze", "(Tensor self, int dim) -> Tensor", _unsqueeze,
    ("torch.unsqueeze", "Tensor.unsqueeze"), shape=_unsqueeze_info)
reg("tensor.squeeze", "(Tensor self, int? dim=None) -> Tensor", _squeeze,
    ("torch.squeeze", "Tensor.squeeze"))
reg("tensor.expand", "(Tensor self, int[] size) -> Tensor", _expand, ("Tensor.expand",))
reg("tensor.expand_as", "(Tensor self, Tensor other) -> Tensor",
    lambda x, o: np.broadcast_to(x, o.shape), ("Tensor.expand_as",),
    shape=lambda a: TensorInfo(a[0].dtype, a[1].shape))
reg("tensor.contiguous", "(Tensor self) -> Tensor", np.ascontiguousarray,
    ("Tensor.contiguous", "Tensor.clone", "torch.clone", "Tensor.detach"), shape=same_as_first)
reg("tensor.repeat", "(Tensor self, int[] repeats) -> Tensor",
    lambda x, r: np.tile(x, tuple(r)), ("Tensor.repeat",))

# ----------------------------------------------------------------------------- joining and splitting


def _cat_info(args):
    ts, dim = args[0], args[1].const
    return TensorInfo(None, None)


reg("tensor.cat", "(Tensor[] tensors, int dim=0) -> Tensor",
    lambda ts, d: np.concatenate(ts, axis=d), ("torch.cat", "torch.concat"))
reg("tensor.stack", "(Tensor[] tensors, int dim=0) -> Tensor",
    lambda ts, d: np.stack(ts, axis=d), ("torch.stack",))


def _chunk(x, chunks, dim):
    size = -(-x.shape[dim] // chunks)
    return [np.take(x, range(i, min(i + size, x.shape[dim])), axis=dim)
            for i in range(0, x.shape[dim], size)]


def _split(x, size, dim):
    return [np.take(x, range(i, min(i + size, x.shape[dim])), axis=dim)
            for i in range(0, x.shape[dim], size)]


def _split_sizes(x, sizes, dim):
    if sum(sizes) != x.shape[dim]:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to "
                           f"{x.shape[dim]} (input tensor's size at dimension {dim}), "
                           f"but got split_sizes={list(sizes)}")
    return np.split(x, np.cumsum(sizes)[:-1], axis=dim)


reg("tensor.chunk", "(Tensor self, int chunks, int dim=0) -> Tensor[]", _chunk,
    ("torch.chunk", "Tensor.chunk"))
reg("tensor.split", "(Tensor self, int split_size, int dim=0) -> Tensor[]", _split,
    ("torch.split", "Tensor.split"))
reg("tensor.split_sizes", "(Tensor self, int[] split_size, int dim=0) -> Tensor[]",
    _split_sizes, ("torch.split", "Tensor.split"))
reg("tensor.narrow", "(Tensor self, int dim, int start, int length) -> Tensor",
    lambda x, d, s, n: np.take(x, range(s, s + n), axis=d), ("torch.narrow", "Tensor.narrow"))
reg("tensor.select", "(Tensor self, int dim, int index) -> Tensor",
    lambda x, d, i: np.take(x, i, axis=d), ("torch.select", "Tensor.select"))

# ----------------------------------------------------------------------------- sizes and values


def _size_dim(x, dim):
    return x.shape[dim]


def _item(x):
    if x.size != 1:
        raise RuntimeError(f"a Tensor with {x.size} elements cannot be converted to Scalar")
    v = x.reshape(()).item()
    return v


reg("tensor.size", "(Tensor self) -> int[]", lambda x: list(x.shape),
    ("Tensor.size", "Tensor.shape"), pure=True)
reg("tensor.size_dim", "(Tensor self, int dim) -> int", _size_dim, ("Tensor.size",),
    may_raise=True)
reg("tensor.dim", "(Tensor self) -> int", lambda x: x.ndim, ("Tensor.dim", "Tensor.ndim",
                                                            "Tensor.ndimension"))
reg("tensor.numel", "(Tensor self) -> int", lambda x: int(x.size), ("Tensor.numel",
                                                                    "torch.numel"))
reg("tensor.len", "(Tensor self) -> int", lambda x: len(x), ("builtins.len",), may_raise=True)
reg("tensor.item_float", "(Tensor self) -> float", lambda x: float(_item(x)),
    ("Tensor.item",), may_raise=True)
reg("tensor.item_int", "(Tensor self) -> int", lambda x: int(_item(x)), (), may_raise=True)
reg("tensor.float_value", "(Tensor self) -> float", lambda x: float(_item(x)),
    ("Tensor.__float__",), may_raise=True)
reg("tensor.int_value", "(Tensor self) -> int", lambda x: int(_item(x)),
    ("Tensor.__int__",), may_raise=True)
reg("tensor.bool_value", "(Tensor self) -> bool", lambda x: bool(_item(x)),
    ("Tensor.__bool__",), may_raise=True)
reg("tensor.tolist_float", "(Tensor self) -> float[]", lambda x: x.astype(float).tolist(),
    ("Tensor.tolist",))
reg("tensor.dtype", "(Tensor self) -> ScalarType", lambda x: x.dtype.name, ("Tensor.dtype",))

# ----------------------------------------------------------------------------- conversions


def _to(x, dtype):
    return x.astype(dtype, copy=False)


for _n, _dt in [("float", "float32"), ("double", "float64"), ("half", "float16"),
                ("int", "int32"), ("long", "int64"), ("bool", "bool"), ("byte", "uint8")]:
    reg(f"tensor.to_{_n}", "(Tensor self) -> Tensor",
        (lambda dt: lambda x: x.astype(dt, copy=False))(_dt), (f"Tensor.{_n}",),
        shape=(lambda dt: lambda a: TensorInfo(dt, a[0].shape))(_dt))
reg("tensor.to", "(Tensor self, ScalarType dtype) -> Tensor", _to, ("Tensor.to", "Tensor.type"),
    shape=lambda a: TensorInfo(a[1].const, a[0].shape))
reg("tensor.type_as", "(Tensor self, Tensor other) -> Tensor",
    lambda x, o: x.astype(o.dtype, copy=False), ("Tensor.type_as",),
    shape=lambda a: TensorInfo(a[1].dtype, a[0].shape))

# ----------------------------------------------------------------------------- creation


def _dt(dtype):
    return dtype or "float32"


def _create_info(args):
    size = args[0].const
    dtype = args[-1].const if args[-1].kind in ("dtype", "str") else None
    return TensorInfo(dtype or "float32", tuple(size) if size is not None else None)


reg("tensor.zeros", "(int[] size, ScalarType? dtype=None) -> Tensor",
    lambda s, d: np.zeros(tuple(s), dtype=_dt(d)), ("torch.zeros",), shape=_create_info)
reg("tensor.ones", "(int[] size, ScalarType? dtype=None) -> Tensor",
    lambda s, d: np.ones(tuple(s), dtype=_dt(d)), ("torch.ones",), shape=_create_info)
reg("tensor.full", "(int[] size, float fill_value, ScalarType? dtype=None) -> Tensor",
    lambda s, v, d: np.full(tuple(s), v, dtype=_dt(d)), ("torch.full",), shape=_create_info)
reg("tensor.eye", "(int n, ScalarType? dtype=None) -> Tensor",
    lambda n, d: np.eye(n, dtype=_dt(d)), ("torch.eye",))
for _n, _fill in [("zeros_like", 0), ("ones_like", 1)]:
    reg(f"tensor.{_n}", "(Tensor self, ScalarType? dtype=None) -> Tensor",
        (lambda f: lambda x, d: np.full(x.shape, f, dtype=d or x.dtype))(_fill),
        (f"torch.{_n}",), shape=lambda a: TensorInfo(a[1].const or a[0].dtype, a[0].shape))
reg("tensor.full_like", "(Tensor self, float fill_value, ScalarType? dtype=None) -> Tensor",
    lambda x, v, d: np.full(x.shape, v, dtype=d or x.dtype), ("torch.full_like",),
    shape=lambda a: TensorInfo(a[2].const or a[0].dtype, a[0].shape))


def _arange(start, end, step, dtype):
    if end is None:
        start, end = 0, start
    out = np.arange(start, end, step)
    if dtype is not None:
        return out.astype(dtype)
    all_int = all(isinstance(v, int) for v in (start, end, step))
    return out.astype(np.int64 if all_int else np.float32)


reg("tensor.arange", "(Scalar start, Scalar? end=None, Scalar step=1, ScalarType? dtype=None)"
    " -> Tensor", _arange, ("torch.arange",))
reg("tensor.linspace", "(float start, float end, int steps, ScalarType? dtype=None) -> Tensor",
    lambda a, b, n, d: np.linspace(a, b, n, dtype=_dt(d)), ("torch.linspace",))


def _from_float_list(data, dtype):
    return np.asarray(data, dtype=dtype or np.float32)


def _from_int_list(data, dtype):
    return np.asarray(data, dtype=dtype or np.int64)


reg("tensor.from_floats", "(float[] data, ScalarType? dtype=None) -> Tensor", _from_float_list,
    ("torch.tensor",), fold=False)
reg("tensor.from_ints", "(int[] data, ScalarType? dtype=None) -> Tensor", _from_int_list,
    ("torch.tensor",), fold=False)
reg("tensor.from_nested_floats", "(float[][] data, ScalarType? dtype=None) -> Tensor",
    _from_float_list, ("torch.tensor",), fold=False)
reg("tensor.from_float", "(float data, ScalarType? dtype=None) -> Tensor", _from_float_list,
    ("torch.tensor",), fold=False)
reg("tensor.from_int", "(int data, ScalarType? dtype=None) -> Tensor", _from_int_list,
    ("torch.tensor",), fold=False)

# ----------------------------------------------------------------------------- indexing
# An index expression x[a, 1:n, None, ..., mask] is described statically by a spec string,
# one item per position: "i" an int (taken from ints), "s" + three flags ("1"/"0": start,
# stop, step present, each taken from ints), "n" None, "e" Ellipsis, "t" a tensor (from
# tensors). Items are separated by ",".


def build_index(spec, ints, tensors):
    parts, ii, ti = [], 0, 0
    for item in spec.split(",") if spec else []:
        kind = item[0]
        if kind == "i":
            parts.append(ints[ii])
            ii += 1
        elif kind == "s":
            bounds = []
            for flag in item[1:4]:
                if flag == "1":
                    bounds.append(ints[ii])
                    ii += 1
                else:
                    bounds.append(None)
            parts.append(slice(*bounds))
        elif kind == "n":
            parts.append(None)
        elif kind == "e":
            parts.append(Ellipsis)
        elif kind == "t":
            parts.append(tensors[ti])
            ti += 1
        else:
            raise ValueError(f"bad index spec {spec!r}")
    return tuple(parts)


def _index(x, spec, ints, tensors):
    return x[build_index(spec, ints, tensors)]


def _index_put(x, spec, ints, tensors, value):
    x[build_index(spec, ints, tensors)] = value


def index_info(args):
    x, spec = args[0], args[1].const
    if x.shape is None or spec is None or "t" in spec or "e" in spec:
        return TensorInfo(x.dtype, None)
    out, dim = [], 0
    for item in spec.split(",") if spec else []:
        if item[0] == "n":
            out.append(1)
            continue
        if dim >= len(x.shape):
            raise ShapeMismatch(f"too many indices for a tensor of rank {len(x.shape)}")
        if item[0] == "s":
            out.append(x.shape[dim] if item == "s000" else None)
        dim += 1
    return TensorInfo(x.dtype, tuple(out) + tuple(x.shape[dim:]))


reg("tensor.index", "(Tensor self, str spec, int[] ints, Tensor[] tensors) -> Tensor", _index,
    (), shape=index_info, may_raise=True)
reg("tensor.index_put", "(Tensor self, str spec, int[] ints, Tensor[] tensors, Tensor value)"
    " -> None", _index_put, (), pure=False, may_raise=True, fold=False)
reg("tensor.index_put_scalar", "(Tensor self, str spec, int[] ints, Tensor[] tensors, "
    "float value) -> None", _index_put, (), pure=False, may_raise=True, fold=False)
