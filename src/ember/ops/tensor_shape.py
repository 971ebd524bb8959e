"""Shape and view operators: view/reshape, permute, transpose, flatten, (un)squeeze,
expand, repeat, flip, roll.

Views share memory with their input as in torch (numpy views), so an in-place
op on a view is seen through the base. Errors are torch's: a bad reshape is a
RuntimeError naming the shape and the element count, a dim out of range an
IndexError.
"""

from __future__ import annotations

import math

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import (
    arr,
    check_dim,
    check_dims,
    reg,
    reg_tuple_fallback,
    same_as_first,
)
from ember.ops.tensorinfo import TensorInfo, fmt, norm_dim, numel, same_dim

# ----------------------------------------------------------------------------- view, reshape


def infer_size(shape, n: int) -> tuple:
    """shape with its -1 resolved for n elements; RuntimeError if it cannot hold n."""
    shape = tuple(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if any(d < -1 for d in shape):
        raise RuntimeError(f"invalid shape dimension {min(shape)}")
    known = 1
    for d in shape:
        if d != -1:
            known *= d
    if -1 in shape:
        if known == 0 or n % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {n}")
        shape = tuple(n // known if d == -1 else d for d in shape)
    elif known != n:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {n}")
    return shape


def view(x, shape):
    """x with a new shape (one dim may be -1), sharing memory when possible."""
    return x.reshape(infer_size(shape, x.size))


def _view_info(args):
    x, shape = args[0], args[1].const
    if shape is None:
        return TensorInfo(x.dtype, None)
    return TensorInfo(x.dtype, view_shape(x.shape, list(shape)))


def view_shape(in_shape, shape):
    """The static result shape of viewing in_shape as shape (ShapeMismatch if impossible)."""
    n = numel(in_shape)
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
        raise ShapeMismatch(f"cannot view a tensor of shape {fmt(in_shape)} ({n} elements) "
                            f"as {shape}")
    return tuple(shape)


reg("tensor.view", "(Tensor self, int[] size) -> Tensor", view,
    ("Tensor.view", "Tensor.reshape", "torch.reshape"), _view_info, may_raise=True)
reg("tensor.view_as", "(Tensor self, Tensor other) -> Tensor", lambda x, o: view(x, o.shape),
    ("Tensor.view_as", "Tensor.reshape_as"), lambda a: TensorInfo(a[0].dtype, a[1].shape),
    may_raise=True, doc="x viewed with other's shape.")

# ----------------------------------------------------------------------------- dims


def permute(x, dims):
    """Dims reordered: result dim i is input dim dims[i]."""
    if len(dims) != x.ndim:
        raise RuntimeError(f"permute: the number of dims ({len(dims)}) does not match the "
                           f"tensor's number of dimensions ({x.ndim})")
    return np.transpose(x, check_dims(dims, x.ndim))


def _permute_info(args):
    x, dims = args[0], args[1].const
    if x.shape is None or dims is None:
        return TensorInfo(x.dtype, None)
    r = len(x.shape)
    if len(dims) != r or sorted(norm_dim(d, r) for d in dims) != list(range(r)):
        raise ShapeMismatch(f"permute dims {list(dims)} do not match a tensor of rank {r}")
    return TensorInfo(x.dtype, tuple(x.shape[norm_dim(d, r)] for d in dims))


def transpose(x, a, b):
    """Dims a and b swapped (a view)."""
    if x.ndim == 0:
        check_dim(a, 0), check_dim(b, 0)
        return x
    return np.swapaxes(x, check_dim(a, x.ndim), check_dim(b, x.ndim))


def _transpose_info(args):
    x, a, b = args[0], args[1].const, args[2].const
    if x.shape is None or a is None or b is None:
        return TensorInfo(x.dtype, None)
    if not x.shape:
        return TensorInfo(x.dtype, ())
    a, b = norm_dim(a, len(x.shape)), norm_dim(b, len(x.shape))
    s = list(x.shape)
    s[a], s[b] = s[b], s[a]
    return TensorInfo(x.dtype, tuple(s))


def _t(x):
    """The transpose of a matrix (vectors and scalars unchanged)."""
    if x.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {x.ndim}D")
    return x.T


def _t_info(args):
    x = args[0]
    if x.shape is not None and len(x.shape) > 2:
        raise ShapeMismatch(f"t() expects a tensor with <= 2 dimensions, got rank "
                            f"{len(x.shape)}")
    return _reversed_info(args)


def _reversed_info(args):
    x = args[0]
    return TensorInfo(x.dtype, None if x.shape is None else tuple(reversed(x.shape)))


def _mt(x):
    if x.ndim < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {x.ndim}-D tensor.")
    return np.swapaxes(x, -1, -2)


def _movedim(x, src, dst):
    """Dim src moved to position dst."""
    return np.moveaxis(x, check_dim(src, x.ndim), check_dim(dst, x.ndim))


reg("tensor.permute", "(Tensor self, int[] dims) -> Tensor", permute,
    ("Tensor.permute", "torch.permute"), _permute_info, may_raise=True)
reg("tensor.transpose", "(Tensor self, int dim0, int dim1) -> Tensor", transpose,
    ("Tensor.transpose", "torch.transpose", "Tensor.swapaxes", "torch.swapaxes",
     "Tensor.swapdims", "torch.swapdims"), _transpose_info, may_raise=True)
reg("tensor.t", "(Tensor self) -> Tensor", _t, ("Tensor.t", "torch.t"), _t_info,
    may_raise=True)
reg("tensor.T", "(Tensor self) -> Tensor", lambda x: x.T, ("Tensor.T",), _reversed_info,
    doc="All dims reversed (x.T).")
def _mt_info(args):
    x = args[0]
    if x.shape is not None and len(x.shape) < 2:
        raise ShapeMismatch(f"x.mT needs a matrix or a batch of matrices, got rank "
                            f"{len(x.shape)}")
    shape = None if x.shape is None else x.shape[:-2] + (x.shape[-1], x.shape[-2])
    return TensorInfo(x.dtype, shape)


reg("tensor.mT", "(Tensor self) -> Tensor", _mt, ("Tensor.mT",), _mt_info, may_raise=True,
    doc="The last two dims swapped (x.mT).")
def _movedim_info(args):
    x, s, d = args[0], args[1].const, args[2].const
    if x.shape is None or s is None or d is None:
        return TensorInfo(x.dtype, None)
    rest = list(x.shape)
    size = rest.pop(norm_dim(s, len(x.shape)))
    rest.insert(norm_dim(d, len(x.shape)), size)
    return TensorInfo(x.dtype, tuple(rest))


reg("tensor.movedim", "(Tensor self, int source, int destination) -> Tensor", _movedim,
    ("torch.movedim", "Tensor.movedim", "torch.moveaxis", "Tensor.moveaxis"), _movedim_info,
    may_raise=True)


# ----------------------------------------------------------------------------- flatten, squeeze


def flatten(x, start, end):
    """Dims start..end merged into one."""
    if x.ndim == 0:
        return x.reshape(1)
    s, e = check_dim(start, x.ndim), check_dim(end, x.ndim)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    return x.reshape(x.shape[:s] + (math.prod(x.shape[s:e + 1]),) + x.shape[e + 1:])


def _flatten_info(args):
    x, s, e = args[0], args[1].const, args[2].const
    if x.shape is None or s is None or e is None:
        return TensorInfo(x.dtype, None)
    nd = len(x.shape)
    if nd == 0:
        return TensorInfo(x.dtype, (1,))
    s, e = norm_dim(s, nd), norm_dim(e, nd)
    if s > e:
        raise ShapeMismatch("flatten(): start_dim cannot come after end_dim")
    return TensorInfo(x.dtype, x.shape[:s] + (numel(x.shape[s:e + 1]),) + x.shape[e + 1:])


def unflatten(x, dim, sizes):
    """Dim split into sizes (one may be -1)."""
    d = check_dim(dim, x.ndim)
    sizes = infer_size(sizes, x.shape[d])
    return x.reshape(x.shape[:d] + sizes + x.shape[d + 1:])


def _unflatten_info(args):
    x, d, sizes = args[0], args[1].const, args[2].const
    if x.shape is None or d is None or sizes is None:
        return TensorInfo(x.dtype, None)
    d = norm_dim(d, len(x.shape))
    part = view_shape((x.shape[d],), list(sizes))
    return TensorInfo(x.dtype, x.shape[:d] + part + x.shape[d + 1:])


def unsqueeze(x, dim):
    """A size-1 dim inserted at dim (-1 appends)."""
    return np.expand_dims(x, check_dim(dim, x.ndim + 1))


def _unsqueeze_info(args):
    x, d = args[0], args[1].const
    if x.shape is None or d is None:
        return TensorInfo(x.dtype, None)
    d = norm_dim(d, len(x.shape) + 1)
    return TensorInfo(x.dtype, x.shape[:d] + (1,) + x.shape[d:])


def squeeze(x, dim):
    """Size-1 dims removed: all of them, or only dim (an int or a list) if it has size 1."""
    if dim is None:
        return np.squeeze(x)
    dims = [dim] if isinstance(dim, int) else dim
    if x.ndim == 0:
        for d in dims:
            check_dim(d, 0)
        return x
    axes = tuple(d for d in check_dims(dims, x.ndim) if x.shape[d] == 1)
    return np.squeeze(x, axis=axes) if axes else x


def _squeeze_info(args):
    x, d = args[0], args[1].const
    if x.shape is None:
        return TensorInfo(x.dtype, None)
    if args[1].kind == "none":
        if any(not isinstance(s, int) for s in x.shape):
            return TensorInfo(x.dtype, None)
        return TensorInfo(x.dtype, tuple(s for s in x.shape if s != 1))
    if d is None:
        return TensorInfo(x.dtype, None)
    if not x.shape:
        return TensorInfo(x.dtype, ())
    dims = {norm_dim(v, len(x.shape)) for v in ([d] if isinstance(d, int) else d)}
    out = []
    for i, s in enumerate(x.shape):
        if i in dims and s == 1:
            continue
        if i in dims and not isinstance(s, int):
            return TensorInfo(x.dtype, None)
        out.append(s)
    return TensorInfo(x.dtype, tuple(out))


reg("tensor.flatten", "(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor", flatten,
    ("torch.flatten", "Tensor.flatten"), _flatten_info, may_raise=True)
reg("tensor.unflatten", "(Tensor self, int dim, Any sizes) -> Tensor", unflatten,
    ("torch.unflatten", "Tensor.unflatten"), _unflatten_info, may_raise=True)
reg("tensor.unsqueeze", "(Tensor self, int dim) -> Tensor", unsqueeze,
    ("torch.unsqueeze", "Tensor.unsqueeze"), _unsqueeze_info, may_raise=True)
reg("tensor.squeeze", "(Tensor self, int? dim=None) -> Tensor", squeeze,
    ("torch.squeeze", "Tensor.squeeze"), _squeeze_info, may_raise=True)
reg("tensor.squeeze_dims", "(Tensor self, Any dim) -> Tensor", squeeze,
    ("torch.squeeze", "Tensor.squeeze"), _squeeze_info, may_raise=True)

# ----------------------------------------------------------------------------- expand, repeat


def expand_shape(shape, sizes):
    """The shape of x.expand(*sizes): -1 keeps a dim; size-1 dims may grow."""
    sizes = list(sizes)
    lead = len(sizes) - len(shape)
    if lead < 0:
        raise RuntimeError(f"expand: the number of sizes provided ({len(sizes)}) must be "
                           f"greater or equal to the number of dimensions in the tensor "
                           f"({len(shape)})")
    out = []
    for i, s in enumerate(sizes):
        if i < lead:
            if s == -1:
                raise RuntimeError(f"expand: -1 is not allowed in a leading, non-existing "
                                   f"dimension {i}")
            out.append(s)
            continue
        have = shape[i - lead]
        if s == -1:
            out.append(have)
        elif have not in (1, s):
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the "
                               f"existing size ({have}) at non-singleton dimension {i}.  "
                               f"Target sizes: {sizes}.  Tensor sizes: {list(shape)}")
        else:
            out.append(s)
    return tuple(out)


def _expand(x, sizes):
    """x broadcast to sizes (-1 keeps a dim): a view, as in torch."""
    return np.broadcast_to(x, expand_shape(x.shape, sizes))


def _expand_info(args):
    x, sizes = args[0], args[1].const
    if sizes is None:
        return TensorInfo(x.dtype, None)
    if x.shape is None:
        return TensorInfo(x.dtype, None if -1 in sizes else tuple(sizes))
    lead = len(sizes) - len(x.shape)
    if lead < 0:
        raise ShapeMismatch(f"expand to {list(sizes)}: fewer sizes than the tensor's rank "
                            f"{len(x.shape)}")
    out = []
    for i, s in enumerate(sizes):
        have = x.shape[i - lead] if i >= lead else 1
        if s == -1:
            out.append(have)
        elif have != 1 and same_dim(have, s) is False:
            raise ShapeMismatch(f"cannot expand {fmt(x.shape)} to {list(sizes)}: dim {i} has "
                                f"size {have}")
        else:
            out.append(s)
    return TensorInfo(x.dtype, tuple(out))


def _repeat(x, reps):
    """x tiled reps[i] times along each dim (reps may add leading dims)."""
    if len(reps) < x.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    return arr(np.tile(x, tuple(reps)))


def _repeat_info(args):
    x, reps = args[0], args[1].const
    if x.shape is None or reps is None:
        return TensorInfo(x.dtype, None)
    if len(reps) < len(x.shape):
        raise ShapeMismatch(f"repeat: {len(reps)} repeat counts for a tensor of rank "
                            f"{len(x.shape)}")
    shape = (1,) * (len(reps) - len(x.shape)) + tuple(x.shape)
    return TensorInfo(x.dtype, tuple(s * r if isinstance(s, int) else None
                                     for s, r in zip(shape, reps)))


def _repeat_interleave(x, repeats, dim):
    """Each element repeated `repeats` times (flattened first if dim is None)."""
    if dim is None:
        return np.repeat(x.reshape(-1), repeats)
    return np.repeat(x, repeats, axis=check_dim(dim, x.ndim))


reg("tensor.expand", "(Tensor self, int[] size) -> Tensor", _expand,
    ("Tensor.expand",), _expand_info, may_raise=True)
reg("tensor.expand_as", "(Tensor self, Tensor other) -> Tensor",
    lambda x, o: _expand(x, o.shape), ("Tensor.expand_as",),
    lambda a: TensorInfo(a[0].dtype, a[1].shape), may_raise=True,
    doc="x broadcast to other's shape (a view).")
reg("tensor.repeat", "(Tensor self, int[] repeats) -> Tensor", _repeat, ("Tensor.repeat",),
    _repeat_info, may_raise=True)
reg("tensor.tile", "(Tensor self, Any dims) -> Tensor", lambda x, r: arr(np.tile(x, tuple(r))),
    ("torch.tile", "Tensor.tile"), lambda a: TensorInfo(a[0].dtype, None),
    doc="x tiled (fewer dims than x are padded with 1s).")
reg("tensor.repeat_interleave", "(Tensor self, int repeats, int? dim=None) -> Tensor",
    _repeat_interleave, ("torch.repeat_interleave", "Tensor.repeat_interleave"),
    lambda a: TensorInfo(a[0].dtype, None), may_raise=True)
reg("tensor.contiguous", "(Tensor self) -> Tensor", np.ascontiguousarray,
    ("Tensor.contiguous",), same_as_first, doc="x, or a C-contiguous copy of it.")
reg("tensor.clone", "(Tensor self) -> Tensor", lambda x: x.copy(),
    ("Tensor.clone", "torch.clone"), same_as_first, doc="A copy of x.")
reg("tensor.detach", "(Tensor self) -> Tensor", lambda x: x,
    ("Tensor.detach", "Tensor.data", "Tensor.detach_", "Tensor.requires_grad_", "Tensor.cpu",
     "Tensor.numpy"), same_as_first, doc="x itself (no autograd in ember).")
reg("tensor.requires_grad_flag", "(Tensor self, bool requires_grad=True) -> Tensor",
    lambda x, flag=True: x, ("Tensor.requires_grad_",), same_as_first,
    doc="x itself: x.requires_grad_(flag) (no autograd in ember).")
reg("tensor.flip", "(Tensor self, int[] dims) -> Tensor",
    lambda x, d: np.flip(x, check_dims(d, x.ndim)).copy(), ("torch.flip", "Tensor.flip"),
    same_as_first, may_raise=True, doc="x reversed along dims (a copy, as in torch).")


def _roll(x, shifts, dims):
    """x rolled by shifts along dims (flattened if dims is empty); ints or sequences."""
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = [dims] if isinstance(dims, int) else list(dims)
    if not dims:
        return np.roll(x.reshape(-1), shifts).reshape(x.shape)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                           f"{len(dims)}")
    return np.roll(x, tuple(shifts), check_dims(dims, x.ndim))


reg("tensor.roll", "(Tensor self, Any shifts, Any dims=[]) -> Tensor", _roll,
    ("torch.roll", "Tensor.roll"), same_as_first, may_raise=True)
for _n, _p in (("view", "size"), ("permute", "dims"), ("expand", "size"), ("repeat", "repeats"),
               ("flip", "dims")):
    reg_tuple_fallback(f"tensor.{_n}", _p)
