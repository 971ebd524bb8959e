"""Creating tensors (zeros, ones, full, empty, arange, linspace, eye, tensor, *_like,
rand/randn/randint) and converting them (float(), long(), to(dtype), type_as).

Default dtypes are torch's: float32 for floating values, int64 for ints, bool for
bools; torch.full and torch.tensor infer theirs from the fill value / data.
`device`, `requires_grad` and `non_blocking` are accepted and ignored (ember runs
on the CPU without autograd).
"""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import reg, reg_tuple_fallback
from ember.ops.tensorinfo import TensorInfo

_KW = "*, ScalarType? dtype=None, Any device=None, bool requires_grad=False"
"""torch's keyword-only creation options (device and requires_grad are ignored)."""


def _size(size):
    size = tuple(size)
    if any(s < 0 for s in size):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: "
                           f"{list(size)}")
    return size


def _dtype_of_value(v):
    if isinstance(v, complex):
        return np.complex64
    return np.bool_ if isinstance(v, bool) else (np.int64 if isinstance(v, int) else np.float32)


def _kind_dtype(kind):
    return {"bool": "bool", "int": "int64", "complex": "complex64"}.get(kind, "float32")


# ----------------------------------------------------------------------------- shape functions


def _sizes(arg):
    """A static shape from a size-list argument (unknown entries None), or None."""
    if arg.const is not None:
        return tuple(arg.const)
    if arg.items is not None:
        return tuple(it.const if isinstance(it.const, int) else None for it in arg.items)
    return None


def _create_info(dtype_at, fill_at=None):
    def info(args):
        dtype = args[dtype_at].const if args[dtype_at].kind == "dtype" else None
        if dtype is None and fill_at is not None:
            fill = args[fill_at]
            dtype = _kind_dtype(type(fill.const).__name__ if fill.const is not None
                                else fill.kind)
        return TensorInfo(dtype or "float32", _sizes(args[0]))
    return info


def _like_info(dtype_at):
    def info(args):
        d = args[dtype_at]
        return TensorInfo(d.const if d.kind == "dtype" and d.const else args[0].dtype,
                          args[0].shape)
    return info


# ----------------------------------------------------------------------------- from sizes


def _full(size, value, dtype, device, requires_grad):
    """A tensor of the given size filled with value (dtype inferred from it)."""
    return np.full(_size(size), value, dtype=dtype or _dtype_of_value(value))


reg("tensor.zeros", f"(int[] size, {_KW}) -> Tensor",
    lambda s, d, *_: np.zeros(_size(s), dtype=d or np.float32), ("torch.zeros",),
    _create_info(1), may_raise=True, doc="A tensor of zeros (float32 unless dtype says).")
reg("tensor.ones", f"(int[] size, {_KW}) -> Tensor",
    lambda s, d, *_: np.ones(_size(s), dtype=d or np.float32), ("torch.ones",),
    _create_info(1), may_raise=True, doc="A tensor of ones (float32 unless dtype says).")
reg("tensor.empty", f"(int[] size, {_KW}) -> Tensor",
    lambda s, d, *_: np.empty(_size(s), dtype=d or np.float32), ("torch.empty",),
    _create_info(1), may_raise=True, doc="An uninitialized tensor.")
reg("tensor.full", f"(int[] size, Scalar fill_value, {_KW}) -> Tensor", _full,
    ("torch.full",), _create_info(2, 1), may_raise=True)


def _like(fill):
    def kernel(x, dtype, device, requires_grad):
        if fill == 0:  # calloc'd: the pages are mapped when first written, if ever
            return np.zeros(x.shape, dtype=dtype or x.dtype)
        return np.full(x.shape, fill, dtype=dtype or x.dtype)
    return kernel


for _n, _fill in (("zeros_like", 0), ("ones_like", 1)):
    reg(f"tensor.{_n}", f"(Tensor self, {_KW}) -> Tensor", _like(_fill), (f"torch.{_n}",),
        _like_info(1), doc=f"A tensor of {_fill}s with self's shape (and dtype).")
reg("tensor.empty_like", f"(Tensor self, {_KW}) -> Tensor",
    lambda x, d, *_: np.empty(x.shape, dtype=d or x.dtype), ("torch.empty_like",),
    _like_info(1), doc="An uninitialized tensor with self's shape (and dtype).")
reg("tensor.full_like", f"(Tensor self, Scalar fill_value, {_KW}) -> Tensor",
    lambda x, v, d, *_: np.full(x.shape, v, dtype=d or x.dtype), ("torch.full_like",),
    _like_info(2), doc="A tensor filled with a value, with self's shape (and dtype).")
reg("tensor.new_zeros", f"(Tensor self, int[] size, {_KW}) -> Tensor",
    lambda x, s, d, *_: np.zeros(_size(s), dtype=d or x.dtype), ("Tensor.new_zeros",),
    lambda a: TensorInfo(a[2].const or a[0].dtype, _sizes(a[1])), may_raise=True,
    doc="Zeros of the given size with self's dtype.")
reg("tensor.new_ones", f"(Tensor self, int[] size, {_KW}) -> Tensor",
    lambda x, s, d, *_: np.ones(_size(s), dtype=d or x.dtype), ("Tensor.new_ones",),
    lambda a: TensorInfo(a[2].const or a[0].dtype, _sizes(a[1])), may_raise=True,
    doc="Ones of the given size with self's dtype.")
reg("tensor.new_full", f"(Tensor self, int[] size, Scalar fill_value, {_KW}) -> Tensor",
    lambda x, s, v, d, *_: np.full(_size(s), v, dtype=d or x.dtype), ("Tensor.new_full",),
    lambda a: TensorInfo(a[3].const or a[0].dtype, _sizes(a[1])), may_raise=True,
    doc="A tensor of the given size filled with a value, with self's dtype.")


for _n in ("zeros", "ones", "empty", "full", "new_zeros", "new_ones", "new_full"):
    reg_tuple_fallback(f"tensor.{_n}", "size")


def _fill_(x, value):
    """Every element of self set to value; returns self."""
    x[...] = value.item() if isinstance(value, np.ndarray) else value
    return x


reg("tensor.fill_", "(Tensor self, Scalar value) -> Tensor", _fill_,
    ("Tensor.fill_", "torch.fill_", "torch.nn.init.constant_"),
    lambda a: TensorInfo(a[0].dtype, a[0].shape))
reg("tensor.zero_", "(Tensor self) -> Tensor", lambda x: _fill_(x, 0),
    ("Tensor.zero_", "torch.zero_", "torch.nn.init.zeros_"),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), doc="Every element of self set to 0.")
reg("tensor.one_", "(Tensor self) -> Tensor", lambda x: _fill_(x, 1), ("torch.nn.init.ones_",),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), doc="Every element of self set to 1.")
reg("tensor.copy_", "(Tensor self, Tensor src, bool non_blocking=False) -> Tensor",
    lambda x, s, nb: (np.copyto(x, s, casting="unsafe"), x)[1], ("Tensor.copy_",),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True,
    doc="src (broadcast, cast) copied into self; returns self.")


def _out_copy(out, result):
    """An operator's result written into its out= tensor, as torch does (same shape here:
    ember's tensors do not change shape in place); torch's error for a result dtype the
    out tensor cannot hold (a float result into an int tensor)."""
    result = np.asarray(result)
    if not _can_cast(result.dtype, out.dtype):
        raise RuntimeError(f"result type {_TORCH_NAME.get(result.dtype.kind, result.dtype)} "
                           "can't be cast to the desired output type "
                           f"{_TORCH_NAME.get(out.dtype.kind, out.dtype)}")
    if result.shape != out.shape:
        raise RuntimeError(f"out= tensor has shape {list(out.shape)} but the result has "
                           f"shape {list(result.shape)} (ember does not resize a tensor in "
                           "place)")
    np.copyto(out, result, casting="unsafe")
    return out


_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
_TORCH_NAME = {"b": "Bool", "u": "Byte", "i": "Long", "f": "Float", "c": "ComplexFloat"}


def _can_cast(src, dst) -> bool:
    """torch's canCast: no float to integral, complex to non-complex, or non-bool to bool."""
    if dst.kind == "b":
        return src.kind == "b"
    return _KIND_RANK[src.kind] <= _KIND_RANK[dst.kind]


reg("tensor.out_copy", "(Tensor out, Tensor result) -> Tensor", _out_copy, (),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True,
    doc="An out= argument: result copied into out (same shape, a dtype out can hold).")

# ----------------------------------------------------------------------------- ranges


def _arange(start, end, step, dtype, device=None, requires_grad=False):
    """Values from start (inclusive) to end (exclusive) by step."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    if dtype is None:
        dtype = np.int64 if all(isinstance(v, int) for v in (start, end, step)) else np.float32
    n = max(int(np.ceil((end - start) / step)), 0)
    return (start + np.arange(n, dtype=np.float64) * step).astype(dtype) if \
        np.dtype(dtype).kind == "f" else np.arange(start, end, step).astype(dtype)


def _arange_info(args):
    d = args[3]
    if d.kind == "dtype" and d.const:
        return TensorInfo(d.const, (None,))
    kinds = [a.kind for a in args[:3] if a.kind not in ("none", None)]
    return TensorInfo("float32" if "float" in kinds else "int64", (None,))


reg("tensor.arange", f"(Scalar end, {_KW}) -> Tensor",
    lambda e, d, *_: _arange(e, None, 1, d), ("torch.arange",),
    lambda a: _arange_info([a[0], _NONE, _NONE, a[1]]), may_raise=True,
    doc="0, 1, ..., end - 1 (int64 for int end, float32 otherwise).")
reg("tensor.arange_range", f"(Scalar start, Scalar end, Scalar step=1, {_KW}) -> Tensor",
    _arange, ("torch.arange",), _arange_info, may_raise=True)


class _Arg:
    kind, const, is_tensor = "none", None, False


_NONE = _Arg()


def _linspace(start, end, steps, dtype, device=None, requires_grad=False):
    """steps values evenly spaced from start to end inclusive (float32 by default)."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return np.linspace(start, end, steps, dtype=np.float64).astype(dtype or np.float32)


reg("tensor.linspace", f"(Scalar start, Scalar end, int steps, {_KW}) -> Tensor", _linspace,
    ("torch.linspace",), lambda a: TensorInfo(a[3].const or "float32", (a[2].const,)),
    may_raise=True)
reg("tensor.eye", f"(int n, int? m=None, {_KW}) -> Tensor",
    lambda n, m, d, *_: np.eye(n, n if m is None else m, dtype=d or np.float32),
    ("torch.eye",), lambda a: TensorInfo(a[2].const or "float32",
                                         (a[0].const, a[1].const if a[1].kind != "none"
                                          else a[0].const)),
    may_raise=True, doc="The identity matrix (n x m).")

def _tri_indices(lower: bool):
    def kernel(row, col, offset, dtype, device=None, requires_grad=False):
        """The (row, column) indices of the lower (upper) triangle of a row x col matrix,
        as a 2 x N tensor in row-major order (torch.tril_indices / triu_indices)."""
        if row < 0 or col < 0:
            raise RuntimeError(f"row must be non-negative, got{row}" if row < 0 else
                               f"col must be non-negative, got{col}")
        fn = np.tril_indices if lower else np.triu_indices
        rows, cols = fn(row, offset, col) if row and col else ([], [])
        return np.array([rows, cols], dtype=dtype or np.int64).reshape(2, -1)
    return kernel


for _n, _lower in (("tril_indices", True), ("triu_indices", False)):
    reg(f"tensor.{_n}", f"(int row, int col, int offset=0, {_KW}) -> Tensor",
        _tri_indices(_lower), (f"torch.{_n}",),
        lambda a: TensorInfo(a[3].const or "int64", (2, None)), may_raise=True,
        doc=f"torch.{_n}: a 2 x N tensor of the triangle's (row, column) indices.")

# ----------------------------------------------------------------------------- random


def _rng():
    return np.random.default_rng()


reg("tensor.rand", f"(int[] size, {_KW}) -> Tensor",
    lambda s, d, *_: _rng().random(_size(s), dtype=np.float64).astype(d or np.float32),
    ("torch.rand",), _create_info(1), may_raise=True,
    doc="Uniform [0, 1) samples (numpy's generator: values differ from torch's).")
reg("tensor.randn", f"(int[] size, {_KW}) -> Tensor",
    lambda s, d, *_: _rng().standard_normal(_size(s)).astype(d or np.float32),
    ("torch.randn",), _create_info(1), may_raise=True,
    doc="Standard normal samples (numpy's generator: values differ from torch's).")
reg("tensor.randint", f"(int low, int high, int[] size, {_KW}) -> Tensor",
    lambda lo, hi, s, d, *_: _rng().integers(lo, hi, _size(s)).astype(d or np.int64),
    ("torch.randint",), lambda a: TensorInfo(a[3].const or "int64", _sizes(a[2])),
    may_raise=True, doc="Uniform integers in [low, high).")
for _n in ("rand", "randn", "randint"):
    reg_tuple_fallback(f"tensor.{_n}", "size")


def _normal(mean, std, *rest):
    """Normal samples of the given means and standard deviations (broadcast together;
    numpy's generator: values differ from torch's)."""
    m, sd = np.asarray(mean), np.asarray(std)
    if (sd < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")
    out = _rng().normal(m, sd)
    dtype = mean.dtype if isinstance(mean, np.ndarray) else std.dtype
    return np.asarray(out, dtype=dtype)


def _normal_info(a):
    t = a[0] if a[0].dtype is not None else a[1]
    return TensorInfo(t.dtype, None)


reg("tensor.normal", "(Tensor mean, Tensor std) -> Tensor", _normal, ("torch.normal",),
    _normal_info, may_raise=True, fold=False, doc=_normal.__doc__)
reg("tensor.normal_mean", "(Tensor mean, float std=1.0) -> Tensor", _normal,
    ("torch.normal",), lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True,
    fold=False, doc=_normal.__doc__)
reg("tensor.normal_std", "(float mean, Tensor std) -> Tensor", _normal, ("torch.normal",),
    lambda a: TensorInfo(a[1].dtype, a[1].shape), may_raise=True, fold=False,
    doc=_normal.__doc__)
reg("tensor.normal_size", f"(float mean, float std, int[] size, {_KW}) -> Tensor",
    lambda m, sd, size, d, *_: _rng().normal(m, sd, _size(size)).astype(d or np.float32),
    ("torch.normal",), lambda a: TensorInfo(
        (a[3].const if a[3].kind == "dtype" else None) or "float32", _sizes(a[2])),
    may_raise=True, fold=False,
    doc="Normal samples of one mean and standard deviation, of the given size.")


def _randperm(n, dtype, device=None, requires_grad=False):
    """A random permutation of 0 .. n-1 (int64 unless dtype says)."""
    if n < 0:
        raise RuntimeError(f"n must be non-negative, got{n}")
    return _rng().permutation(n).astype(dtype or np.int64)


reg("tensor.randperm", f"(int n, {_KW}) -> Tensor", _randperm, ("torch.randperm",),
    lambda a: TensorInfo(a[1].const or "int64", (a[0].const,)), may_raise=True,
    doc="A random permutation of the integers 0 .. n-1 (numpy's generator).")
reg("tensor.rand_like", f"(Tensor self, {_KW}) -> Tensor",
    lambda x, d, *_: _rng().random(x.shape).astype(d or x.dtype), ("torch.rand_like",),
    _like_info(1), doc="Uniform [0, 1) samples with self's shape.")
reg("tensor.randn_like", f"(Tensor self, {_KW}) -> Tensor",
    lambda x, d, *_: _rng().standard_normal(x.shape).astype(d or x.dtype),
    ("torch.randn_like",), _like_info(1), doc="Standard normal samples with self's shape.")

def _bernoulli_(x, p):
    """Fill x in place with 1 (probability p) or 0; return x."""
    if not 0.0 <= p <= 1.0:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    x[...] = _rng().random(x.shape) < p
    return x


def _bernoulli(x):
    """1 where a uniform sample falls below x's value (a probability), else 0."""
    if x.dtype.kind != "f":
        raise RuntimeError(f"bernoulli is only implemented for floating types, got {x.dtype}")
    if x.size and (np.nanmin(x) < 0 or np.nanmax(x) > 1 or np.isnan(x).any()):
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true")
    return (_rng().random(x.shape) < x).astype(x.dtype)


reg("tensor.bernoulli_", "(Tensor self, float p=0.5, *, Any generator=None) -> Tensor",
    lambda x, p, g=None: _bernoulli_(x, p), ("Tensor.bernoulli_",),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True,
    doc="In place: each element becomes 1 with probability p, else 0 (numpy's generator).")
reg("tensor.bernoulli", "(Tensor self, *, Any generator=None) -> Tensor",
    lambda x, g=None: _bernoulli(x), ("torch.bernoulli", "Tensor.bernoulli"),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True,
    doc="1 with probability self (elementwise), else 0 (numpy's generator).")


# ----------------------------------------------------------------------------- torch.tensor


def _ragged(data, dim=0, want=None):
    """torch's message for nested lists of unequal lengths, else None."""
    want = {} if want is None else want
    if not isinstance(data, list):
        return None
    n = want.setdefault(dim, len(data))
    if len(data) != n:
        return f"expected sequence of length {n} at dim {dim} (got {len(data)})"
    for x in data:
        why = _ragged(x, dim + 1, want)
        if why is not None:
            return why
    return None


def _checked_data(data, dtype):
    """np.array(data) as dtype, with torch's errors: ValueError for ragged lists,
    RuntimeError for a value out of an integer dtype's range (an int may wrap into an
    unsigned type from its negative side: torch.tensor([-1], dtype=torch.uint8) is 255)."""
    why = _ragged(data)
    if why is not None:
        raise ValueError(why)
    a = np.array(data)
    target = np.dtype(dtype)
    if target.kind in "iu" and a.size and a.dtype.kind in "fiu":
        info = np.iinfo(target)
        if a.dtype.kind == "f":
            bad = ~((a >= info.min) & (a <= info.max))
        elif target.kind == "u":
            bad = (a > info.max) | (a < -int(info.max))
        else:
            bad = (a > info.max) | (a < info.min)
        if bad.any():
            raise RuntimeError(f"value cannot be converted to type {target.name} without "
                               "overflow")
    return a.astype(target)


def _from_data(default):
    def kernel(data, dtype, device=None, requires_grad=False):
        return _checked_data(data, dtype or default)
    kernel.__doc__ = f"A new tensor holding a copy of data ({np.dtype(default).name} default)."
    return kernel


_TENSOR_FROM = [("bool", "bool", np.bool_), ("int", "int", np.int64),
                ("float", "float", np.float32), ("complex", "complex", np.complex64),
                ("floats", "float[]", np.float32), ("ints", "int[]", np.int64),
                ("bools", "bool[]", np.bool_), ("nested_floats", "float[][]", np.float32),
                ("nested_ints", "int[][]", np.int64), ("nested3_floats", "float[][][]",
                                                       np.float32),
                ("nested_bools", "bool[][]", np.bool_), ("nested3_ints", "int[][][]", np.int64),
                ("complexes", "complex[]", np.complex64),
                ("nested_complexes", "complex[][]", np.complex64),
                ("nested3_bools", "bool[][][]", np.bool_),
                ("nested4_ints", "int[][][][]", np.int64),
                ("nested4_floats", "float[][][][]", np.float32),
                ("nested4_bools", "bool[][][][]", np.bool_)]
"""The scalars first: an int must not become int[] (the varargs rule of sizes)."""
def _data_shape(arg):
    """The static shape of torch.tensor's data: () for a number, [n] for a list literal,
    [n, m] for a literal of n list literals of m numbers (and deeper)."""
    if arg.kind in ("int", "float", "bool", "complex"):
        return ()
    if arg.items is not None and arg.items:
        inner = {_data_shape(it) for it in arg.items}
        if len(inner) == 1 and None not in inner:
            return (len(arg.items),) + inner.pop()
        return None
    if isinstance(arg.const, list):
        return _const_shape(arg.const)
    return None


def _const_shape(data):
    if not isinstance(data, list):
        return ()
    inner = {_const_shape(v) for v in data}
    if len(inner) > 1 or None in inner:
        return None
    return (len(data),) + (inner.pop() if inner else ())


def _data_info(default):
    return lambda a: TensorInfo(a[1].const or default, _data_shape(a[0]))


for _n, _t, _d in _TENSOR_FROM:
    reg(f"tensor.from_{_n}", f"({_t} data, {_KW}) -> Tensor", _from_data(_d),
        ("torch.tensor", "torch.as_tensor"),
        _data_info(np.dtype(_d).name), fold=False, may_raise=True)
reg("tensor.index_ints", "(int[] data) -> Tensor", lambda d: np.array(d, dtype=np.int64),
    (), lambda a: TensorInfo("int64", (None,)), fold=False,
    doc="The index tensor of x[[i, j, ...]] (int64).")
reg("tensor.index_bools", "(bool[] data) -> Tensor", lambda d: np.array(d, dtype=np.bool_),
    (), lambda a: TensorInfo("bool", (None,)), fold=False,
    doc="The mask tensor of x[[True, False, ...]].")
reg("tensor.as_tensor", f"(Tensor data, {_KW}) -> Tensor",
    lambda x, d, *_: x.astype(d, copy=False) if d else x, ("torch.as_tensor",),
    _like_info(1), doc="data itself (or converted to dtype).")

# ----------------------------------------------------------------------------- conversions


def _convert(dtype):
    def kernel(x):
        return x.astype(dtype, copy=False)
    kernel.__doc__ = f"self as {dtype} (self itself if it already is)."
    return kernel


_CONVERSIONS = [("float", "float32"), ("double", "float64"), ("half", "float16"),
                ("int", "int32"), ("long", "int64"), ("short", "int16"), ("char", "int8"),
                ("byte", "uint8"), ("bool", "bool")]
def _fixed_dtype(dtype):
    return lambda a: TensorInfo(dtype, a[0].shape)


for _n, _dt in _CONVERSIONS:
    reg(f"tensor.to_{_n}", "(Tensor self) -> Tensor", _convert(_dt), (f"Tensor.{_n}",),
        _fixed_dtype(_dt))


def _to(x, dtype, non_blocking=False, copy=False):
    """self converted to dtype (self itself if it already is, unless copy)."""
    return x.astype(dtype, copy=copy)


reg("tensor.to", "(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False) "
    "-> Tensor", _to, ("Tensor.to", "Tensor.type"), lambda a: TensorInfo(a[1].const,
                                                                         a[0].shape))
reg("tensor.to_other", "(Tensor self, Tensor other, bool non_blocking=False, bool copy=False)"
    " -> Tensor", lambda x, o, nb, c: x.astype(o.dtype, copy=c), ("Tensor.to",),
    lambda a: TensorInfo(a[1].dtype, a[0].shape), doc="self converted to other's dtype.")
reg("tensor.to_device", "(Tensor self, str device, ScalarType? dtype=None, "
    "bool non_blocking=False, bool copy=False) -> Tensor",
    lambda x, dev, d, nb, c: x.astype(d or x.dtype, copy=c), ("Tensor.to",),
    lambda a: TensorInfo(a[2].const or a[0].dtype, a[0].shape),
    doc="self on a device (ember has only the CPU), optionally converted to dtype.")
reg("tensor.type_as", "(Tensor self, Tensor other) -> Tensor",
    lambda x, o: x.astype(o.dtype, copy=False), ("Tensor.type_as",),
    lambda a: TensorInfo(a[1].dtype, a[0].shape), doc="self converted to other's dtype.")

# ----------------------------------------------------------------------------- sizes and values


def _size_dim(x, dim):
    """The size of one dim (negative counts from the end)."""
    if not -x.ndim <= dim < max(x.ndim, 1) or x.ndim == 0:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(x.ndim, 1)}, {max(x.ndim, 1) - 1}], but got {dim})")
    return x.shape[dim]


def _item(x):
    if x.size != 1:
        raise RuntimeError(f"a Tensor with {x.size} elements cannot be converted to Scalar")
    return x.reshape(()).item()


def _bool_value(x):
    if x.size != 1:
        raise RuntimeError(f"Boolean value of Tensor with {x.size} values is ambiguous")
    return bool(x.reshape(()).item())


def _len(x):
    if x.ndim == 0:
        raise TypeError("len() of a 0-d tensor")
    return x.shape[0]


def _tolist(x):
    """The values of a 1-D tensor as a list of floats."""
    if x.ndim != 1:
        raise RuntimeError(f"tolist(): ember types the result as List[float], which needs a "
                           f"1-D tensor, got {x.ndim}-D")
    return x.astype(float).tolist()


reg("tensor.size", "(Tensor self) -> int[]", lambda x: list(x.shape),
    ("Tensor.size", "Tensor.shape"), pure=True, doc="The sizes of all dims.")
reg("tensor.size_dim", "(Tensor self, int dim) -> int", _size_dim, ("Tensor.size",),
    pure=True, may_raise=True)
reg("tensor.dim", "(Tensor self) -> int", lambda x: x.ndim,
    ("Tensor.dim", "Tensor.ndim", "Tensor.ndimension"), pure=True, doc="The number of dims.")
reg("tensor.numel", "(Tensor self) -> int", lambda x: int(x.size),
    ("Tensor.numel", "torch.numel", "Tensor.nelement"), pure=True,
    doc="The number of elements.")
reg("tensor.element_size", "(Tensor self) -> int", lambda x: x.itemsize,
    ("Tensor.element_size",), pure=True, doc="Bytes per element.")
reg("tensor.is_floating_point", "(Tensor self) -> bool", lambda x: x.dtype.kind == "f",
    ("Tensor.is_floating_point", "torch.is_floating_point"), pure=True,
    doc="True for float16/32/64 tensors.")
reg("tensor.is_signed", "(Tensor self) -> bool", lambda x: x.dtype.kind in "ifc",
    ("Tensor.is_signed",), pure=True, doc="False for uint8 and bool tensors.")


def _storage_offset(x):
    """The element offset of x in the memory of the array that owns it (a view's offset)."""
    root = x
    while isinstance(root.base, np.ndarray):
        root = root.base
    start = x.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return start // x.itemsize if x.itemsize else 0


reg("tensor.storage_offset", "(Tensor self) -> int", _storage_offset,
    ("Tensor.storage_offset",), doc="The offset of a view's first element in its storage.")
reg("tensor.is_contiguous", "(Tensor self) -> bool", lambda x: x.flags.c_contiguous,
    ("Tensor.is_contiguous",), doc="True if the elements are in row-major order in memory.")
def _iter_len(x):
    if x.ndim == 0:
        raise TypeError("iteration over a 0-d tensor")
    return x.shape[0]


def _contains(x, element):
    """`element in x` (torch's Tensor.__contains__): whether any element equals it."""
    if isinstance(element, np.ndarray):
        try:
            np.broadcast_shapes(element.shape, x.shape)
        except ValueError:
            from ember.ops.tensor_common import broadcast_error
            raise broadcast_error(element, x) from None
    with np.errstate(invalid="ignore"):
        return bool(np.any(np.asarray(element) == x))


reg("tensor.contains", "(Tensor self, Scalar element) -> bool", _contains,
    ("Tensor.__contains__",), pure=True, doc="`element in x`: any element equals it.")
reg("tensor.contains_tensor", "(Tensor self, Tensor element) -> bool", _contains,
    ("Tensor.__contains__",), pure=True, may_raise=True,
    doc="`y in x` for a tensor y: any element of y == x (broadcast) holds.")
reg("tensor.hash", "(Tensor self) -> int", id, ("Tensor.__hash__",), fold=False,
    doc="hash(x): by identity, as torch hashes tensors.")
reg("tensor.iter_len", "(Tensor self) -> int", _iter_len, (), pure=True, may_raise=True,
    doc="How many times `for r in x` runs: the size of dim 0.")
reg("tensor.len", "(Tensor self) -> int", _len, ("builtins.len",), pure=True, may_raise=True,
    doc="The size of dim 0.")
def _item_float(x):
    if x.dtype.kind == "c":
        raise RuntimeError("item(): ember types the result as float, but the tensor is "
                           f"{x.dtype}: use complex(x) for its element")
    return float(_item(x))


reg("tensor.item_float", "(Tensor self) -> float", _item_float,
    ("Tensor.item",), may_raise=True, doc="The value of a one-element tensor, as a float.")
reg("tensor.complex_value", "(Tensor self) -> complex", lambda x: complex(_item(x)),
    ("Tensor.__complex__",), may_raise=True, doc="complex(x) of a one-element tensor.")
reg("tensor.float_value", "(Tensor self) -> float", lambda x: float(_item(x)),
    ("Tensor.__float__",), may_raise=True, doc="float(x) of a one-element tensor.")
reg("tensor.int_value", "(Tensor self) -> int", lambda x: int(_item(x)),
    ("Tensor.__int__", "Tensor.__index__"), may_raise=True,
    doc="int(x) of a one-element tensor (truncates).")
def _number_of(kind):
    def kernel(x):
        if x.ndim != 0:  # CPython's torch takes only a 0-dim tensor for a number argument
            raise TypeError(f"argument must be {kind.__name__}, not Tensor (a tensor of "
                            f"{x.ndim} dimension(s) cannot stand for a number)")
        return kind(_item(x))
    return kernel


reg("tensor.implicit_int", "(Tensor self) -> int", _number_of(int), (), may_raise=True,
    doc="A 0-dim tensor given for an int argument (TorchScript's ImplicitTensorToNum).")
reg("tensor.implicit_float", "(Tensor self) -> float", _number_of(float), (), may_raise=True,
    doc="A 0-dim tensor given for a float argument (TorchScript's ImplicitTensorToNum).")
reg("tensor.bool_value", "(Tensor self) -> bool", _bool_value, ("Tensor.__bool__",),
    may_raise=True, doc="bool(x) of a one-element tensor.")
reg("tensor.tolist_float", "(Tensor self) -> float[]", _tolist, ("Tensor.tolist",),
    may_raise=True)

_TOLIST_KINDS = {"int": "iu", "float": "f", "bool": "b", "complex": "c"}


def _tolist_as(elem: str, ndim: int):
    """x.tolist() typed List[...[elem]] (ndim deep; the element itself for 0 dims), as
    TorchScript types it from the annotation: the tensor must have that many dims and
    an element type of that kind."""
    def kernel(x):
        if x.ndim != ndim:
            raise RuntimeError(f"Output annotation list dimension and runtime tensor "
                               f"dimension must match for tolist(): {ndim} != {x.ndim}")
        if x.dtype.kind not in _TOLIST_KINDS[elem]:
            raise RuntimeError(f"Output annotation element type and runtime tensor element "
                               f"type must match for tolist(): {elem} != {x.dtype.name}")
        return x.tolist()
    kernel.__name__ = f"tolist_{elem}_{ndim}"
    return kernel


for _elem in _TOLIST_KINDS:
    for _ndim in range(5):
        reg(f"tensor.tolist_{_elem}_{_ndim}",
            f"(Tensor self) -> {_elem}" + "[]" * _ndim, _tolist_as(_elem, _ndim), (),
            may_raise=True, doc=f"x.tolist() typed {'List[' * _ndim}{_elem}{']' * _ndim}.")
_DTYPE_NAMES: dict = {}


def _dtype_name(x):
    """x.dtype.name, memoized: numpy builds the name string anew on every access (~2 us)."""
    dt = x.dtype
    name = _DTYPE_NAMES.get(dt)
    if name is None:
        name = _DTYPE_NAMES[dt] = dt.name
    return name


reg("tensor.dtype", "(Tensor self) -> ScalarType", _dtype_name, ("Tensor.dtype",),
    pure=True, doc="The dtype (its numpy name at run time).")
SCALAR_TYPE_CODES = {"uint8": 0, "int8": 1, "int16": 2, "int32": 3, "int64": 4, "float16": 5,
                     "float32": 6, "float64": 7, "bool": 11}
"""TorchScript's ScalarType codes of the dtypes ember has (archives spell dtypes so)."""
_CODE_DTYPES = {v: k for k, v in SCALAR_TYPE_CODES.items()}


def _dtype_of_code(code):
    name = _CODE_DTYPES.get(code)
    if name is None:
        raise ValueError(f"ScalarType {code} is not a dtype ember supports (it has "
                         f"{', '.join(f'{k}={v}' for k, v in _CODE_DTYPES.items())})")
    return name


reg("tensor.scalar_type", "(Tensor self) -> int", lambda x: SCALAR_TYPE_CODES[_dtype_name(x)],
    ("ember.scalar_type",), pure=True,
    doc="The dtype as TorchScript's ScalarType code (float32 is 6).")
reg("tensor.dtype_of_code", "(int code) -> ScalarType", _dtype_of_code,
    ("ember.dtype_of_scalar_type",), pure=True, may_raise=True,
    doc="The dtype of a TorchScript ScalarType code (6 is float32).")
reg("tensor.dtype_of_optional_code", "(int? code) -> ScalarType?",
    lambda code: None if code is None else _dtype_of_code(code),
    ("ember.dtype_of_optional_scalar_type",), pure=True, may_raise=True,
    doc="The dtype of a TorchScript ScalarType code, or None.")
reg("tensor.device", "(Tensor self) -> str", lambda x: "cpu", ("Tensor.device",), pure=True,
    doc="The device: always 'cpu'.")
reg("tensor.is_cuda", "(Tensor self) -> bool", lambda x: False, ("Tensor.is_cuda",),
    pure=True, doc="Always False (ember runs on the CPU).")
_NOT_KINDS = ("is_ipu", "is_maia", "is_meta", "is_mkldnn", "is_mps", "is_mtia", "is_nested",
              "is_quantized", "is_sparse", "is_sparse_csr", "is_vulkan", "is_xla", "is_xpu",
              "retains_grad")
for _n in _NOT_KINDS:
    reg(f"tensor.{_n}", "(Tensor self) -> bool", lambda x: False, (f"Tensor.{_n}",), pure=True,
        doc=f"x.{_n}: always False (a dense CPU tensor without autograd).")
reg("tensor.is_cpu", "(Tensor self) -> bool", lambda x: True, ("Tensor.is_cpu",), pure=True,
    doc="Always True (ember runs on the CPU).")
reg("tensor.is_leaf", "(Tensor self) -> bool", lambda x: True, ("Tensor.is_leaf",), pure=True,
    doc="Always True: no tensor has a gradient history in compiled code.")
reg("tensor.grad", "(Tensor self) -> Tensor?", lambda x: None, ("Tensor.grad",),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), pure=True,
    doc="Always None: no gradient is accumulated in compiled code.")
reg("tensor.name", "(Tensor self) -> str?", lambda x: None, ("Tensor.name",), pure=True,
    doc="Always None (ember's tensors are not named).")
reg("tensor.itemsize", "(Tensor self) -> int", lambda x: x.itemsize, ("Tensor.itemsize",),
    pure=True, doc="Bytes per element.")
reg("tensor.nbytes", "(Tensor self) -> int", lambda x: x.nbytes, ("Tensor.nbytes",),
    pure=True, doc="Bytes of the elements (size * itemsize).")


def _adjoint(x, matrix: bool):
    if x.ndim != 2 and not matrix:
        raise RuntimeError("tensor.H is only supported on matrices (2-D tensors). Got "
                           f"{x.ndim}-D tensor.")
    if x.ndim < 2:
        raise RuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. "
                           f"Got {x.ndim}-D tensor.")
    y = np.swapaxes(x, -1, -2)
    return np.conj(y) if y.dtype.kind == "c" else y


reg("tensor.H", "(Tensor self) -> Tensor", lambda x: _adjoint(x, False), ("Tensor.H",),
    lambda a: TensorInfo(a[0].dtype, None), may_raise=True,
    doc="The conjugate transpose of a matrix.")
reg("tensor.mH", "(Tensor self) -> Tensor", lambda x: _adjoint(x, True), ("Tensor.mH",),
    lambda a: TensorInfo(a[0].dtype, None), may_raise=True,
    doc="The conjugate transpose of the last two dims.")

# ----------------------------------------------------------------------------- legacy classes

_LEGACY = {"BoolTensor": np.bool_, "ByteTensor": np.uint8, "CharTensor": np.int8,
           "ShortTensor": np.int16, "IntTensor": np.int32, "LongTensor": np.int64,
           "HalfTensor": np.float16, "FloatTensor": np.float32, "DoubleTensor": np.float64}
"""torch's legacy tensor classes as constructors: torch.LongTensor([1, 2]) is a tensor of
the class's dtype holding the data (converted as astype does); torch.DoubleTensor() an
empty one."""


def _legacy_data(dtype):
    def kernel(data):
        return np.array(data).astype(dtype)
    kernel.__doc__ = f"A new {np.dtype(dtype).name} tensor holding a copy of data."
    return kernel


def _legacy_empty(dtype):
    def kernel():
        return np.zeros((0,), dtype)
    kernel.__doc__ = f"An empty {np.dtype(dtype).name} tensor."
    return kernel


def _legacy_sizes(dtype):
    def kernel(size):
        return np.zeros(_size(size), dtype)
    kernel.__doc__ = (f"A new {np.dtype(dtype).name} tensor of the given sizes (torch leaves "
                      "it uninitialized; ember's holds zeros).")
    return kernel


for _cls, _dt in _LEGACY.items():
    _name = np.dtype(_dt).name
    # torch.LongTensor(2, 3): sizes given as separate ints (the frontend binds this overload
    # only to such ints, never to a list, which is data)
    reg(f"tensor.legacy_{_name}_sizes", "(int[] size) -> Tensor", _legacy_sizes(_dt),
        (f"torch.{_cls}",), lambda a, d=_name: TensorInfo(d, None), fold=False, may_raise=True)
    for _n, _t, _ in _TENSOR_FROM:
        if _t.endswith("]"):
            reg(f"tensor.legacy_{_name}_{_n}", f"({_t} data) -> Tensor", _legacy_data(_dt),
                (f"torch.{_cls}",), lambda a, d=_name: TensorInfo(d, _data_shape(a[0])),
                fold=False)
    reg(f"tensor.legacy_{_name}_empty", "() -> Tensor", _legacy_empty(_dt), (f"torch.{_cls}",),
        lambda a, d=_name: TensorInfo(d, (0,)), fold=False)
