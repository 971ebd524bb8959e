"""Shared pieces of the tensor kernels: torch's dtype rules at run time, registration,
and shape functions used by several files.

Tensors are numpy arrays at run time, always `np.ndarray` (never numpy scalars:
kernels whose numpy call may return a scalar wrap it with `arr`).

Purity: tensors are mutable (in-place ops, item assignment), so an operator
that returns a tensor or reads tensor values is registered impure — CSE must
not merge two `torch.zeros(3)` nor two `x.sum()` around an `x[0] = 1`. Only
queries of immutable facts (size, dim, dtype) are pure.
"""

from __future__ import annotations

import mmap
import os
import threading
from functools import cache

import numpy as np

from ember.ops.registry import OpDef, ShapeMismatch, register
from ember.ops.tensorinfo import (
    UNKNOWN,
    TensorInfo,
    broadcast,
    category,
    fmt,
    infer_result_type,
    result_type,
    to_float,
)

_ND = np.ndarray
F = "torch.nn.functional"
"""Qualname prefix of torch.nn.functional."""


def arr(x) -> np.ndarray:
    """x as an ndarray (numpy returns scalars for zero-dim results)."""
    return x if type(x) is _ND else np.asarray(x)


def quiet():
    """A context that silences numpy's float warnings (inf/nan are results in torch).
    A fresh object each time: np.errstate objects cannot be entered twice."""
    return np.errstate(all="ignore")


def reg(name, schema, kernel, python=(), shape=None, *, doc="", pure=False, **flags):
    """Register tensor operator `name` with schema `(…) -> …` (impure unless said)."""
    register(OpDef(name, f"{name}{schema}", kernel, python_names=python, shape_fn=shape,
                   pure=pure, doc=doc or (kernel.__doc__ or "").strip().split("\n")[0],
                   **flags))


def reg_tuple_fallback(name, param):
    """A second overload of `name` whose int[] parameter `param` is Any, for a tuple
    argument (torch.zeros((3, 4)), x.view((n, -1))): the frontend matches a tuple
    literal to no List[int] parameter, and the int[] overload keeps varargs packing."""
    from ember.ops.registry import get
    d = get(name)
    text = d.schema_text.replace(f"int[] {param}", f"Any {param}", 1)
    assert text != d.schema_text, (name, param)
    register(OpDef(f"{name}_seq", f"{name}_seq" + text[len(name):], d.kernel,
                   python_names=d.python_names, shape_fn=d.shape_fn, pure=d.pure,
                   may_raise=True, doc=d.doc + " (size given as a tuple)"))


# ----------------------------------------------------------------------------- run-time dtypes

_SCALAR_KIND = {bool: "bool", int: "int", float: "float", complex: "complex"}


@cache
def _result2(da, za, db, zb) -> np.dtype:
    dims = [d.name for d, z in ((da, za), (db, zb)) if not z]
    zeros = [d.name for d, z in ((da, za), (db, zb)) if z]
    return np.dtype(result_type(dims, zeros))


def tensors_dtype(a: np.ndarray, b: np.ndarray) -> np.dtype:
    """torch.result_type of two tensors (a zero-dim tensor does not widen within a category)."""
    if a.dtype == b.dtype:
        return a.dtype
    return _result2(a.dtype, a.ndim == 0, b.dtype, b.ndim == 0)


def broadcast_error(a: np.ndarray, b: np.ndarray) -> RuntimeError | None:
    """torch's error for tensors whose shapes do not broadcast (numpy raises ValueError);
    None if they do."""
    n = max(a.ndim, b.ndim)
    sa, sb = (1,) * (n - a.ndim) + a.shape, (1,) * (n - b.ndim) + b.shape
    for i in reversed(range(n)):
        if sa[i] != sb[i] and sa[i] != 1 and sb[i] != 1:
            return RuntimeError(f"The size of tensor a ({sa[i]}) must match the size of tensor "
                                f"b ({sb[i]}) at non-singleton dimension {i}")
    return None


@cache
def _scalar_result(d, kind) -> np.dtype:
    return np.dtype(result_type([d.name], (), [kind]))


def scalar_dtype(a: np.ndarray, s) -> np.dtype:
    """torch.result_type of a tensor and a Python scalar (int tensor + 0.5 is float32)."""
    return _scalar_result(a.dtype, _SCALAR_KIND.get(type(s), "float"))


def operands_dtype(*xs) -> np.dtype:
    """torch.result_type of any mix of tensors and Python numbers (None entries skipped)."""
    dims, zeros, scalars = [], [], []
    for x in xs:
        if isinstance(x, np.ndarray):
            (zeros if x.ndim == 0 else dims).append(x.dtype.name)
        elif x is not None:
            scalars.append(_SCALAR_KIND.get(type(x), "float"))
    return np.dtype(result_type(dims, zeros, scalars))


def as_float(a: np.ndarray) -> np.ndarray:
    """An int/bool tensor as float32 (torch's default dtype); float and complex unchanged."""
    return a if a.dtype.kind in "fc" else a.astype(np.float32)


def float_dtype(d: np.dtype) -> np.dtype:
    return d if d.kind in "fc" else np.dtype(np.float32)


def fit_scalar(s, dtype: np.dtype):
    """A Python int as a value of an integral dtype, wrapping like torch (uint8 + 300)."""
    if type(s) is int and dtype.kind in "iu":
        info = np.iinfo(dtype)
        if not info.min <= s <= info.max:
            return np.asarray(s).astype(dtype)
    return s


def need_float(a: np.ndarray, what: str) -> None:
    """RuntimeError unless a is floating point (torch: mean/var/softmax of an int tensor)."""
    if a.dtype.kind != "f":
        raise RuntimeError(f"{what}: expected a floating point tensor, got dtype {a.dtype}")


def check_dim(dim: int, ndim: int, what: str = "dim") -> int:
    """dim made non-negative; IndexError (torch's) if out of range."""
    top = max(ndim, 1)
    if not -top <= dim < top:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-top}, "
                         f"{top - 1}], but got {dim})")
    return dim % top


def check_dims(dims, ndim: int) -> tuple:
    """A dim list as a tuple of non-negative dims (repeats are an error, as in torch)."""
    out = tuple(check_dim(d, ndim) for d in dims)
    if len(set(out)) != len(out):
        raise RuntimeError(f"dim {list(dims)} appears multiple times in the list of dims")
    return out


@cache
def _row_weights(n: int, value: float, dtype) -> np.ndarray:
    v = np.full((n, 1), value, dtype)
    v.flags.writeable = False
    return v


def row_sums(x: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """scale * x.sum(axis=-1, keepdims=True) as a BLAS matrix-vector product: numpy's
    reduction over a short last axis costs several times more."""
    w = _row_weights(x.shape[-1], scale, x.dtype)
    return np.dot(x, w) if x.ndim == 2 else np.matmul(x, w)  # dot's call costs less


# ----------------------------------------------------------------------------- weight caches


class FrozenMap(mmap.mmap):
    """A read-only file mapping whose bytes ember treats as immutable: the tensor data of
    an artifact `ember.mobile.load` mapped (see docs/architecture.md, "Artifact": files
    ember writes are replaced by rename, never rewritten in place)."""

    def __new__(cls, fileno: int, length: int):
        return super().__new__(cls, fileno, length, access=mmap.ACCESS_READ)


class FrozenBuffer(np.ndarray):
    """Memory ember filled once and hands out only through read-only views (`seal`)."""


class FrozenExternal:
    """Memory another library owns and writes only after giving its writer a copy: ember
    holds `keep`, a copy-on-write clone of a torch tensor (nn/torch_memory.py), and reads
    the clone's buffer through the read-only array `np.asarray(holder)` (whose base this
    holder is). Torch-free: the clone is only kept alive here."""

    __slots__ = ("keep", "__array_interface__")

    def __init__(self, keep, address: int, shape: tuple, typestr: str):
        self.keep = keep
        self.__array_interface__ = {"version": 3, "shape": shape, "typestr": typestr,
                                    "data": (address, True)}  # True: read-only


_IMMUTABLE = (bytes, FrozenMap, FrozenBuffer, FrozenExternal)


def frozen(a: np.ndarray) -> bool:
    """True if nothing can change a's values: it and every array it views are read-only
    and the memory belongs to an immutable owner — bytes, an artifact's read-only file
    mapping (FrozenMap), a FrozenBuffer behind a read-only memoryview (`seal`) or a torch
    copy-on-write clone (FrozenExternal)."""
    while isinstance(a, np.ndarray):
        if a.flags.writeable:
            return False
        a = a.base
    if type(a) is memoryview:
        return a.readonly and isinstance(a.obj, _IMMUTABLE)
    return isinstance(a, _IMMUTABLE)


def seal(a: np.ndarray, dtype=None) -> np.ndarray:
    """A frozen copy of `a` (one copy into fresh memory nothing else can write: a read-only
    array over a read-only memoryview of a FrozenBuffer), cast to `dtype` on the way if
    given. A large array is copied by several threads at once (numpy's copy releases the
    GIL): filling fresh memory is bound by its page faults, which threads take in parallel
    (a 512 MiB model's copy took 1.2-1.8 s on one thread and 0.17-0.24 s on two on the
    shared 2-core VM: see docs/architecture.md, "Big models")."""
    owner = FrozenBuffer(a.shape, a.dtype if dtype is None else dtype)
    _copy_into(owner, a, "no" if dtype is None else "unsafe")
    view = np.frombuffer(memoryview(owner.reshape(-1)).toreadonly(), owner.dtype, a.size)
    return view.reshape(a.shape)


_PARALLEL_COPY_BYTES = 8 << 20
"""Copies at least this large are split across threads (a thread costs ~0.1 ms)."""


def _copy_into(dst: np.ndarray, src: np.ndarray, casting: str) -> None:
    parts = min(os.cpu_count() or 1, 8, dst.nbytes // (_PARALLEL_COPY_BYTES // 2))
    if parts < 2 or dst.ndim == 0 or not src.flags.c_contiguous:
        np.copyto(dst, src, casting=casting)
        return
    d, s = dst.reshape(-1), src.reshape(-1)
    bounds = [len(d) * i // parts for i in range(parts + 1)]
    errors: list = []

    def copy(lo, hi):
        try:
            np.copyto(d[lo:hi], s[lo:hi], casting=casting)
        except BaseException as e:  # noqa: BLE001 - re-raised below
            errors.append(e)
    threads = [threading.Thread(target=copy, args=(lo, hi), daemon=True)
               for lo, hi in zip(bounds[1:-1], bounds[2:])]
    for t in threads:
        t.start()
    copy(bounds[0], bounds[1])
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


_CACHE: dict = {}
_CACHE_LIMIT = 512


def prepared(tag: str, arrays, build):
    """build(*arrays), computed once per tuple of frozen arrays (recomputed otherwise).

    The cache holds the arrays themselves, so their ids cannot be reused while an
    entry lives; only frozen arrays are cached, so an entry can never be stale."""
    if not all(frozen(a) for a in arrays if a is not None):
        return build(*arrays)
    key = (tag,) + tuple(id(a) for a in arrays)
    hit = _CACHE.get(key)
    if hit is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        hit = _CACHE[key] = (tuple(arrays), build(*arrays))
    return hit[1]


TORCH_SCALAR_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double",
                      "int8": "Char", "uint8": "Byte", "int16": "Short", "int32": "Int",
                      "int64": "Long", "bool": "Bool", "complex64": "ComplexFloat",
                      "complex128": "ComplexDouble"}
"""numpy dtype name -> torch's ScalarType name, as torch's kernel errors spell it."""


def torch_scalar_name(dtype) -> str:
    return TORCH_SCALAR_NAMES.get(np.dtype(dtype).name, np.dtype(dtype).name)


def as_2d_weight(w):
    """A 1-d layer's weight (O, I, k) as (O, I, 1, k) for the 2-d kernels: the same view
    object for a frozen weight, so their weight caches (keyed on the array) hit."""
    return prepared("as_2d_weight", (w,), lambda w: w[:, :, None, :])


# ----------------------------------------------------------------------------- shape functions


def same_as_first(args):
    """Result like the first argument (dtype and shape)."""
    a = args[0]
    return TensorInfo(a.dtype, a.shape) if a.is_tensor else UNKNOWN


def as_float_info(args):
    """Result like the first argument, int/bool dtypes becoming float32."""
    a = args[0]
    return TensorInfo(to_float(a.dtype), a.shape)


def float_only_info(what):
    """Like as_float_info, but a known non-float dtype is an error (torch refuses it)."""
    def info(args):
        a = args[0]
        if a.dtype is not None and category(a.dtype) != 2:
            raise ShapeMismatch(f"{what} needs a floating point tensor, got {a.dtype}")
        return TensorInfo(a.dtype, a.shape)
    return info


def binary_info(args):
    """Tensor ⊕ tensor or tensor ⊕ scalar: promoted dtype, broadcast shape."""
    a, b = args[0], args[1]
    shape = broadcast(a.shape, b.shape) if b.is_tensor else a.shape
    return TensorInfo(infer_result_type(args[:2]), shape)


def compare_info(args):
    return TensorInfo("bool", binary_info(args).shape)


def div_info(args):
    info = binary_info(args)
    return TensorInfo(to_float(info.dtype), info.shape)


def inplace_info(args):
    """An in-place op: the result is self; the other operand must broadcast to self's shape
    and its promoted dtype must fit self's dtype category."""
    a, b = args[0], args[1]
    if b.is_tensor:
        out = broadcast(a.shape, b.shape)
        if out is not None and a.shape is not None and len(out) > len(a.shape):
            raise ShapeMismatch(f"in-place operation: shape {fmt(b.shape)} does not broadcast "
                                f"to the output shape {fmt(a.shape)}")
    rt = infer_result_type(args[:2])
    if rt is not None and a.dtype is not None and category(rt) > category(a.dtype):
        raise ShapeMismatch(f"in-place operation: result type {rt} cannot be stored in a "
                            f"tensor of dtype {a.dtype}")
    return TensorInfo(a.dtype, a.shape)
