"""Indexing: x[...] and x[...] = v (the frontend's spec contract), select, narrow,
index_select, gather, scatter, masked_select, nonzero, take, tril/triu, one_hot.

An index expression x[a, 1:n, None, ..., mask] is described statically by a spec
string, one item per position: "i" an int (taken from `ints`), "s" + three flags
("1"/"0": start, stop, step present, each taken from `ints`), "n" None, "e"
Ellipsis, "t" a tensor (taken from `tensors`: int64 indices or a bool mask).
Items are separated by ",". Basic indexing returns a view (also for a single
element: a zero-dim view, as in torch); tensor indices give a copy.
"""

from __future__ import annotations

import numpy as np

from ember.ops.registry import ShapeMismatch, dispatch_on_true
from ember.ops.tensor_common import F, check_dim, reg
from ember.ops.tensorinfo import TensorInfo, norm_dim

# ----------------------------------------------------------------------------- x[...]


def build_index(spec, ints, tensors):
    """The numpy index tuple of a spec (see the module docstring)."""
    parts, ii, ti = [], 0, 0
    for item in spec.split(",") if spec else []:
        kind = item[0]
        if kind == "i":
            parts.append(ints[ii])
            ii += 1
        elif kind == "s":
            bounds = []
            for flag in item[1:4]:
                bounds.append(ints[ii] if flag == "1" else None)
                ii += flag == "1"
            if bounds[2] is not None and bounds[2] <= 0:
                raise ValueError("step must be greater than zero")
            parts.append(slice(*bounds))
        elif kind == "n":
            parts.append(None)
        elif kind == "e":
            parts.append(Ellipsis)
        elif kind == "t":
            t = tensors[ti]
            parts.append(t.astype(np.bool_) if t.dtype == np.uint8 else t)
            ti += 1
        else:
            raise ValueError(f"bad index spec {spec!r}")
    if not any(p is Ellipsis for p in parts):
        parts.append(Ellipsis)  # makes numpy return a zero-dim view instead of a scalar
    return tuple(parts)


def _torch_words(e: Exception) -> str:
    return str(e).replace("axis", "dimension").replace("array", "tensor")


def index(x, spec, ints, tensors):
    """x[index]: a view for ints/slices/None/..., a copy with tensor indices."""
    idx = build_index(spec, ints, tensors)
    try:
        return x[idx]
    except IndexError as e:
        raise IndexError(_torch_words(e)) from None


def index_put(x, spec, ints, tensors, value):
    """x[index] = value (value broadcast to the indexed shape and cast to x's dtype)."""
    idx = build_index(spec, ints, tensors)
    try:
        x[idx] = value
    except IndexError as e:
        raise IndexError(_torch_words(e)) from None
    except ValueError as e:
        if not x.flags.writeable:
            raise RuntimeError("unsupported operation: the tensor is a read-only view (for "
                               "example the result of expand); clone() it first") from None
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(np.shape(value))} "
                           f"cannot be broadcast to the indexing result ({_torch_words(e)})"
                           ) from None


def _slice_len(n, bounds):
    if not isinstance(n, int) or any(b is _UNKNOWN for b in bounds):
        return None
    return len(range(*slice(*bounds).indices(n)))


_UNKNOWN = object()


def index_info(args):
    """Result shape of x[spec] for ints, slices, None and ...; tensor indices: rank unknown."""
    x, spec = args[0], args[1].const
    if x.shape is None or spec is None:
        return TensorInfo(x.dtype, None)
    items = spec.split(",") if spec else []
    if any(it[0] == "t" for it in items):
        return TensorInfo(x.dtype, None)
    ints = args[2].const
    consumed = sum(1 for it in items if it[0] in "is")
    rank = len(x.shape)
    if consumed > rank:
        raise ShapeMismatch(f"too many indices for a tensor of rank {rank}")
    out, dim, ii = [], 0, 0
    for it in items:
        if it[0] == "n":
            out.append(1)
        elif it[0] == "e":
            out.extend(x.shape[dim:dim + rank - consumed])
            dim += rank - consumed
        elif it[0] == "i":
            v = ints[ii] if ints is not None else None
            ii += 1
            n = x.shape[dim]
            if isinstance(v, int) and isinstance(n, int) and not -n <= v < n:
                raise ShapeMismatch(f"index {v} is out of bounds for dimension {dim} with size "
                                    f"{n}")
            dim += 1
        else:
            bounds = []
            for flag in it[1:4]:
                if flag == "1":
                    bounds.append(ints[ii] if ints is not None else _UNKNOWN)
                    ii += 1
                else:
                    bounds.append(None)
            out.append(x.shape[dim] if it == "s000" else _slice_len(x.shape[dim], bounds))
            dim += 1
    return TensorInfo(x.dtype, tuple(out) + tuple(x.shape[dim:]))


reg("tensor.index", "(Tensor self, str spec, int[] ints, Tensor[] tensors) -> Tensor", index,
    (), index_info, may_raise=True)
reg("tensor.index_put", "(Tensor self, str spec, int[] ints, Tensor[] tensors, Tensor value)"
    " -> None", index_put, (), may_raise=True, fold=False)
reg("tensor.index_put_scalar", "(Tensor self, str spec, int[] ints, Tensor[] tensors, "
    "Scalar value) -> None", index_put, (), may_raise=True, fold=False,
    doc="x[index] = number (cast to x's dtype).")

# ----------------------------------------------------------------------------- select, narrow


def select(x, dim, i):
    """x[..., i, ...] at dim (a view without that dim)."""
    d = check_dim(dim, x.ndim)
    n = x.shape[d]
    if not -n <= i < n:
        raise IndexError(f"select(): index {i} out of range for tensor of size "
                         f"{list(x.shape)} at dimension {dim}")
    return x[(slice(None),) * d + (i, Ellipsis)]


def narrow(x, dim, start, length):
    """length elements of dim from start (a view)."""
    d = check_dim(dim, x.ndim)
    n = x.shape[d]
    if not -n <= start <= n:
        raise IndexError(f"start out of range (expected to be in range of [{-n}, {n}], but got "
                         f"{start})")
    if start < 0:
        start += n
    if length < 0 or start + length > n:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    return x[(slice(None),) * d + (slice(start, start + length),)]


def _drop_dim_info(args):
    x, d = args[0], args[1].const
    if x.shape is None or d is None:
        return TensorInfo(x.dtype, None)
    d = norm_dim(d, len(x.shape))
    return TensorInfo(x.dtype, x.shape[:d] + x.shape[d + 1:])


def _narrow_info(args):
    x, d, length = args[0], args[1].const, args[3].const
    if x.shape is None or d is None:
        return TensorInfo(x.dtype, None)
    d = norm_dim(d, len(x.shape))
    return TensorInfo(x.dtype, x.shape[:d] + (length,) + x.shape[d + 1:])


reg("tensor.select", "(Tensor self, int dim, int index) -> Tensor", select,
    ("torch.select", "Tensor.select"), _drop_dim_info, may_raise=True)
reg("tensor.narrow", "(Tensor self, int dim, int start, int length) -> Tensor", narrow,
    ("torch.narrow", "Tensor.narrow"), _narrow_info, may_raise=True)

# ----------------------------------------------------------------------------- gather, scatter


def _int_index(t, what):
    if t.dtype.kind not in "iu":
        raise RuntimeError(f"{what}(): Expected dtype int64 for index, got {t.dtype}")


def index_select(x, dim, idx):
    """The entries idx (1-D int tensor) of x along dim, as a copy."""
    _int_index(idx, "index_select")
    d = check_dim(dim, x.ndim)
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    try:
        return np.take(x, idx.reshape(-1), axis=d) if x.ndim else x.copy()
    except IndexError as e:
        raise IndexError(f"index_select(): {_torch_words(e)}") from None


def _along(x, d, idx):
    """x cut to idx's size in every dim but d (torch lets the index be smaller)."""
    if idx.ndim != x.ndim:
        raise RuntimeError(f"Index tensor must have the same number of dimensions as input "
                           f"tensor ({idx.ndim} vs {x.ndim})")
    for k in range(x.ndim):
        if k != d and idx.shape[k] > x.shape[k]:
            raise RuntimeError(f"Size does not match at dimension {k} expected index "
                               f"{list(idx.shape)} to be smaller than self {list(x.shape)} "
                               f"apart from dimension {d}")
    return tuple(slice(None) if k == d else slice(0, idx.shape[k]) for k in range(x.ndim))


def _zero_dim_as_1d(fn):
    """fn for operands of which some are 0-dim and none has more than 1 dim: torch takes a
    0-dim tensor as 1-D with one element here; the result has `shape_of`'s operand shape."""
    def kernel(x, dim, idx, *rest, shape_of=0):
        ops_ = (x, idx) + rest
        if any(isinstance(t, np.ndarray) and t.ndim == 0 for t in ops_) and \
                all(not isinstance(t, np.ndarray) or t.ndim <= 1 for t in ops_):
            check_dim(dim, 1)
            lifted = [t.reshape(1) if isinstance(t, np.ndarray) and t.ndim == 0 else t
                      for t in ops_]
            return np.asarray(fn(lifted[0], 0, lifted[1], *lifted[2:])).reshape(
                ops_[shape_of].shape)
        return fn(x, dim, idx, *rest)
    kernel.__doc__ = fn.__doc__
    return kernel


def gather(x, dim, idx):
    """out[i][j] = x[idx[i][j]][j] for dim 0 (and likewise for other dims)."""
    if x.ndim == 0 or idx.ndim == 0:
        return _zero_dim_as_1d(gather)(x, dim, idx, shape_of=1)
    _int_index(idx, "gather")
    d = check_dim(dim, x.ndim)
    cut = _along(x, d, idx)
    try:
        return np.take_along_axis(x[cut], idx, axis=d)
    except IndexError as e:
        raise RuntimeError(f"gather(): {_torch_words(e)}") from None


def scatter(x, dim, idx, src, inplace=False):
    """A copy of x (or x itself) with x[idx[i][j]][j] = src[i][j] for dim 0."""
    if (x.ndim == 0 or idx.ndim == 0) and not inplace:
        return _zero_dim_as_1d(scatter)(x, dim, idx, src)
    _int_index(idx, "scatter")
    d = check_dim(dim, x.ndim)
    out = x if inplace else x.copy()
    cut = _along(out, d, idx)
    if isinstance(src, np.ndarray):
        src = src[tuple(slice(0, s) for s in idx.shape)]
    try:
        np.put_along_axis(out[cut], idx, src, axis=d)
    except IndexError as e:
        raise RuntimeError(f"scatter(): {_torch_words(e)}") from None
    return out


def scatter_add(x, dim, idx, src, inplace=False):
    """A copy of x (or x itself) with src[i][j] added at x[idx[i][j]][j] for dim 0
    (repeated indices add up)."""
    if (x.ndim == 0 or idx.ndim == 0) and not inplace:
        return _zero_dim_as_1d(scatter_add)(x, dim, idx, src)
    _int_index(idx, "scatter_add")
    d = check_dim(dim, x.ndim)
    out = x if inplace else x.copy()
    cut = _along(out, d, idx)
    if src.dtype != x.dtype:
        raise RuntimeError(f"scatter_add(): Expected self.dtype to be equal to src.dtype "
                           f"({x.dtype} vs {src.dtype})")
    if src.ndim != idx.ndim or any(i > s for i, s in zip(idx.shape, src.shape)):
        raise RuntimeError(f"Expected index {list(idx.shape)} to be smaller than src "
                           f"{list(src.shape)} in every dimension")
    if idx.size and (idx.min() < 0 or idx.max() >= out.shape[d]):
        raise RuntimeError(f"scatter_add(): index out of bounds for dimension {d} with size "
                           f"{out.shape[d]}")
    grids = list(np.indices(idx.shape, sparse=True)) if idx.ndim else []
    if grids:
        grids[d] = idx
    np.add.at(out[cut] if idx.ndim else out, tuple(grids),
              src[tuple(slice(0, n) for n in idx.shape)])
    return out


def _index_select_info(args):
    x, d, i = args[0], args[1].const, args[2]
    if x.shape is None or d is None or i.shape is None or not x.shape:
        return TensorInfo(x.dtype, None)
    d = norm_dim(d, len(x.shape))
    n = i.shape[0] if i.shape else 1
    return TensorInfo(x.dtype, x.shape[:d] + (n,) + x.shape[d + 1:])


reg("tensor.index_select", "(Tensor self, int dim, Tensor index) -> Tensor", index_select,
    ("torch.index_select", "Tensor.index_select"), _index_select_info, may_raise=True)
reg("tensor.gather", "(Tensor self, int dim, Tensor index) -> Tensor", gather,
    ("torch.gather", "Tensor.gather"), lambda a: TensorInfo(a[0].dtype, a[2].shape),
    may_raise=True)
for _kind, _sfx in (("Tensor src", ""), ("Scalar value", "_value")):
    reg(f"tensor.scatter{_sfx}", f"(Tensor self, int dim, Tensor index, {_kind}) -> Tensor",
        scatter, ("torch.scatter", "Tensor.scatter"), lambda a: TensorInfo(a[0].dtype,
                                                                           a[0].shape),
        may_raise=True)
    reg(f"tensor.scatter{_sfx}_", f"(Tensor self, int dim, Tensor index, {_kind}) -> Tensor",
        lambda x, d, i, s: scatter(x, d, i, s, True), ("Tensor.scatter_",),
        lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True,
        doc="In-place scatter: writes into self and returns it.")

reg("tensor.scatter_add", "(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
    scatter_add, ("torch.scatter_add", "Tensor.scatter_add"),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True)
reg("tensor.scatter_add_", "(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
    lambda x, d, i, s: scatter_add(x, d, i, s, True), ("Tensor.scatter_add_",),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True,
    doc="In-place scatter_add: adds into self and returns it.")

# ----------------------------------------------------------------------------- masks, triangles


def masked_select(x, mask):
    """The elements of x where mask (broadcast) is true, as a 1-D tensor."""
    if mask.dtype != np.bool_:
        raise RuntimeError(f"masked_select: expected BoolTensor for mask, got {mask.dtype}")
    try:
        xb, mb = np.broadcast_arrays(x, mask)
    except ValueError:
        raise RuntimeError(f"masked_select: mask of shape {list(mask.shape)} does not "
                           f"broadcast with a tensor of shape {list(x.shape)}") from None
    return xb[mb]


def _one_hot(idx, num_classes):
    """int64 one-hot vectors of idx along a new last dim."""
    if idx.dtype.kind not in "iu":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    n = int(idx.max()) + 1 if num_classes == -1 and idx.size else num_classes
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise RuntimeError("Class values must be smaller than num_classes and non-negative.")
    out = np.zeros(idx.shape + (max(n, 0),), np.int64)
    np.put_along_axis(out, idx[..., None].astype(np.int64), 1, axis=-1)
    return out


def _take(x, idx):
    """x flattened, at the indices idx (result has idx's shape)."""
    _int_index(idx, "take")
    try:
        return np.asarray(np.take(x.reshape(-1), idx))
    except IndexError as e:
        raise IndexError(f"take(): {_torch_words(e)}") from None


reg("tensor.masked_select", "(Tensor self, Tensor mask) -> Tensor", masked_select,
    ("torch.masked_select", "Tensor.masked_select"),
    lambda a: TensorInfo(a[0].dtype, (None,)), may_raise=True)
reg("tensor.nonzero", "(Tensor self, *, bool as_tuple=False) -> Tensor",
    lambda x, as_tuple=False: np.argwhere(x).astype(np.int64, copy=False),
    ("torch.nonzero", "Tensor.nonzero", "torch.argwhere"),
    lambda a: TensorInfo("int64", None if a[0].shape is None else (None, len(a[0].shape))),
    doc="The indices of nonzero elements, one row per element (shape [n, ndim]).")


def _nonzero_tuple(x, as_tuple=True):
    """The indices of the nonzero elements, one int64 tensor per dim (a 0-dim x counts as
    1-D, as torch does)."""
    return [i.astype(np.int64, copy=False) for i in np.nonzero(np.atleast_1d(x))]


reg("tensor.nonzero_tuple", "(Tensor self, *, bool as_tuple=True) -> Tensor[]", _nonzero_tuple,
    (), doc="nonzero(as_tuple=True): the indices, one tensor per dim.")
dispatch_on_true("tensor.nonzero", "as_tuple", "tensor.nonzero_tuple")
reg("tensor.where_condition", "(Tensor condition) -> Tensor[]", _nonzero_tuple,
    ("torch.where",), doc="torch.where(condition): nonzero(condition, as_tuple=True).")
reg("tensor.take", "(Tensor self, Tensor index) -> Tensor", _take, ("torch.take", "Tensor.take"),
    lambda a: TensorInfo(a[0].dtype, a[1].shape), may_raise=True)
def _tri(fn, name):
    def kernel(x, k):
        if x.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        return fn(x, k)
    return kernel


for _n, _fn in (("tril", np.tril), ("triu", np.triu)):
    reg(f"tensor.{_n}", "(Tensor self, int diagonal=0) -> Tensor",
        _tri(_fn, _n), (f"torch.{_n}", f"Tensor.{_n}"),
        lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True,
        doc=f"The {'lower' if _n == 'tril' else 'upper'} triangle of the last two dims.")
def _diag(x, k):
    """torch.diag: the k-th diagonal of a matrix, or the matrix with a vector on it."""
    if x.ndim == 1:
        return np.diag(x, k)
    if x.ndim == 2:
        return np.diag(x, k).copy()
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {x.ndim}D")


reg("tensor.diag", "(Tensor self, int diagonal=0) -> Tensor", _diag,
    ("torch.diag", "Tensor.diag"), lambda a: TensorInfo(a[0].dtype, None), may_raise=True,
    doc="The diagonal of a matrix, or a square matrix with a vector on its diagonal.")
reg("tensor.one_hot", "(Tensor self, int num_classes=-1) -> Tensor", _one_hot,
    (f"{F}.one_hot",), lambda a: TensorInfo("int64", None if a[0].shape is None else
                                            a[0].shape + (a[1].const if isinstance(
                                                a[1].const, int) and a[1].const >= 0
                                                else None,)),
    may_raise=True)



